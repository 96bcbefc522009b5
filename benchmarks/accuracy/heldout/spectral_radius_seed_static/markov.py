"""Spectral radius of a valuation operator by power iteration from a random start."""

import jax
import jax.numpy as jnp


def _power_iteration_sr(A, num_iterations=15, seed=1234):
    x = jax.random.uniform(jax.random.PRNGKey(seed), (A.shape[0],))
    r = 0.0
    for _ in range(num_iterations):
        y = A @ x
        r = jnp.linalg.norm(y) / jnp.linalg.norm(x)
        x = y / jnp.linalg.norm(y)
    return r


power_iteration_sr = jax.jit(_power_iteration_sr, static_argnums=(1, 2))


def valuation_matrix(P, beta, growth):
    return beta * P * jnp.exp(growth)[None, :]
