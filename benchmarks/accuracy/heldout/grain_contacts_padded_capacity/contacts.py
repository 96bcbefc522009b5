"""Contact detection for 2-D disc packings, padded to a fixed capacity for the jitted energy."""

import numpy as np


def find_contacts(positions, radius):
    """All overlapping pairs (i < j); how many there are depends on the packing."""
    diff = positions[:, None, :] - positions[None, :, :]
    dist = np.sqrt((diff**2).sum(-1))
    i, j = np.nonzero(np.triu(dist < 2 * radius, k=1))
    return np.stack([i, j], axis=1).astype(np.int32)


def contact_capacity(packings, radius, headroom=1.25):
    """One capacity for the whole dataset, chosen before any energy is evaluated."""
    most = max(len(find_contacts(p, radius)) for p in packings)
    return int(np.ceil(most * headroom)) + 1


def padded_contacts(positions, radius, capacity):
    found = find_contacts(positions, radius)
    if len(found) > capacity:
        raise RuntimeError(f"{len(found)} contacts overflow capacity {capacity}")
    pairs = np.zeros((capacity, 2), np.int32)
    mask = np.zeros(capacity, np.float32)
    pairs[: len(found)] = found
    mask[: len(found)] = 1.0
    return pairs, mask
