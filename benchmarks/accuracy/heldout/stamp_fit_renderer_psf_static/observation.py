"""Observations of a postage stamp and the renderer that maps model-frame pixels to observed pixels."""

import dataclasses
import math

import jax.numpy as jnp
from jax.scipy.signal import convolve2d


@dataclasses.dataclass(frozen=True)
class Frame:
    """The model frame: stamp shape and the (narrow) PSF the model is defined with."""

    shape: tuple
    psf_sigma: float = 0.7


@dataclasses.dataclass(frozen=True)
class GaussianConvolution:
    """Matches the model PSF to the observed PSF by a Gaussian difference kernel."""

    sigma: float
    radius: int = 3

    def kernel(self):
        x = jnp.arange(-self.radius, self.radius + 1, dtype=jnp.float32)
        k1 = jnp.exp(-0.5 * (x / self.sigma) ** 2)
        k1 = k1 / k1.sum()
        return jnp.outer(k1, k1)

    def __call__(self, model_image):
        return convolve2d(model_image, self.kernel(), mode="same")


class Observation:
    def __init__(self, data, weights, psf_sigma):
        self.data = data
        self.weights = weights
        self.psf_sigma = psf_sigma
        self.renderer = None

    def match(self, frame: Frame):
        """Set up the renderer from the model frame to this observation (done once, up front)."""
        diff = math.sqrt(max(self.psf_sigma**2 - frame.psf_sigma**2, 1e-4))
        self.renderer = GaussianConvolution(sigma=diff)  # expect: RTL201
        return self
