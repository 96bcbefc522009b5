"""Source spectra of detected events: taper, zero-pad to an FFT size, fit a Brune corner."""

import jax
import jax.numpy as jnp
import numpy as np

MIN_NFFT = 256  # frequency resolution we need for corner-frequency fits at 100 Hz


def fft_size(n_samples, min_nfft=MIN_NFFT):
    """Next power of two, but never below min_nfft (zero-padding only refines the grid)."""
    return max(min_nfft, 1 << (n_samples - 1).bit_length())


@jax.jit
def event_spectrum(padded, n_valid, freqs):
    i = jnp.arange(padded.shape[0])
    hann = 0.5 - 0.5 * jnp.cos(2 * jnp.pi * i / jnp.maximum(n_valid - 1, 1))
    taper = jnp.where(i < n_valid, hann, 0.0)
    amp = jnp.abs(jnp.fft.rfft(padded * taper))
    # grid search of the Brune corner frequency: omega0 / (1 + (f/fc)^2)
    fc_grid = jnp.linspace(1.0, 30.0, 59)
    omega0 = jnp.median(amp[1:6])
    model = omega0 / (1.0 + (freqs[None, :] / fc_grid[:, None]) ** 2)
    misfit = jnp.sum((jnp.log(amp[None, 1:] + 1e-9) - jnp.log(model[:, 1:] + 1e-9)) ** 2, axis=1)
    return amp, omega0, fc_grid[jnp.argmin(misfit)]


class SpectrumEstimator:
    def __init__(self, fs):
        self.fs = fs

    def __call__(self, segment):
        nfft = fft_size(len(segment))
        padded = np.pad(segment, (0, nfft - len(segment)))
        freqs = np.fft.rfftfreq(nfft, d=1.0 / self.fs).astype(np.float32)
        amp, omega0, fc = event_spectrum(padded, len(segment), freqs)
        return {"nfft": nfft, "omega0": float(omega0), "fc": float(fc), "amp": np.asarray(amp)}
