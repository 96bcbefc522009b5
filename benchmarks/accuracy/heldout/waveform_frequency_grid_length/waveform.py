"""A frequency-domain inspiral waveform (leading-order phase) and a noise-weighted inner product."""

import jax
import jax.numpy as jnp

MTSUN = 4.925491e-6  # solar mass in seconds


@jax.jit
def inspiral_polar(freqs, params):
    chirp_mass, distance, t_c, phi_c = params
    m_sec = chirp_mass * MTSUN
    amplitude = 1e6 * m_sec ** (5.0 / 6.0) * freqs ** (-7.0 / 6.0) / distance
    phase = 2.0 * jnp.pi * freqs * t_c - phi_c - jnp.pi / 4.0 + 0.75 * (8.0 * jnp.pi * m_sec * freqs) ** (-5.0 / 3.0)
    return amplitude * jnp.cos(phase), amplitude * jnp.sin(phase)


@jax.jit
def inner_product(h_re, h_im, d_re, d_im, psd, df):
    return 4.0 * df * jnp.sum((h_re * d_re + h_im * d_im) / psd)
