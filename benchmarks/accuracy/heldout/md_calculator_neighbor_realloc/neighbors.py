"""A dense neighbour list: for each atom, the indices of atoms within the cutoff, padded with N."""

import numpy as np


def neighbor_counts(positions, cutoff):
    d = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
    close = (d < cutoff) & ~np.eye(len(positions), dtype=bool)
    return close, close.sum(axis=1)


def allocate(positions, cutoff, capacity_multiplier=1.0):
    close, counts = neighbor_counts(positions, cutoff)
    capacity = max(1, int(counts.max() * capacity_multiplier))
    idx = np.full((len(positions), capacity), len(positions), dtype=np.int32)  # expect: RTL105
    for i, row in enumerate(close):
        js = np.flatnonzero(row)
        idx[i, : len(js)] = js
    return idx


def overflowed(idx, positions, cutoff):
    _, counts = neighbor_counts(positions, cutoff)
    return bool(counts.max() > idx.shape[1])
