"""Frequency responses used by the accelerometer processing chain."""
import jax.numpy as jnp


def butterworth_lowpass(freqs, cutoff_hz, order):
    return 1.0 / jnp.sqrt(1.0 + (freqs / cutoff_hz) ** (2 * order))


def butterworth_highpass(freqs, cutoff_hz, order):
    ratio = cutoff_hz / jnp.maximum(freqs, 1e-6)
    return 1.0 / jnp.sqrt(1.0 + ratio ** (2 * order))


RESPONSES = {
    "lowpass": butterworth_lowpass,
    "highpass": butterworth_highpass,
}
