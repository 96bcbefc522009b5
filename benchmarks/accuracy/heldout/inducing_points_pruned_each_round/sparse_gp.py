"""Collapsed (Titsias) bound of a sparse GP with an RBF kernel."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cholesky, solve_triangular


def rbf(a, b, lengthscale):
    d2 = jnp.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
    return jnp.exp(-0.5 * d2 / lengthscale**2)


@jax.jit
def collapsed_bound(inducing, x, y, hyper):
    lengthscale, noise = hyper[0], hyper[1]
    n, m = x.shape[0], inducing.shape[0]
    kuu = rbf(inducing, inducing, lengthscale) + 1e-4 * jnp.eye(m)
    kuf = rbf(inducing, x, lengthscale)
    lu = cholesky(kuu, lower=True)
    a = solve_triangular(lu, kuf, lower=True) / jnp.sqrt(noise)
    b = jnp.eye(m) + a @ a.T
    lb = cholesky(b, lower=True)
    c = solve_triangular(lb, a @ y, lower=True) / jnp.sqrt(noise)
    bound = -0.5 * n * jnp.log(2 * jnp.pi * noise)
    bound -= jnp.sum(jnp.log(jnp.diag(lb)))
    bound -= 0.5 * jnp.dot(y, y) / noise
    bound += 0.5 * jnp.dot(c, c)
    bound -= 0.5 * (n - jnp.trace(a @ a.T) * noise) / noise
    return bound


def inducing_grid(low, high, count):
    """Evenly spaced inducing inputs over the wind-speed range."""
    return jnp.linspace(low, high, count)[:, None]  # expect: RTL105
