"""Matrix-free operators for a 1-D rod with fixed ends."""

import jax.numpy as jnp


def laplacian(u, dx):
    padded = jnp.pad(u, 1)
    return (padded[:-2] - 2.0 * u + padded[2:]) / dx ** 2


def variable_conductivity(u, dx):
    k = 1.0 + 0.5 * jnp.linspace(0.0, 1.0, u.shape[0])
    return k * laplacian(u, dx)
