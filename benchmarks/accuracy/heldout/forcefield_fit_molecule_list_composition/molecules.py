"""Small reference molecules for a harmonic bond-stretch force field fit."""

from dataclasses import dataclass

import numpy as np

# bond types: 0 = C-H, 1 = O-H, 2 = C-O
_GEOMETRIES = {
    "methane": (
        [[0.0, 0.0, 0.0], [1.09, 0.0, 0.0], [-0.36, 1.03, 0.0], [-0.36, -0.51, 0.89], [-0.36, -0.51, -0.89]],
        [(0, 1, 0), (0, 2, 0), (0, 3, 0), (0, 4, 0)],
    ),
    "water": (
        [[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]],
        [(0, 1, 1), (0, 2, 1)],
    ),
    "methanol": (
        [[0.0, 0.0, 0.0], [1.43, 0.0, 0.0], [1.75, 0.91, 0.0], [-0.36, 1.03, 0.0],
         [-0.36, -0.51, 0.89], [-0.36, -0.51, -0.89]],
        [(0, 1, 2), (1, 2, 1), (0, 3, 0), (0, 4, 0), (0, 5, 0)],
    ),
    "formaldehyde": (
        [[0.0, 0.0, 0.0], [1.21, 0.0, 0.0], [-0.55, 0.94, 0.0], [-0.55, -0.94, 0.0]],
        [(0, 1, 2), (0, 2, 0), (0, 3, 0)],
    ),
}

TRUE_K = np.array([340.0, 550.0, 320.0], np.float32)
TRUE_R0 = np.array([1.10, 0.97, 1.42], np.float32)


@dataclass
class MoleculeSpec:
    name: str
    coords: np.ndarray      # (n_atoms, 3)
    bonds: np.ndarray       # (n_bonds, 2) atom indices
    bond_types: np.ndarray  # (n_bonds,)
    ref_energy: np.ndarray  # ()

    def as_arrays(self):
        return (self.coords, self.bonds, self.bond_types, self.ref_energy)


def build_molecule(name, seed=0):
    xyz, bond_list = _GEOMETRIES[name]
    rng = np.random.default_rng(seed)
    coords = np.asarray(xyz, np.float32) + rng.normal(0.0, 0.02, (len(xyz), 3)).astype(np.float32)
    bonds = np.array([(i, j) for i, j, _ in bond_list], np.int32)
    types = np.array([t for _, _, t in bond_list], np.int32)
    r = np.linalg.norm(coords[bonds[:, 0]] - coords[bonds[:, 1]], axis=1)
    ref = np.sum(0.5 * TRUE_K[types] * (r - TRUE_R0[types]) ** 2).astype(np.float32)
    return MoleculeSpec(name, coords, bonds, types, np.asarray(ref))
