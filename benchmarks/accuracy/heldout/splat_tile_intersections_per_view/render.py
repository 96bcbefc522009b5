"""Tile-based alpha compositing of projected Gaussians (the jitted part)."""

import jax
import jax.numpy as jnp

from tiles import TILE


@jax.jit
def rasterize(xy, sigmas, colors, opacities, gaussian_ids, tile_ids, pixel_xy, pixel_tile):
    """Sum each intersecting Gaussian's contribution over the pixels of its tile."""
    centre = xy[gaussian_ids]                        # (I, 2)
    sigma = sigmas[gaussian_ids]                     # (I,)
    d2 = jnp.sum((pixel_xy[None, :, :] - centre[:, None, :]) ** 2, axis=-1)
    in_tile = pixel_tile[None, :] == tile_ids[:, None]
    alpha = opacities[gaussian_ids][:, None] * jnp.exp(-0.5 * d2 / sigma[:, None] ** 2)
    alpha = jnp.where(in_tile, alpha, 0.0)           # (I, P)
    rgb = alpha.T @ colors[gaussian_ids]             # (P, 3)
    return jnp.clip(rgb, 0.0, 1.0)


def pixel_grid(width, height):
    ys, xs = jnp.meshgrid(jnp.arange(height), jnp.arange(width), indexing="ij")
    pixel_xy = jnp.stack([xs.ravel(), ys.ravel()], axis=-1).astype(jnp.float32) + 0.5
    pixel_tile = (ys.ravel() // TILE) * (width // TILE) + xs.ravel() // TILE
    return pixel_xy, pixel_tile
