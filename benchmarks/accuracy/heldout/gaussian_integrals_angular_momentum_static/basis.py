"""Contracted Cartesian Gaussian basis functions for a tiny Hartree-Fock toy."""

from dataclasses import dataclass

import numpy as np

# STO-3G-like exponents and contraction coefficients (rounded, for a toy)
_S_EXP = np.array([3.4253, 0.6239, 0.1689])
_S_COEF = np.array([0.1543, 0.5353, 0.4446])
_P_EXP = np.array([5.0332, 1.1696, 0.3803])
_P_COEF = np.array([0.1559, 0.6077, 0.3920])


@dataclass
class BasisFunction:
    l: tuple  # Cartesian angular momentum (lx, ly, lz)
    alpha: np.ndarray
    coeff: np.ndarray
    center: np.ndarray


def shell_functions(center, shell):
    center = np.asarray(center, dtype=np.float32)
    if shell == "s":
        return [BasisFunction((0, 0, 0), _S_EXP, _S_COEF, center)]
    return [
        BasisFunction(l, _P_EXP, _P_COEF, center)
        for l in ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    ]


def molecule_basis(atoms):
    functions = []
    for symbol, xyz in atoms:
        functions += shell_functions(xyz, "s")
        if symbol not in ("H", "He"):
            functions += shell_functions(xyz, "p")
    return functions
