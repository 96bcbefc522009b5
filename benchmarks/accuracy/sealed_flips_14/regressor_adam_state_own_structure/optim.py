"""Adam written over flat leaves, as small training scripts often do."""

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    count: jax.Array
    mu: Any
    nu: Any


def adam_init(params):
    zeros = jax.tree.map(jnp.zeros_like, params)
    return AdamState(jnp.zeros((), dtype=jnp.int32), zeros, zeros)


def adam_update(grads, state, lr=0.05, b1=0.9, b2=0.999, eps=1e-8):
    g, treedef = jax.tree.flatten(grads)
    mu = [b1 * m + (1.0 - b1) * gi for m, gi in zip(jax.tree.leaves(state.mu), g)]
    nu = [b2 * v + (1.0 - b2) * gi**2 for v, gi in zip(jax.tree.leaves(state.nu), g)]
    count = state.count + 1
    updates = [
        -lr * (m / (1.0 - b1**count)) / (jnp.sqrt(v / (1.0 - b2**count)) + eps)
        for m, v in zip(mu, nu)
    ]
    state_def = jax.tree.structure(state.mu)
    new_state = AdamState(count, state_def.unflatten(mu), state_def.unflatten(nu))
    return treedef.unflatten(updates), new_state
