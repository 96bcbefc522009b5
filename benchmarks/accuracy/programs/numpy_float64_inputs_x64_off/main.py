"""Score feature tables loaded by NumPy (float64) and by the model's own preprocessing (float32)."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def score(weights, features):
    return jax.nn.sigmoid(features @ weights)


def load_table(rows, cols, seed):
    return np.random.default_rng(seed).normal(size=(rows, cols))


def preprocess(table):
    return jnp.asarray(table, dtype=jnp.float32) / 10.0


def run():
    weights = jnp.ones(3)
    raw = [load_table(5, 3, seed) for seed in range(3)]
    scores = [score(weights, table) for table in raw]
    scores += [score(weights, preprocess(table)) for table in raw]
    return scores


if __name__ == "__main__":
    run()
