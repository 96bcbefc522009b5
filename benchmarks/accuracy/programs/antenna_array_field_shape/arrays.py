"""Uniform linear antenna arrays and their beam patterns."""

import jax
import jax.numpy as jnp


@jax.jit
def beam_power(weights, angles):
    n = jnp.arange(weights.shape[0])
    steering = jnp.exp(1j * jnp.pi * n[None, :] * jnp.sin(angles)[:, None])
    return jnp.abs(steering @ weights) ** 2


class LinearArray:
    def __init__(self, n_elements):
        self.n_elements = n_elements
        self.weights = jnp.ones(n_elements, jnp.complex64) / n_elements  # expect: RTL105

    def pattern(self, angles):
        return beam_power(self.weights, angles)
