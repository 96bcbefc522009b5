"""Adam as a pair of pure functions over NamedTuple states, in the style of optax."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class ScaleByAdamState(NamedTuple):
    count: jax.Array
    mu: dict
    nu: dict


class ScaleState(NamedTuple):
    learning_rate: jax.Array


def adam_init(params, learning_rate):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return (
        ScaleByAdamState(jnp.zeros((), jnp.int32), zeros, zeros),
        ScaleState(jnp.asarray(learning_rate, jnp.float32)),
    )


def adam_update(grads, state, b1=0.9, b2=0.999, eps=1e-8):
    adam_state, scale_state = state
    count = adam_state.count + 1
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, adam_state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, adam_state.nu, grads)
    t = count.astype(jnp.float32)
    updates = jax.tree_util.tree_map(
        lambda m, v: -scale_state.learning_rate * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps),
        mu,
        nu,
    )
    return updates, (ScaleByAdamState(count, mu, nu), scale_state)
