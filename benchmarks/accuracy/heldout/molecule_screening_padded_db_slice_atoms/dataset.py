"""A QM9-style structure database: coordinates padded to MAX_ATOMS, with per-molecule counts."""

from dataclasses import dataclass

import numpy as np

MAX_ATOMS = 12


@dataclass
class Structure:
    name: str
    positions: np.ndarray   # (n_atoms, 3) in Angstrom
    numbers: np.ndarray     # (n_atoms,) atomic numbers


class PaddedDatabase:
    def __init__(self, R, Z, N, names):
        self.R, self.Z, self.N, self.names = R, Z, N, names

    def __len__(self):
        return len(self.N)

    def get(self, i):
        n = int(self.N[i])
        return Structure(self.names[i], self.R[i, :n], self.Z[i, :n])  # expect: RTL101


def make_demo_database(seed=0):
    rng = np.random.default_rng(seed)
    counts = np.array([5, 8, 5, 11, 8])
    names = ["CH4", "C2H6", "NH4+", "C3H8", "CH3OH"]
    R = np.zeros((len(counts), MAX_ATOMS, 3), dtype=np.float32)
    Z = np.zeros((len(counts), MAX_ATOMS), dtype=np.int32)
    for k, n in enumerate(counts):
        R[k, :n] = rng.normal(scale=1.2, size=(n, 3))
        Z[k, :n] = rng.choice([1, 6, 7, 8], size=n)
    return PaddedDatabase(R, Z, counts, names)
