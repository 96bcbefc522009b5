"""Butcher tableaus of explicit Runge-Kutta methods, stored once as double-precision NumPy arrays."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tableau:
    name: str
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray

    @property
    def stages(self):
        return len(self.b)


MIDPOINT = Tableau("midpoint", a=np.array([[0.0, 0.0], [0.5, 0.0]]), b=np.array([0.0, 1.0]), c=np.array([0.0, 0.5]))
HEUN = Tableau("heun", a=np.array([[0.0, 0.0], [1.0, 0.0]]), b=np.array([0.5, 0.5]), c=np.array([0.0, 1.0]))
