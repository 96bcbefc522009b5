"""Minimum-variance weights estimated from one window of daily returns."""

import jax
import jax.numpy as jnp


@jax.jit
def min_variance_weights(returns, shrink):
    centred = returns - returns.mean(axis=0)
    cov = centred.T @ centred / returns.shape[0]
    cov = (1.0 - shrink) * cov + shrink * jnp.eye(cov.shape[0]) * jnp.trace(cov) / cov.shape[0]
    raw = jnp.linalg.solve(cov, jnp.ones(cov.shape[0]))
    return raw / raw.sum()
