"""Inertial/range sensor fusion for a small ground robot.

The fuser keeps the list of channels that are currently healthy. JAX refused
the list as a static argument ("non-hashable"), so it is turned into a tuple
at the call; the health monitor drops a channel whenever its innovation
looks wrong.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

N_CHANNELS = 5


@partial(jax.jit, static_argnames=("channels",))
def fuse_measurements(estimate, cov, readings, noise, channels):
    idx = jnp.array(channels)
    z = readings[idx]
    r = noise[idx]
    gain = cov / (cov + r)
    innovation = z - estimate
    new_estimate = estimate + jnp.sum(gain * innovation) / len(channels)
    new_cov = cov * (1.0 - jnp.mean(gain))
    return new_estimate, new_cov, innovation


class RangeFuser:
    def __init__(self, noise, initial_range, gate=3.0):
        self.noise = jnp.asarray(noise, dtype=jnp.float32)
        self.gate = gate
        self.active = list(range(N_CHANNELS))
        self.estimate = jnp.float32(initial_range)
        self.cov = jnp.float32(1.0)

    def update(self, readings):
        channels = tuple(self.active)
        est, cov, innovation = fuse_measurements(self.estimate, self.cov, readings, self.noise, channels)  # expect: RTL201
        self.estimate, self.cov = est, cov
        self._drop_outliers(np.asarray(innovation))

    def _drop_outliers(self, innovation):
        sigma = np.sqrt(np.asarray(self.noise)[self.active])
        bad = [ch for ch, v, s in zip(self.active, innovation, sigma) if abs(v) > self.gate * s + 1.0]
        for ch in bad[:1]:
            if len(self.active) > 2:
                self.active.remove(ch)


def simulate_readings(step, rng, true_range):
    readings = true_range + 0.1 * rng.standard_normal(N_CHANNELS)
    if step >= 1:
        readings[4] += 5.0  # channel 4 starts reflecting off a wall
    if step >= 3:
        readings[1] -= 4.0  # channel 1 sees a passing cart
    return jnp.asarray(readings, dtype=jnp.float32)


def main():
    rng = np.random.default_rng(3)
    true_range = 2.0
    fuser = RangeFuser(noise=[0.01, 0.02, 0.01, 0.03, 0.02], initial_range=1.9)
    for step in range(6):
        readings = simulate_readings(step, rng, true_range)
        fuser.update(readings)
        print(f"step {step}: range={float(fuser.estimate):.3f} active={fuser.active}")


if __name__ == "__main__":
    main()
