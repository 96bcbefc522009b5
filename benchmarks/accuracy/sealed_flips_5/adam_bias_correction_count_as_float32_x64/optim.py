"""A hand-written Adam whose state travels with the parameters through the jitted step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    count: jax.Array
    mu: dict
    nu: dict


class Adam:
    def __init__(self, learning_rate, b1=0.9, b2=0.999, eps=1e-8):
        self.learning_rate = learning_rate
        self.b1, self.b2, self.eps = b1, b2, eps

    def init(self, params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return AdamState(jnp.zeros((), jnp.int32), zeros, zeros)

    def apply_gradient(self, params, grads, state):
        b1, b2 = self.b1, self.b2
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
        t = (state.count + 1).astype(jnp.float32)
        scale = self.learning_rate * jnp.sqrt(1 - b2**t) / (1 - b1**t)
        params = jax.tree.map(
            lambda p, m, v: p - scale * m / (jnp.sqrt(v) + self.eps), params, mu, nu
        )
        return params, AdamState(state.count + 1, mu, nu)
