"""Negative log-likelihood of a saturating dose-response curve with Gaussian noise."""

import jax.numpy as jnp


def neg_log_likelihood(theta, dose, response):
    top, ec50 = theta[0], theta[1]
    model = top * dose / (ec50 + dose)
    return 0.5 * jnp.sum((response - model) ** 2)
