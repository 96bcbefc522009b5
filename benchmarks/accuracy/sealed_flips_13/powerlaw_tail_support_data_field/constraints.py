"""Support constraints; an interval is a pytree so that distributions can carry it either way."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Interval:
    lower_bound: float
    upper_bound: float

    def __call__(self, x):
        return (x >= self.lower_bound) & (x <= self.upper_bound)


def greater_than(lower_bound):
    return Interval(lower_bound, jnp.inf)
