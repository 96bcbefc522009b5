"""Coarse autofocus: sweep candidate focal lengths and keep the sharpest spot."""

import jax
import jax.numpy as jnp
import numpy as np

from optics import ThinLens, focal_plane_intensity, pupil_grid

GRID = 32
PITCH = 1e-4          # metres per pupil sample
WAVELENGTH = 633e-9   # HeNe


@jax.jit
def spot_sharpness(intensity):
    p = intensity / jnp.sum(intensity)
    return jnp.sum(p**2)


def measured_lens(seed=0):
    rng = np.random.default_rng(seed)
    transmission = 0.95 + 0.05 * rng.random((GRID, GRID)).astype(np.float32)
    return ThinLens(jnp.asarray(transmission), focal_length=0.10, aperture=1.2e-3)


def gaussian_beam(waist):
    r2 = pupil_grid(GRID, PITCH)
    return jnp.exp(-r2 / waist**2).astype(jnp.complex64), r2


def autofocus(lens, field, r2, candidates):
    scores = []
    for f in candidates:
        trial = lens.refocused(float(f))
        image = focal_plane_intensity(trial, field, r2, WAVELENGTH)  # expect: RTL202
        scores.append(float(spot_sharpness(image)))
    best = int(np.argmax(scores))
    return candidates[best], scores


if __name__ == "__main__":
    lens = measured_lens()
    field, r2 = gaussian_beam(waist=1.0e-3)
    candidates = np.linspace(0.08, 0.12, 5)
    best_f, scores = autofocus(lens, field, r2, candidates)
    for f, s in zip(candidates, scores):
        print(f"f = {f * 1e3:6.1f} mm  sharpness = {s:.5f}")
    print(f"best focal length: {best_f * 1e3:.1f} mm")
