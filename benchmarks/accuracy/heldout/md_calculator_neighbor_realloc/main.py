"""An ASE-style calculator driving a slow compression of a small cluster."""

import numpy as np
from neighbors import allocate, overflowed
from potential import energy_and_forces


class SoftSphereCalculator:
    def __init__(self, cutoff=1.2, sigma=1.0):
        self.cutoff, self.sigma = cutoff, sigma
        self.idx = None

    def calculate(self, positions):
        if self.idx is None or overflowed(self.idx, positions, self.cutoff):
            print("re-allocating neighbours")
            self.idx = allocate(positions, self.cutoff)
        e, f = energy_and_forces(positions, self.idx, self.sigma)
        return float(e), np.asarray(f)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    positions = (rng.uniform(0.0, 4.0, size=(24, 3))).astype(np.float32)
    calc = SoftSphereCalculator()
    for step in range(8):
        e, f = calc.calculate(positions)
        positions = positions * np.float32(0.93) + np.float32(1e-3) * f
        print(step, round(e, 4))
