"""Kernels under test."""

import jax.numpy as jnp


def rbf_gram(x, lengthscale):
    d2 = jnp.sum((x[:, None, :] - x[None, :, :]) ** 2, axis=-1)
    return jnp.exp(-0.5 * d2 / lengthscale**2)
