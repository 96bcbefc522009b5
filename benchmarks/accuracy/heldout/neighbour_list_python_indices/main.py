"""Metropolis moves of single particles in a small Lennard-Jones cluster, with local energy differences."""

import jax.numpy as jnp
import numpy as np
from energy import particle_energy
from neighbours import neighbour_list


def local_energy(positions, i, cutoff):
    return float(particle_energy(positions, i, neighbour_list(positions, i, cutoff)))


def sweep(positions, rng, cutoff=1.8, step=0.05, beta=2.0):
    accepted = 0
    for i in range(positions.shape[0]):
        trial = positions.at[i].add(jnp.asarray(rng.normal(scale=step, size=2), dtype=jnp.float32))
        delta = local_energy(trial, i, cutoff) - local_energy(positions, i, cutoff)
        if delta < 0 or rng.uniform() < np.exp(-beta * delta):
            positions, accepted = trial, accepted + 1
    return positions, accepted


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    grid = np.stack(np.meshgrid(np.arange(3), np.arange(3)), -1).reshape(-1, 2) * 1.12
    positions = jnp.asarray(grid + rng.normal(scale=0.05, size=grid.shape), dtype=jnp.float32)
    for _ in range(2):
        positions, accepted = sweep(positions, rng)
        print("accepted", accepted)
