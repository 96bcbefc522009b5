"""Batch normalisation whose running statistics start at zero mean and unit variance."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class NormStats(NamedTuple):
    mean: jax.Array
    var: jax.Array
    momentum: float


def init_stats(momentum=0.9, features=4):
    return NormStats(mean=jnp.zeros(features, jnp.float32), var=jnp.ones(features, jnp.float32), momentum=momentum)


def normalise(x, stats):
    batch_mean, batch_var = x.mean(axis=0), x.var(axis=0)
    m = stats.momentum
    mean = m * stats.mean + (1 - m) * batch_mean
    var = m * stats.var + (1 - m) * batch_var
    y = (x - batch_mean) / jnp.sqrt(batch_var + 1e-5)
    return y, NormStats(mean, var, stats.momentum)
