"""Successive approximation of a fixed point, jitted with the operator as a static argument."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def successive_approx(T, x0, params, tol=1e-6, max_iter=500):
    def cond(state):
        i, _, error = state
        return (error > tol) & (i < max_iter)

    def body(state):
        i, x, _ = state
        x_new = T(x, params)
        return i + 1, x_new, jnp.max(jnp.abs(x_new - x))

    _, x, _ = jax.lax.while_loop(cond, body, (0, x0, jnp.inf))
    return x
