"""A tiny in-memory molecule library: element symbols and xyz coordinates (angstrom)."""

from dataclasses import dataclass

import numpy as np

ELEMENTS = ("H", "C", "N", "O")


@dataclass
class Molecule:
    name: str
    symbols: list
    coords: np.ndarray

    @property
    def n_atoms(self):
        return len(self.symbols)


def _mol(name, rows):
    symbols = [r[0] for r in rows]
    coords = np.array([r[1:] for r in rows], dtype=np.float32)
    return Molecule(name, symbols, coords)


LIBRARY = [
    _mol("water", [("O", 0.0, 0.0, 0.0), ("H", 0.96, 0.0, 0.0), ("H", -0.24, 0.93, 0.0)]),
    _mol("methane", [("C", 0.0, 0.0, 0.0), ("H", 0.63, 0.63, 0.63), ("H", -0.63, -0.63, 0.63),
                     ("H", -0.63, 0.63, -0.63), ("H", 0.63, -0.63, -0.63)]),
    _mol("ammonia", [("N", 0.0, 0.0, 0.0), ("H", 0.94, 0.0, -0.38), ("H", -0.47, 0.82, -0.38),
                     ("H", -0.47, -0.82, -0.38)]),
    _mol("hydrogen_cyanide", [("H", -1.06, 0.0, 0.0), ("C", 0.0, 0.0, 0.0), ("N", 1.15, 0.0, 0.0)]),
]
