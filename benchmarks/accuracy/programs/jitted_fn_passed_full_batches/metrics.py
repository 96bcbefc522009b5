"""Distances between histograms."""

import jax
import jax.numpy as jnp


@jax.jit
def histogram_l2(counts, reference):
    p = counts / jnp.maximum(counts.sum(), 1.0)
    q = reference / jnp.maximum(reference.sum(), 1.0)
    return jnp.sqrt(jnp.sum((p - q) ** 2))
