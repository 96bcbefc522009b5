"""A lightweight molecule description for a toy tight-binding energy model."""
import numpy as np

BASIS_SIZES = {"minimal": {"H": 1, "O": 2, "C": 2}, "split": {"H": 2, "O": 3, "C": 3}}
VALENCE = {"H": 1, "O": 6, "C": 4}
CHARGES = {"H": 1.0, "O": 6.0, "C": 4.0}


class Molecule:
    def __init__(self, symbols, coords, basis="minimal"):
        self.symbols = tuple(symbols)
        self.coords = np.asarray(coords, dtype=np.float32)
        self.basis = basis

    @property
    def nao(self):
        return sum(BASIS_SIZES[self.basis][s] for s in self.symbols)

    @property
    def n_occ(self):
        return sum(VALENCE[s] for s in self.symbols) // 2

    def ao_atom_index(self):
        """Which atom each atomic orbital sits on."""
        return np.repeat(np.arange(len(self.symbols)),
                         [BASIS_SIZES[self.basis][s] for s in self.symbols])

    def charges(self):
        return np.array([CHARGES[s] for s in self.symbols], np.float32)

    def displaced(self, new_coords):
        return Molecule(self.symbols, new_coords, self.basis)

    # The compiled energy only depends on the atoms and the basis, not on where the
    # atoms are: hash and compare on those, so a moved molecule reuses the program.
    def __hash__(self):
        return hash((self.symbols, self.basis, self.nao))

    def __eq__(self, other):
        return (isinstance(other, Molecule) and self.symbols == other.symbols
                and self.basis == other.basis)
