"""Adam written as an (init, update) pair, in the style of a small optimizer library."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    count: jax.Array
    mu: dict
    nu: dict


class Optimizer(NamedTuple):
    init: object
    update: object


def adam(learning_rate, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = lambda p: jnp.zeros(p.shape, p.dtype)
        return AdamState(
            count=jnp.zeros((), jnp.int32),
            mu=jax.tree.map(zeros, params),
            nu=jax.tree.map(zeros, params),
        )

    def update(grads, state):
        count = state.count + 1
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
        c1 = 1 - b1**count
        c2 = 1 - b2**count
        updates = jax.tree.map(
            lambda m, v: -learning_rate * (m / c1) / (jnp.sqrt(v / c2) + eps), mu, nu
        )
        return updates, AdamState(count=count, mu=mu, nu=nu)

    return Optimizer(init, update)
