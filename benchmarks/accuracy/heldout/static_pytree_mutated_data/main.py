"""Calibrate readings from a sensor whose gain drifts between acquisitions."""

import jax
import jax.numpy as jnp
from calibration import Calibration, apply_calibration


def acquire(key, channels=4, samples=8):
    return 100.0 + jax.random.normal(key, (samples, channels))


if __name__ == "__main__":
    calibration = Calibration(gain=jnp.ones(4), offset=jnp.full(4, 100.0))
    key = jax.random.PRNGKey(0)
    for acquisition in range(5):
        key, sub = jax.random.split(key)
        readings = apply_calibration(acquire(sub), calibration)
        print(acquisition, float(readings.std()))
        calibration.drift(1.05)
