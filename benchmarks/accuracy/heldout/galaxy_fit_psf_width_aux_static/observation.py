"""Observations of one field: pixels, inverse variances and the exposure's PSF renderer."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

PIXEL_SCALE = 0.2  # arcsec / pixel
FWHM_TO_SIGMA = 1.0 / 2.3548


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class GaussianPSFRenderer:
    """Maps a model galaxy into an exposure: analytic convolution with a Gaussian PSF."""

    shape: tuple = field(metadata={"static": True})
    psf_sigma: float = field(metadata={"static": True})  # expect: RTL202

    def __call__(self, params):
        ny, nx = self.shape
        y, x = jnp.mgrid[0:ny, 0:nx]
        size2 = jnp.exp(2.0 * params["log_size"]) + self.psf_sigma**2
        r2 = (x - params["x0"]) ** 2 + (y - params["y0"]) ** 2
        return params["flux"] / (2 * jnp.pi * size2) * jnp.exp(-0.5 * r2 / size2)


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Observation:
    image: jax.Array
    weights: jax.Array
    renderer: GaussianPSFRenderer
    band: str = field(default="r", metadata={"static": True})

    @classmethod
    def from_exposure(cls, exposure):
        header = exposure["header"]
        sigma = header["SEEING"] * FWHM_TO_SIGMA / PIXEL_SCALE
        renderer = GaussianPSFRenderer(shape=exposure["image"].shape, psf_sigma=float(sigma))
        weights = np.full(exposure["image"].shape, 1.0 / header["SKYNOISE"] ** 2, np.float32)
        return cls(jnp.asarray(exposure["image"]), jnp.asarray(weights), renderer, header["FILTER"])

    def log_likelihood(self, params):
        resid = self.image - self.renderer(params)
        return -0.5 * jnp.sum(self.weights * resid**2)
