"""Jitted smoothing kernels."""

import jax
import jax.numpy as jnp


@jax.jit
def box_smooth(signal):
    padded = jnp.pad(signal, 1, mode="edge")
    return (padded[:-2] + padded[1:-1] + padded[2:]) / 3.0


@jax.jit
def median3(signal):
    padded = jnp.pad(signal, 1, mode="edge")
    stacked = jnp.stack([padded[:-2], padded[1:-1], padded[2:]])
    return jnp.median(stacked, axis=0)
