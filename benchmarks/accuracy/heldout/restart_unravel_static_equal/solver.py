"""Damped Gauss-Newton on the flattened parameters, with the unravel function as a static argument."""

from functools import partial

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree
from model import curve


@partial(jax.jit, static_argnums=0)
def gauss_newton_step(unravel, flat, t, y):
    def residuals(f):
        return curve(unravel(f), t) - y

    r = residuals(flat)
    J = jax.jacfwd(residuals)(flat)
    delta = jnp.linalg.solve(J.T @ J + 1e-2 * jnp.eye(flat.shape[0]), J.T @ r)
    return flat - delta, jnp.sum(r**2)


def fit_from(params, t, y, iters=4):
    flat, unravel = ravel_pytree(params)  # a new unravel function every restart
    for _ in range(iters):
        flat, sse = gauss_newton_step(unravel, flat, t, y)
    return unravel(flat), float(sse)
