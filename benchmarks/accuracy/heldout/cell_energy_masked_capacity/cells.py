"""Bin particles into cells, padding every cell to the same capacity with a validity mask."""

import numpy as np


def bin_particles(positions, n_cells, box, capacity):
    cell_of = np.minimum((positions[:, 0] / box * n_cells).astype(int), n_cells - 1)
    padded = np.zeros((n_cells, capacity, positions.shape[1]), np.float32)
    counts = np.bincount(cell_of, minlength=n_cells)
    if counts.max() > capacity:
        raise ValueError(f"cell overflow: {counts.max()} > {capacity}")
    for c in range(n_cells):
        members = positions[cell_of == c]
        padded[c, : len(members)] = members
    mask = np.arange(capacity)[None, :] < counts[:, None]
    return padded, mask
