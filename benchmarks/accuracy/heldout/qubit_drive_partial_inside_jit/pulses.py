"""Drive envelopes of a single-qubit gate."""

import jax.numpy as jnp


def gaussian(t, amplitude, width, t0=5.0):
    return amplitude * jnp.exp(-0.5 * ((t - t0) / width) ** 2)
