"""Steepest-descent relaxation of a Lennard-Jones cluster, done in nanometres internally."""

import jax
import jax.numpy as jnp

from quantity import Length

SIGMA_NM = 0.34
EPSILON = 1.0


def lj_energy(x_nm):
    diff = x_nm[:, None, :] - x_nm[None, :, :]
    r2 = jnp.sum(diff**2, -1) + jnp.eye(x_nm.shape[0])
    inv6 = (SIGMA_NM**2 / r2) ** 3
    return 2 * EPSILON * jnp.sum(jnp.triu(inv6**2 - inv6, k=1))


@jax.jit
def relax_step(positions, step_size):
    x_nm = positions.to("nm").value
    forces = -jax.grad(lj_energy)(x_nm)
    max_force = jnp.max(jnp.linalg.norm(forces, axis=-1))
    return Length(x_nm + step_size * forces / (1.0 + max_force), "nm"), lj_energy(x_nm)  # expect: RTL403
