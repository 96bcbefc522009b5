"""Geometry optimisation of a bead-spring chain with harmonic bonds: plain gradient descent, jitted."""

import jax
import jax.numpy as jnp


def bond_energy(positions, rest_length, k_bond):
    bonds = jnp.linalg.norm(positions[1:] - positions[:-1], axis=-1)
    return 0.5 * k_bond * jnp.sum((bonds - rest_length) ** 2)


def start(positions):
    """The optimiser carry: (number of accepted steps, positions)."""
    return (0, positions)  # expect: RTL401


@jax.jit
def relax_step(carry, rest_length, k_bond, lr0=0.05):
    n_accepted, positions = carry
    lr = lr0 / (1.0 + 0.01 * n_accepted)
    energy, grad = jax.value_and_grad(bond_energy)(positions, rest_length, k_bond)
    trial = positions - lr * grad
    accepted = bond_energy(trial, rest_length, k_bond) < energy
    new_positions = jnp.where(accepted, trial, positions)
    return (n_accepted + accepted.astype(int), new_positions), energy
