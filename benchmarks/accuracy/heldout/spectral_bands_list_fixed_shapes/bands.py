"""Band definitions and per-tile band loading for a multispectral land-cover survey."""

import numpy as np

BANDS = ("blue", "green", "red", "nir", "swir1")
TILE = 32


def load_tile_bands(tile_id, rng):
    """Reflectance for every band of one tile, already resampled to the common grid."""
    base = 0.1 + 0.02 * tile_id
    stack = []
    for i, _name in enumerate(BANDS):
        band = base + 0.05 * i + 0.01 * rng.standard_normal((TILE, TILE))
        stack.append(np.clip(band, 0.0, 1.0).astype(np.float32))
    return stack


def cloud_fraction(bands):
    blue = bands[0]
    return float(np.mean(blue > 0.35))
