"""A tight-binding stand-in for a Kohn-Sham SCF on a small hydrogen cluster."""

from functools import partial

import jax
import jax.numpy as jnp

BASIS_WIDTH = {"sto-3g": 1.6, "6-31g": 1.4}
ONSITE = -0.5
HOPPING = 1.0
N_OCC = 2  # H4: four electrons in two doubly occupied orbitals


def _hamiltonian(coords, density, opts):
    r2 = jnp.sum((coords[:, None, :] - coords[None, :, :]) ** 2, axis=-1)
    off_diagonal = 1.0 - jnp.eye(coords.shape[0], dtype=coords.dtype)
    hop = -HOPPING * jnp.exp(-r2 / BASIS_WIDTH[opts.basis] ** 2) * off_diagonal
    onsite = ONSITE + (opts.hubbard_u * density if opts.xc == "lda" else 0.0)
    return hop + jnp.diag(onsite), r2


def _scf_density(coords, opts):
    density = jnp.ones(coords.shape[0], coords.dtype)
    for _ in range(opts.its):
        h, _ = _hamiltonian(coords, density, opts)
        _, orbitals = jnp.linalg.eigh(h)
        new_density = 2.0 * jnp.sum(orbitals[:, :N_OCC] ** 2, axis=1)
        density = (1.0 - opts.mixing) * density + opts.mixing * new_density
    return density


def total_energy(coords, opts):
    density = _scf_density(coords, opts)
    h, r2 = _hamiltonian(coords, density, opts)
    levels = jnp.linalg.eigh(h)[0]
    band = 2.0 * jnp.sum(levels[:N_OCC]) - 0.5 * opts.hubbard_u * jnp.sum(density**2)
    off_diagonal = 1.0 - jnp.eye(coords.shape[0], dtype=coords.dtype)
    repulsion = 0.5 * jnp.sum(off_diagonal * 0.5 / jnp.sqrt(r2 + 0.2))
    return band + repulsion


@partial(jax.jit, static_argnums=(1,))
def energy_and_gradient(coords, opts):
    return jax.value_and_grad(total_energy)(coords, opts)


@partial(jax.jit, static_argnums=(1,))
def mulliken_charges(coords, opts):
    return 1.0 - _scf_density(coords, opts)
