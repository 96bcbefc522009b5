"""Instrument response of a small interferometer: a Gaussian primary beam + PSF blur."""

import jax.numpy as jnp


class GaussianBeam:
    """Convolve a sky image with a separable Gaussian PSF of the given FWHM (pixels).

    Used as a static argument of the jitted solver step, so it is given a hash
    derived from its parameters.
    """

    def __init__(self, fwhm_pix, support=7):
        self.fwhm_pix = float(fwhm_pix)
        self.support = int(support)
        sigma = self.fwhm_pix / 2.3548
        offsets = jnp.arange(self.support) - self.support // 2
        taps = jnp.exp(-0.5 * (offsets / sigma) ** 2)
        self.taps = taps / taps.sum()

    def __hash__(self):
        return hash(("GaussianBeam", self.fwhm_pix, self.support))

    def __repr__(self):
        return f"GaussianBeam(fwhm={self.fwhm_pix:.2f}, support={self.support})"

    def __call__(self, image):
        blur_rows = jnp.apply_along_axis(
            lambda r: jnp.convolve(r, self.taps, mode="same"), 1, image
        )
        return jnp.apply_along_axis(
            lambda c: jnp.convolve(c, self.taps, mode="same"), 0, blur_rows
        )


def beam_from_config(cfg):
    """FWHM in pixels from the observing frequency and the dish/pixel geometry."""
    wavelength = 299_792_458.0 / cfg["freq_hz"]
    fwhm_rad = 1.02 * wavelength / cfg["baseline_m"]
    return GaussianBeam(fwhm_rad / cfg["pixel_rad"], support=cfg["support"])
