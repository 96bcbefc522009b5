"""Turn a record of named channels into one standardised feature vector."""

import jax
import jax.numpy as jnp


@jax.jit
def featurize(record):
    columns = [(v - v.mean()) / (v.std() + 1e-6) for v in record.values()]
    return jnp.concatenate(columns)


def score(record, weights):
    return float(featurize(record) @ weights)
