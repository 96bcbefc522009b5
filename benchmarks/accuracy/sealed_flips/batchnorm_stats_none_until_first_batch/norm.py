"""Batch normalisation whose running statistics are filled in by the first batch."""

from typing import NamedTuple, Optional

import jax
import jax.numpy as jnp


class NormStats(NamedTuple):
    mean: Optional[jax.Array]
    var: Optional[jax.Array]
    momentum: float


def init_stats(momentum=0.9):
    return NormStats(mean=None, var=None, momentum=momentum)  # expect: RTL403


def normalise(x, stats):
    batch_mean, batch_var = x.mean(axis=0), x.var(axis=0)
    if stats.mean is None:  # no history yet: start from this batch
        mean, var = batch_mean, batch_var
    else:
        m = stats.momentum
        mean = m * stats.mean + (1 - m) * batch_mean
        var = m * stats.var + (1 - m) * batch_var
    y = (x - batch_mean) / jnp.sqrt(batch_var + 1e-5)
    return y, NormStats(mean, var, stats.momentum)
