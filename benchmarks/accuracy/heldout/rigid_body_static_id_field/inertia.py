"""Mass properties of the bodies."""

import jax
import jax.numpy as jnp


@jax.jit
def inertia_tensor(body):
    """Principal moments of a solid cylinder about its centre (axis along z)."""
    transverse = body.mass * (3 * body.radius**2 + body.length**2) / 12
    axial = body.mass * body.radius**2 / 2
    return jnp.stack([transverse, transverse, axial])
