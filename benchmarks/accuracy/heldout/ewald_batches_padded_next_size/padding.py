"""Padding helpers: every structure is padded up to a bucket size so the jitted
Ewald kernels see one shape no matter how many atoms a structure has."""

import numpy as np


def next_size(n, multiple=32):
    return int(np.ceil(n / multiple) * multiple)


def pad_structure(positions, charges, size):
    n_atoms = len(charges)
    extra = size - n_atoms
    positions = np.concatenate([positions, np.zeros((extra, 3))], axis=0)
    charges = np.concatenate([charges, np.zeros(extra)])
    mask = np.arange(size) < n_atoms
    return positions.astype(np.float32), charges.astype(np.float32), mask


def kvectors(cell_length, kmax=3):
    # same cubic box and cutoff for every structure, so the k-grid has a fixed size
    rng = np.arange(-kmax, kmax + 1)
    grid = np.stack(np.meshgrid(rng, rng, rng, indexing="ij"), axis=-1).reshape(-1, 3)
    grid = grid[np.any(grid != 0, axis=1)]
    return (2.0 * np.pi / cell_length * grid).astype(np.float32)
