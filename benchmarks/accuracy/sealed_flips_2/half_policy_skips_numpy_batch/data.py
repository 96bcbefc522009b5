"""A toy classification dataset: a NumPy validation split and device-resident training batches."""

import jax
import numpy as np


def make_split(n, features, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype(np.float32)
    return x, (x.sum(axis=1) > 0).astype(np.int32)


def validation_split(features=8):
    return make_split(128, features, seed=1)


def device_batches(n_batches=6, size=128, features=8):
    for i in range(n_batches):
        x, y = make_split(size, features, seed=10 + i)
        yield jax.device_put(x), jax.device_put(y)
