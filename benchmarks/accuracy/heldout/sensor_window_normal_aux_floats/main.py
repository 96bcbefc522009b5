"""Vibration monitoring for a pump: each new window of accelerometer readings
is scored against a Normal baseline fitted on the previous window."""
import jax
import jax.numpy as jnp
import numpy as np

from distributions import Normal

WINDOW = 64
THRESHOLD = -6.0


@jax.jit
def score_window(baseline, readings):
    logp = baseline.log_prob(readings)
    tail = 1.0 - baseline.cdf(jnp.max(readings))
    return logp, jnp.sum(logp < THRESHOLD), tail


class PumpMonitor:
    def __init__(self, name):
        self.name = name
        self.baseline = None
        self.alarms = []

    def refit(self, readings):
        readings = np.asarray(readings)
        self.baseline = Normal(loc=float(readings.mean()), scale=float(readings.std()) + 1e-3)  # expect: RTL202

    def process(self, step, readings):
        if self.baseline is not None:
            logp, n_outliers, tail = score_window(self.baseline, jnp.asarray(readings))  # expect: RTL202
            if int(n_outliers) > 0:
                self.alarms.append((step, int(n_outliers), float(tail)))
        self.refit(readings)


def sensor_stream(n_windows, seed=0):
    rng = np.random.default_rng(seed)
    for k in range(n_windows):
        drift = 0.05 * k
        window = rng.normal(drift, 1.0 + 0.1 * k, size=WINDOW).astype(np.float32)
        if k == 3:
            window[10] += 9.0  # a bearing knock
        yield k, window


def main():
    monitor = PumpMonitor("pump-7")
    for step, window in sensor_stream(5):
        monitor.process(step, window)
    print(monitor.name, "alarms:", monitor.alarms)


if __name__ == "__main__":
    main()
