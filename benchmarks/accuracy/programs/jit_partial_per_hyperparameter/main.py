"""Gaussian-process posterior means on a grid, for a sweep of kernel lengthscales."""

from functools import partial

import jax
import jax.numpy as jnp


def rbf_kernel(a, b, lengthscale):
    return jnp.exp(-0.5 * ((a[:, None] - b[None, :]) / lengthscale) ** 2)


def posterior_mean(x_train, y_train, x_test, lengthscale, noise=1e-2):
    k = rbf_kernel(x_train, x_train, lengthscale) + noise * jnp.eye(x_train.shape[0])
    k_star = rbf_kernel(x_test, x_train, lengthscale)
    return k_star @ jnp.linalg.solve(k, y_train)


def predict(x_train, y_train, x_test, lengthscale):
    fn = jax.jit(partial(posterior_mean, lengthscale=lengthscale))  # expect: RTL301
    return fn(x_train, y_train, x_test)


def sweep(lengthscales):
    x = jnp.linspace(0.0, 1.0, 8)
    grid = jnp.linspace(0.0, 1.0, 20)
    return {ls: predict(x, jnp.sin(6.0 * x), grid, ls) for ls in lengthscales}


if __name__ == "__main__":
    sweep([0.1, 0.2, 0.4])
