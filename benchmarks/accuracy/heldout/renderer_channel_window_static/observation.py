"""Observations know which part of the model cube they see."""

import jax.numpy as jnp
from render import Window, render


class Observation:
    def __init__(self, data, band_start, band_stop, box_start, box_stop):
        self.data = data
        self.band_start, self.band_stop = band_start, band_stop
        self.box_start, self.box_stop = box_start, box_stop

    def residual(self, model_cube, psf):
        channels = Window(self.band_start, self.band_stop)
        box = Window(self.box_start, self.box_stop)
        return self.data - render(model_cube, psf, channels, box)

    def chi2(self, model_cube, psf):
        return float(jnp.sum(self.residual(model_cube, psf) ** 2))
