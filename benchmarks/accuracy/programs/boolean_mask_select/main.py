"""Monte Carlo sweeps over particles; only the particles below an energy cut interact."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def pair_energy(positions):
    gaps = positions[:, None, :] - positions[None, :, :]
    dist2 = jnp.sum(gaps**2, axis=-1) + jnp.eye(positions.shape[0])
    return jnp.sum(jnp.triu(1.0 / dist2, k=1))


def sweep(rng, positions, cut):
    positions = positions + 0.3 * rng.normal(size=positions.shape)
    energies = np.sum(positions**2, axis=1)
    active = positions[energies < cut]  # expect: RTL104
    return positions, float(pair_energy(active))


def simulate(n_sweeps=4, n=12, cut=2.0):
    rng = np.random.default_rng(0)
    positions = rng.normal(size=(n, 2))
    energies = []
    for _ in range(n_sweeps):
        positions, energy = sweep(rng, positions, cut)
        energies.append(energy)
    return energies


if __name__ == "__main__":
    print(simulate())
