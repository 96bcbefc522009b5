"""Resampling and flat-field helpers for the tile stitcher."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("out_shape", "method"))
def resample_tile(tile, out_shape, method):
    """Bring one camera tile onto the stitching grid."""
    return jax.image.resize(tile, out_shape, method=method)


@jax.jit
def flat_field(tile, gain, dark):
    corrected = (tile - dark) / jnp.maximum(gain, 1e-3)
    return jnp.clip(corrected, 0.0, None)


class TileResampler:
    def __init__(self, settings):
        # settings come from a JSON-like dict, so the grid shape arrives as a list
        self.grid_shape = tuple(int(n) for n in settings["grid_shape"])
        self.method = settings.get("method", "linear")

    def __call__(self, tile):
        return resample_tile(tile, self.grid_shape, self.method)
