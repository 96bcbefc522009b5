"""Per-channel hit counting for a strip detector: the readout format stores counts as int32."""

import jax
import jax.numpy as jnp

N_CHANNELS = 32


def empty_counts():
    return jnp.zeros(N_CHANNELS, jnp.int32)


@jax.jit
def accumulate(counts, amplitudes, threshold):
    """Add one event window's hits (samples above threshold) per channel."""
    hits = amplitudes > threshold
    return counts + jnp.sum(hits, axis=0, dtype=jnp.int32)


@jax.jit
def pedestal(amplitudes):
    return jnp.median(amplitudes, axis=0)
