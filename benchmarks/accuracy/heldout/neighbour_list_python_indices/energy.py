"""Lennard-Jones energy of one particle with a list of its neighbours."""

import jax
import jax.numpy as jnp


@jax.jit
def particle_energy(positions, i, neighbours):
    others = positions[jnp.array(neighbours)]
    r = jnp.linalg.norm(others - positions[i], axis=-1)
    inv6 = (1.0 / r) ** 6
    return jnp.sum(4.0 * (inv6 * inv6 - inv6))
