"""Simulated nightly r-band cutouts of the same galaxy (stands in for the survey butler)."""

import numpy as np

from observation import FWHM_TO_SIGMA, PIXEL_SCALE

TRUE = {"flux": 900.0, "x0": 12.3, "y0": 11.6, "log_size": np.log(2.2)}


def nightly_cutouts(seeing_fwhm, shape=(25, 25), sky_noise=0.4, seed=3):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:shape[0], 0:shape[1]]
    for night, fwhm in enumerate(seeing_fwhm):
        s2 = np.exp(2 * TRUE["log_size"]) + (fwhm * FWHM_TO_SIGMA / PIXEL_SCALE) ** 2
        r2 = (x - TRUE["x0"]) ** 2 + (y - TRUE["y0"]) ** 2
        img = TRUE["flux"] / (2 * np.pi * s2) * np.exp(-0.5 * r2 / s2)
        img = img + rng.normal(0.0, sky_noise, size=shape)
        header = {"NIGHT": night, "FILTER": "r", "SEEING": fwhm, "SKYNOISE": sky_noise}
        yield {"image": img.astype(np.float32), "header": header}
