"""A Poisson regression of daily counts on one covariate, with a normal prior."""

import jax.numpy as jnp


def log_density(theta, data):
    x, counts = data
    rate = jnp.exp(theta[0] + theta[1] * x)
    log_lik = jnp.sum(counts * jnp.log(rate) - rate)
    log_prior = -0.5 * jnp.sum(theta**2) / 4.0
    return log_lik + log_prior
