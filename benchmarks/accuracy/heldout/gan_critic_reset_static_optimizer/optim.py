"""A minimal Adam, returned as a pair of functions like an optax GradientTransformation."""

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.5, b2=0.9, eps=1e-8):
    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return zeros, zeros, jnp.zeros((), dtype=jnp.int32)

    def update(grads, state):
        m, v, count = state
        count = count + 1
        m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
        c1, c2 = 1 - b1**count, 1 - b2**count
        updates = jax.tree.map(lambda a, b: -lr * (a / c1) / (jnp.sqrt(b / c2) + eps), m, v)
        return updates, (m, v, count)

    return Optimizer(init, update)
