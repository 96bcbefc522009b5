"""Short-time spectral helpers for a noise gate."""

import jax
import jax.numpy as jnp

FRAME = 64
HOP = 32


def frames_of(signal):
    n = (signal.shape[0] - FRAME) // HOP + 1
    idx = jnp.arange(FRAME)[None, :] + HOP * jnp.arange(n)[:, None]
    return signal[idx]


@jax.jit
def analyse(frame, window):
    return jnp.fft.rfft(frame * window)


def soft_gate(spec, noise_floor, reduction):
    """Attenuate bins whose magnitude is close to the noise floor."""
    mag = jnp.abs(spec)
    snr = mag / (noise_floor + 1e-8)
    gain = jnp.where(snr > 2.0, 1.0, reduction + (1.0 - reduction) * (snr / 2.0) ** 2)
    return spec * gain
