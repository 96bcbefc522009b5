"""Masked Gaussian-process surrogate and expected-improvement acquisition."""

import jax
import jax.numpy as jnp
from jax.scipy.stats import norm

JITTER = 1e-6


def rbf(a, b, lengthscale):
    d2 = jnp.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
    return jnp.exp(-0.5 * d2 / lengthscale**2)


def posterior(x_obs, y_obs, mask, x_query, lengthscale, noise):
    # padded rows are decoupled from the real ones and given unit variance
    m = mask.astype(x_obs.dtype)
    k = rbf(x_obs, x_obs, lengthscale) * (m[:, None] * m[None, :])
    k = k + jnp.diag(noise * m + (1.0 - m) + JITTER)
    y_centered = (y_obs - jnp.sum(y_obs * m) / jnp.sum(m)) * m
    chol = jnp.linalg.cholesky(k)
    alpha = jax.scipy.linalg.cho_solve((chol, True), y_centered)
    k_star = rbf(x_query, x_obs, lengthscale) * m[None, :]
    mean = k_star @ alpha + jnp.sum(y_obs * m) / jnp.sum(m)
    v = jax.scipy.linalg.solve_triangular(chol, k_star.T, lower=True)
    var = jnp.clip(1.0 - jnp.sum(v**2, axis=0), 1e-9)
    return mean, jnp.sqrt(var)


@jax.jit
def suggest_next(key, x_obs, y_obs, mask, bounds, y_best):
    candidates = jax.random.uniform(
        key, (256, bounds.shape[0]), minval=bounds[:, 0], maxval=bounds[:, 1]
    )
    mean, std = posterior(x_obs, y_obs, mask, candidates, 0.3, 1e-4)
    z = (mean - y_best - 0.01) / std
    ei = (mean - y_best - 0.01) * norm.cdf(z) + std * norm.pdf(z)
    return candidates[jnp.argmax(ei)]
