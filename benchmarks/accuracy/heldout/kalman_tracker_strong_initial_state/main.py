"""Track the distance to a docking wall from noisy range readings, re-initialising on outliers."""

import jax.numpy as jnp
import numpy as np

from filters import kf_step, predict_ahead

DT = 0.1
GATE = 4.0


class RangeTracker:
    def __init__(self, initial_range):
        self.x = jnp.array([initial_range, 0.0], dtype=jnp.float32)
        self.P = jnp.eye(2, dtype=jnp.float32) * 1.0
        self.loglik = jnp.full((), 0.0, dtype=jnp.float32)
        self.resets = 0

    def reset(self, z):
        self.x = jnp.zeros_like(self.x).at[0].set(z)
        self.P = jnp.eye(2, dtype=jnp.float32) * 1.0
        self.resets += 1

    def update(self, z):
        x, P, loglik, nis = kf_step(self.x, self.P, z, self.loglik, DT)
        if abs(float(nis)) > GATE:
            self.reset(z)
        else:
            self.x, self.P, self.loglik = x, P, loglik

    def lookahead(self, seconds):
        return predict_ahead(self.x, self.P, seconds)


def simulate_ranges(rng, n=6):
    truth = 3.0 - 0.25 * DT * np.arange(n)
    z = truth + 0.2 * rng.standard_normal(n)
    z[3] += 5.0  # multipath spike
    return z.astype(np.float32)


if __name__ == "__main__":
    readings = simulate_ranges(np.random.default_rng(11))
    tracker = RangeTracker(initial_range=readings[0])
    for z in readings[1:]:
        tracker.update(z)
    x_pred, P_pred = tracker.lookahead(0.5)
    print(f"range in 0.5 s: {float(x_pred[0]):.3f} m (var {float(P_pred[0, 0]):.4f})")
    print(f"resets: {tracker.resets}, log-likelihood: {float(tracker.loglik):.3f}")
