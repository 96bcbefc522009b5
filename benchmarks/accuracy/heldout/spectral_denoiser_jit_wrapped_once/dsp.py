"""Spectral-subtraction building blocks for a streaming audio denoiser."""

import jax
import jax.numpy as jnp

FRAME = 256
HOP = 128


def hann(n):
    return 0.5 - 0.5 * jnp.cos(2 * jnp.pi * jnp.arange(n) / n)


def denoise_frame(frame, noise_psd, over_subtraction):
    spec = jnp.fft.rfft(frame * hann(FRAME))
    power = jnp.abs(spec) ** 2
    gain = jnp.clip(1.0 - over_subtraction * noise_psd / (power + 1e-10), 0.05, 1.0)
    return jnp.fft.irfft(spec * jnp.sqrt(gain), n=FRAME)


# wrapped with the function form of jit, once, when the module is imported
denoise = jax.jit(denoise_frame)


@jax.jit
def estimate_noise_floor(frames):
    spec = jnp.fft.rfft(frames * hann(FRAME), axis=-1)
    return jnp.mean(jnp.abs(spec) ** 2, axis=0)


def _smooth_psd(noise_psd, frame_psd, alpha):
    return alpha * noise_psd + (1.0 - alpha) * jnp.minimum(noise_psd * 2.0, frame_psd)
