"""Reduce-on-plateau learning-rate scaling whose scale lives in the parameters' dtype."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class PlateauState(NamedTuple):
    scale: jax.Array
    best_loss: jax.Array
    plateau_count: jax.Array


class ReduceOnPlateau(NamedTuple):
    factor: float
    patience: int
    min_scale: object
    rtol: float = 1e-3

    def init(self, params):
        dtype = jax.tree_util.tree_leaves(params)[0].dtype
        return PlateauState(jnp.ones((), dtype), jnp.array(jnp.inf, jnp.float32), jnp.zeros((), jnp.int32))

    def update(self, state, loss):
        improved = loss < state.best_loss * (1 - self.rtol)
        count = jnp.where(improved, 0, state.plateau_count + 1)
        reduce = count >= self.patience
        reduced = jnp.maximum(state.scale * self.factor, self.min_scale)  # expect: RTL402
        return PlateauState(
            scale=jnp.where(reduce, reduced, state.scale),
            best_loss=jnp.minimum(state.best_loss, loss),
            plateau_count=jnp.where(reduce, 0, count),
        )
