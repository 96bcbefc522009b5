"""Monochromatic Fraunhofer propagation for a circular-aperture telescope."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("wavelength", "npix", "diameter"))
def fraunhofer_psf(pupil_phase, wavelength, npix, diameter):
    # The wavelength sets the pupil sampling, so it was made static "to keep it a Python float".
    n = pupil_phase.shape[0]
    coords = (jnp.arange(n) - n / 2) / n * diameter
    xx, yy = jnp.meshgrid(coords, coords)
    aperture = (xx**2 + yy**2 <= (diameter / 2) ** 2).astype(jnp.float32)
    phase = 2 * jnp.pi * pupil_phase / wavelength
    field = aperture * jnp.exp(1j * phase)
    padded = jnp.zeros((npix, npix), dtype=field.dtype).at[:n, :n].set(field)
    image = jnp.abs(jnp.fft.fftshift(jnp.fft.fft2(padded))) ** 2
    return image / image.sum()


@jax.jit
def encircled_energy(psf, radius):
    n = psf.shape[0]
    yy, xx = jnp.mgrid[:n, :n] - n // 2
    return jnp.sum(jnp.where(xx**2 + yy**2 <= radius**2, psf, 0.0))


@dataclass
class Telescope:
    diameter: float = 2.4      # metres
    npix: int = 64             # detector pixels after zero padding
    n_pupil: int = 32          # pupil samples across

    def flat_pupil(self):
        return jnp.zeros((self.n_pupil, self.n_pupil), dtype=jnp.float32)

    def defocused_pupil(self, waves_rms):
        c = np.linspace(-1.0, 1.0, self.n_pupil)
        xx, yy = np.meshgrid(c, c)
        opd = waves_rms * 550e-9 * (2 * (xx**2 + yy**2) - 1)
        return jnp.asarray(opd, dtype=jnp.float32)

    def mono_psf(self, pupil_phase, wavelength):
        return fraunhofer_psf(pupil_phase, wavelength=wavelength, npix=self.npix,
                              diameter=self.diameter)
