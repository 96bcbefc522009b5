"""Two-state (offset, drift) Kalman filter for a GNSS receiver clock with adaptive process noise."""

import jax
import jax.numpy as jnp

F = jnp.array([[1.0, 1.0], [0.0, 1.0]], jnp.float32)
H = jnp.array([[1.0, 0.0]], jnp.float32)


@jax.jit
def filter_step(mean, cov, measurement, process_noise, meas_noise):
    q = process_noise * jnp.array([[0.25, 0.5], [0.5, 1.0]], jnp.float32)
    mean = F @ mean
    cov = F @ cov @ F.T + q
    innovation = measurement - (H @ mean)[0]
    s = (H @ cov @ H.T)[0, 0] + meas_noise
    gain = (cov @ H.T)[:, 0] / s
    mean = mean + gain * innovation
    cov = cov - jnp.outer(gain, H @ cov)
    return mean, cov, innovation**2 / s


class ClockTracker:
    def __init__(self, config):
        # scalars go in as float32 arrays so the first call and the adapted ones match
        self.process_noise = jnp.asarray(config["process_noise"], dtype=jnp.float32)
        self.meas_noise = jnp.asarray(config["meas_noise"], dtype=jnp.float32)
        self.mean = jnp.zeros(2, jnp.float32)
        self.cov = jnp.eye(2, dtype=jnp.float32)

    def update(self, measurement):
        self.mean, self.cov, nis = filter_step(
            self.mean, self.cov, measurement, self.process_noise, self.meas_noise
        )
        if float(nis) > 4.0:  # inflate process noise after a surprising epoch
            self.process_noise = self.process_noise * 1.5
        return float(self.mean[0])
