"""An Adafactor-style optimizer: factored second moments (row and column means) kept in the parameters' dtype."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class FactoredState(NamedTuple):
    count: jax.Array
    v_row: dict
    v_col: dict


def init(params):
    return FactoredState(
        count=jnp.zeros((), jnp.int32),
        v_row=jax.tree.map(lambda p: jnp.zeros(p.shape[:-1], p.dtype), params),
        v_col=jax.tree.map(lambda p: jnp.zeros(p.shape[:-2] + p.shape[-1:], p.dtype), params),
    )


def decay_rate(count, exponent=0.8):
    # Adafactor's increasing decay: 1 - t^-0.8, computed from the int32 step count.
    return 1.0 - (count + 1).astype(jnp.float32) ** -exponent


def update(grads, state, lr=0.05, eps=1e-30):
    beta2 = decay_rate(state.count)

    def row(v, g):
        return beta2 * v + (1.0 - beta2) * jnp.mean(g * g + eps, axis=-1)

    def col(v, g):
        return beta2 * v + (1.0 - beta2) * jnp.mean(g * g + eps, axis=-2)

    v_row = jax.tree.map(lambda v, g: row(v, g).astype(v.dtype), state.v_row, grads)
    v_col = jax.tree.map(lambda v, g: col(v, g).astype(v.dtype), state.v_col, grads)

    def precondition(g, r, c):
        v = r[..., None] * c[..., None, :] / jnp.mean(r, axis=-1, keepdims=True)[..., None]
        return (-lr * g / jnp.sqrt(v)).astype(g.dtype)

    updates = jax.tree.map(precondition, grads, v_row, v_col)
    return updates, FactoredState(count=state.count + 1, v_row=v_row, v_col=v_col)
