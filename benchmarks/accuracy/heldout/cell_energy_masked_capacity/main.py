"""A particle-in-cell random walk: per-cell occupancy changes every step, array shapes do not."""

import numpy as np
from cells import bin_particles
from energy import cell_energy

N_CELLS, BOX, CAPACITY = 4, 4.0, 32


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    positions = rng.uniform(0.0, BOX, size=(40, 2)).astype(np.float32)
    for step in range(5):
        padded, mask = bin_particles(positions, N_CELLS, BOX, CAPACITY)
        energies = cell_energy(padded, mask, np.float32(0.05))
        print(step, mask.sum(axis=1), np.round(np.asarray(energies), 1))
        positions = np.clip(positions + rng.normal(0.0, 0.3, positions.shape), 0.0, BOX - 1e-3).astype(np.float32)
