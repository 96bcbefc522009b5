"""Box-shaped sets for reachability: a center and a radius per dimension, and the universe (no
constraint) as the default invariant."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Hyperrectangle(NamedTuple):
    center: jax.Array
    radius: jax.Array

    @property
    def low(self):
        return self.center - self.radius

    @property
    def high(self):
        return self.center + self.radius


def universe(dim, dtype=jnp.float32):
    """The unconstrained invariant: an infinite box."""
    return Hyperrectangle(jnp.zeros((dim,), dtype=dtype), jnp.full((dim,), jnp.inf, dtype=dtype))


def from_bounds(low, high):
    return Hyperrectangle((low + high) / 2, (high - low) / 2)
