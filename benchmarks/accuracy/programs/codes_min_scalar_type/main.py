"""Synthesise a table column by column from compact integer codes."""

import jax
import jax.numpy as jnp
import numpy as np

MAX_BINS = 512


def encode(values, cardinality):
    # Store codes in the smallest unsigned type that holds them.
    return values.astype(np.min_scalar_type(cardinality - 1))  # expect: RTL402


@jax.jit
def column_marginal(codes, weights):
    counts = jnp.bincount(codes.astype(jnp.int32), weights, length=MAX_BINS)
    return counts / weights.sum()


def synthesise(columns, weights):
    marginals = {}
    for name, (values, cardinality) in columns.items():
        marginals[name] = column_marginal(encode(values, cardinality), weights)
    return marginals


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n = 64
    columns = {
        "age": (rng.integers(0, 90, n), 90),
        "zip": (rng.integers(0, 400, n), 400),
        "sex": (rng.integers(0, 2, n), 2),
    }
    synthesise(columns, np.ones(n, np.float32))
