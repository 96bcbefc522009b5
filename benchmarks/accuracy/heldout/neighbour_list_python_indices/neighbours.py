"""Neighbour search on the host: the particles within a cutoff of particle i."""

import numpy as np


def neighbour_list(positions, i, cutoff):
    pos = np.asarray(positions)
    found = []
    for j in range(len(pos)):
        if j != i and np.linalg.norm(pos[j] - pos[i]) < cutoff:
            found.append(j)  # expect: RTL102
    return found
