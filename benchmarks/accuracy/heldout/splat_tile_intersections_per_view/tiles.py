"""Host-side projection of 3D Gaussians and binning into screen tiles."""

import numpy as np

TILE = 8


def project(means3d, scales, cam_pos, focal, width, height):
    """Pinhole projection; returns 2D centres, screen-space radii and depths."""
    rel = means3d - cam_pos
    depth = rel[:, 2]
    xy = focal * rel[:, :2] / depth[:, None] + np.array([width / 2, height / 2])
    radii = np.ceil(3.0 * focal * scales / depth).astype(np.int32)
    return xy.astype(np.float32), radii, depth


def bin_to_tiles(xy, radii, width, height):
    """List every (gaussian, tile) pair whose footprint overlaps the tile."""
    tiles_x, tiles_y = width // TILE, height // TILE
    lo = np.clip(((xy - radii[:, None]) // TILE).astype(int), 0, [tiles_x - 1, tiles_y - 1])
    hi = np.clip(((xy + radii[:, None]) // TILE).astype(int), 0, [tiles_x - 1, tiles_y - 1])
    per_gaussian = [
        [ty * tiles_x + tx for ty in range(lo[g, 1], hi[g, 1] + 1) for tx in range(lo[g, 0], hi[g, 0] + 1)]
        for g in range(len(xy))
    ]
    counts = np.array([len(t) for t in per_gaussian])
    gaussian_ids = np.repeat(np.arange(len(xy)), counts).astype(np.int32)  # expect: RTL104
    tile_ids = np.concatenate([np.asarray(t, dtype=np.int32) for t in per_gaussian])  # expect: RTL104
    return gaussian_ids, tile_ids
