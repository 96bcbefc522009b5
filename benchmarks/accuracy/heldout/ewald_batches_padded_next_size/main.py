"""Ewald electrostatics for a set of small ionic clusters of different sizes in the
same periodic box: real-space plus reciprocal-space energy and per-atom potentials."""

import jax
import jax.numpy as jnp
import numpy as np

from padding import kvectors, next_size, pad_structure

CELL = 12.0
ALPHA = 0.35


@jax.jit
def reciprocal_energy(positions, charges, kvecs):
    k2 = jnp.sum(kvecs**2, axis=-1)
    phase = positions @ kvecs.T
    s_re = jnp.sum(charges[:, None] * jnp.cos(phase), axis=0)
    s_im = jnp.sum(charges[:, None] * jnp.sin(phase), axis=0)
    weight = jnp.exp(-k2 / (4.0 * ALPHA**2)) / k2
    return 2.0 * jnp.pi / CELL**3 * jnp.sum(weight * (s_re**2 + s_im**2))


@jax.jit
def real_space_potential(positions, charges, mask):
    diff = positions[:, None, :] - positions[None, :, :]
    diff = diff - CELL * jnp.round(diff / CELL)
    pair = mask[:, None] & mask[None, :] & ~jnp.eye(mask.shape[0], dtype=bool)
    dist = jnp.sqrt(jnp.sum(diff**2, axis=-1) + jnp.where(pair, 0.0, 1.0))
    kernel = jnp.where(pair, jax.scipy.special.erfc(ALPHA * dist) / dist, 0.0)
    return kernel @ charges


def make_cluster(rng, n_atoms):
    positions = rng.uniform(0.0, CELL, size=(n_atoms, 3))
    charges = np.where(np.arange(n_atoms) % 2 == 0, 1.0, -1.0)
    if n_atoms % 2:
        charges[-1] = 0.0  # keep the cluster neutral
    return positions, charges


class EwaldCalculator:
    def __init__(self, cell):
        self.kvecs = jnp.asarray(kvectors(cell))

    def __call__(self, positions, charges):
        n_atoms = len(charges)
        size = next_size(n_atoms)
        pos, q, mask = pad_structure(positions, charges, size)
        pos, q, mask = jnp.asarray(pos), jnp.asarray(q), jnp.asarray(mask)
        e_recip = reciprocal_energy(pos, q, self.kvecs)
        potential = real_space_potential(pos, q, mask)
        e_self = -ALPHA / jnp.sqrt(jnp.pi) * jnp.sum(q**2)
        e_real = 0.5 * jnp.sum(q * potential)
        return float(e_real + e_recip + e_self), np.asarray(potential)[:n_atoms]


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    calc = EwaldCalculator(CELL)
    for n_atoms in [12, 19, 27, 8, 23]:
        positions, charges = make_cluster(rng, n_atoms)
        energy, potential = calc(positions, charges)
        print(f"{n_atoms:3d} atoms  E = {energy:9.4f}  max|phi| = {np.abs(potential).max():.3f}")
