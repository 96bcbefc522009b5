"""A small Adam for SVI, with the optimiser state as a plain tuple (step, params, m, v)."""

import jax
import jax.numpy as jnp


def adam_init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    step = jnp.zeros((), dtype=jnp.int32)
    return step, params, zeros, zeros


def adam_update(grads, state, lr, b1=0.9, b2=0.999, eps=1e-8):
    step, params, m, v = state
    step = step + 1
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    t = step.astype(jnp.float32)
    params = jax.tree_util.tree_map(
        lambda p, m_, v_: p - lr * (m_ / (1 - b1 ** t)) / (jnp.sqrt(v_ / (1 - b2 ** t)) + eps),
        params, m, v,
    )
    return step, params, m, v
