"""Zoom spectra over a narrow band, chirp-z style (direct evaluation on a fine grid)."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("m", "f0", "f1", "fs"))
def zoom_czt(x, m, f0, f1, fs):
    """Spectrum of `x` at `m` frequencies evenly spaced in [f0, f1)."""
    n = x.shape[-1]
    freqs = f0 + (f1 - f0) * jnp.arange(m) / m
    t = jnp.arange(n) / fs
    kernel = jnp.exp(-2j * jnp.pi * freqs[:, None] * t[None, :])
    return kernel @ x.astype(jnp.complex64)


def hann(n):
    return 0.5 - 0.5 * jnp.cos(2 * jnp.pi * jnp.arange(n) / n)
