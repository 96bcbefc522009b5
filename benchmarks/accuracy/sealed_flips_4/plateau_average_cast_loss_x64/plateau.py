"""Reduce-on-plateau over a running average of the monitored loss, with float32 bookkeeping."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class PlateauState(NamedTuple):
    scale: jax.Array
    best_value: jax.Array
    avg_value: jax.Array
    count: jax.Array
    plateau_count: jax.Array


def init():
    return PlateauState(
        scale=jnp.asarray(1.0, jnp.float32),
        best_value=jnp.asarray(jnp.inf, jnp.float32),
        avg_value=jnp.asarray(0.0, jnp.float32),
        count=jnp.asarray(0, jnp.int32),
        plateau_count=jnp.asarray(0, jnp.int32),
    )


def update(state, value, *, window=4, patience=2, factor=0.5, rtol=1e-3):
    new_count = state.count + 1
    value = jnp.asarray(value, state.avg_value.dtype)
    new_avg = (state.count * state.avg_value + value) / new_count
    full = new_count == window
    improved = new_avg < (1 - rtol) * state.best_value
    plateau_count = jnp.where(full, jnp.where(improved, 0, state.plateau_count + 1), state.plateau_count)
    reduce = plateau_count >= patience
    return PlateauState(
        scale=jnp.where(full & reduce, state.scale * factor, state.scale),
        best_value=jnp.where(full & improved, new_avg, state.best_value),
        avg_value=jnp.where(full, 0.0, new_avg),
        count=jnp.where(full, 0, new_count),
        plateau_count=jnp.where(reduce, 0, plateau_count),
    )
