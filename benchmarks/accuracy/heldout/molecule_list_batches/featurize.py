"""Turn molecules (atom count, bond list) into adjacency and feature matrices."""

import numpy as np

FEATURES = 4


def to_matrices(num_atoms, bonds):
    adjacency = np.eye(num_atoms, dtype=np.float32)  # expect: RTL105
    for i, j in bonds:
        adjacency[i, j] = adjacency[j, i] = 1.0
    features = np.tile(np.arange(FEATURES, dtype=np.float32), (num_atoms, 1))  # expect: RTL105
    return adjacency, features


def batches(molecules, batch_size):
    for start in range(0, len(molecules), batch_size):
        pairs = [to_matrices(n, bonds) for n, bonds in molecules[start : start + batch_size]]
        yield [a for a, _ in pairs], [f for _, f in pairs]
