"""Fit a Gaussian's mean and width to data by gradient descent on the negative log-likelihood."""

import jax
import jax.numpy as jnp


def negative_log_likelihood(mu, log_sigma, data):
    sigma = jnp.exp(log_sigma)
    return jnp.sum(0.5 * ((data - mu) / sigma) ** 2 + log_sigma)


def likelihood_gradient(pars, data):
    return jax.jit(jax.grad(negative_log_likelihood, argnums=(0, 1)))(pars[0], pars[1], data)  # expect: RTL301


def fit(data, steps=5, lr=0.01):
    pars = (jnp.float32(0.0), jnp.float32(0.0))
    for _ in range(steps):
        g_mu, g_sigma = likelihood_gradient(pars, data)
        pars = (pars[0] - lr * g_mu, pars[1] - lr * g_sigma)
    return pars


if __name__ == "__main__":
    data = 5.0 + 2.0 * jax.random.normal(jax.random.PRNGKey(0), (50,))
    print(fit(data))
