"""Pairwise soft-sphere energy and forces over a padded neighbour list."""

import jax
import jax.numpy as jnp


def _energy(positions, idx, sigma):
    padded = jnp.concatenate([positions, jnp.full((1, positions.shape[1]), 1e6)])
    rij = positions[:, None, :] - padded[idx]
    r = jnp.linalg.norm(rij, axis=-1)
    return 0.5 * jnp.sum(jnp.where(r < sigma, (1.0 - r / sigma) ** 2, 0.0))


@jax.jit
def energy_and_forces(positions, idx, sigma):
    e, g = jax.value_and_grad(_energy)(positions, idx, sigma)
    return e, -g
