"""Household wealth dynamics with random labour income and random returns on savings."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class WealthModel(NamedTuple):
    w_hat: float = 1.0  # wealth below which nothing is saved
    s_0: float = 0.75  # savings rate above w_hat
    mu_y: float = 1.0
    sigma_y: float = 0.2
    mu_r: float = 0.05
    sigma_r: float = 0.3


@partial(jax.jit, static_argnums=(1, 2))
def wealth_path(key, model, T, w_0):
    def update(w, key):
        k1, k2 = jax.random.split(key)
        y = jnp.exp(model.mu_y + model.sigma_y * jax.random.normal(k1))
        R = jnp.exp(model.mu_r + model.sigma_r * jax.random.normal(k2))
        w = R * model.s_0 * jnp.maximum(w - model.w_hat, 0.0) + y
        return w, w

    _, path = jax.lax.scan(update, w_0, jax.random.split(key, T))
    return path
