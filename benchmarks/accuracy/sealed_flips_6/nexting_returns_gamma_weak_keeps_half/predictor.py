"""A bank of nexting predictions kept in half precision, one per sensor."""

import jax.numpy as jnp
import numpy as np


class HorizonPredictor:
    def __init__(self, n_sensors, gamma):
        self.gamma = gamma
        self.estimate = jnp.zeros(n_sensors, jnp.float16)

    def update(self, returns_fn, window):
        self.estimate = returns_fn(window, self.gamma, self.estimate)
        return self.estimate


def sensor_windows(n_windows, length, n_sensors, seed):
    """Half-precision sensor readings, as a robot's logger stores them."""
    rng = np.random.default_rng(seed)
    t = np.arange(n_windows * length)[:, None]
    signal = 0.5 + 0.5 * np.sin(t / 7.0 + np.arange(n_sensors)) + 0.1 * rng.standard_normal((t.size, n_sensors))
    windows = signal.reshape(n_windows, length, n_sensors).astype(np.float16)
    return [jnp.asarray(w) for w in windows]
