"""A swarm of particles kept in float32 (positions, velocities) for a large-n simulation."""

import jax
import jax.numpy as jnp


class Swarm:
    def __init__(self, n, key):
        kx, kv = jax.random.split(key)
        self.positions = jax.random.uniform(kx, (n, 2), dtype=jnp.float32, minval=-1.0, maxval=1.0)
        self.velocities = jnp.zeros((n, 2), dtype=jnp.float32)
        self.masses = jax.random.uniform(kv, (n,), dtype=jnp.float32, minval=0.5, maxval=1.5)


@jax.jit
def pair_forces(positions, masses):
    """Softened gravity between all pairs, summed per particle."""
    delta = positions[None, :, :] - positions[:, None, :]
    dist2 = jnp.sum(delta**2, axis=-1) + 0.05
    strength = masses[None, :] / dist2**1.5
    return jnp.sum(strength[:, :, None] * delta, axis=1)
