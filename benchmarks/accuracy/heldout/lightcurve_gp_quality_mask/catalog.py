"""A small photometric survey: every star has the same cadence but its own quality flags."""

from dataclasses import dataclass

import numpy as np

CADENCE = np.linspace(0.0, 10.0, 24)


@dataclass
class Star:
    name: str
    time: np.ndarray
    flux: np.ndarray
    quality: np.ndarray


def load_survey(n_stars, seed=3):
    rng = np.random.default_rng(seed)
    stars = []
    for i in range(n_stars):
        flux = np.sin(CADENCE * (0.5 + 0.2 * i)) + 0.1 * rng.normal(size=CADENCE.size)
        quality = rng.uniform(size=CADENCE.size)
        stars.append(Star(f"star-{i}", CADENCE, flux.astype(np.float32), quality))
    return stars


def good_points(star, threshold):
    """Drop the exposures flagged as bad (clouds, cosmic rays) before fitting."""
    keep = star.quality > threshold
    return star.time[keep], star.flux[keep]  # expect: RTL104
