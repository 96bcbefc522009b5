"""A minimal (init, update, get_params) optimizer triple in the style of jax.example_libraries.optimizers."""

import jax
import jax.numpy as jnp


def adam(step_size, betas=(0.9, 0.999), eps=1e-8):
    b1, b2 = (float(b) for b in betas)

    def init(params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return params, zeros, zeros

    def update(i, grads, state):
        params, m, v = state
        m = jax.tree_util.tree_map(lambda m, g: (1 - b1) * g + b1 * m, m, grads)
        v = jax.tree_util.tree_map(lambda v, g: (1 - b2) * jnp.square(g) + b2 * v, v, grads)
        c1, c2 = 1 - b1 ** (i + 1), 1 - b2 ** (i + 1)
        params = jax.tree_util.tree_map(
            lambda p, m, v: p - step_size * (m / c1) / (jnp.sqrt(v / c2) + eps), params, m, v
        )
        return params, m, v

    def get_params(state):
        return state[0]

    return init, update, get_params
