"""A scripted policy: step towards the nearest living enemy, with a little noise."""

import jax
import jax.numpy as jnp


@jax.jit
def chase_nearest(state, team, key):
    enemy = team[:, None] != team[None, :]
    alive = state.health > 0
    offsets = state.positions[None, :] - state.positions[:, None]
    dists = jnp.where(enemy & alive[None, :], jnp.linalg.norm(offsets, axis=-1), jnp.inf)
    target = jnp.argmin(dists, axis=-1)
    direction = offsets[jnp.arange(team.shape[0]), target]
    direction = direction / (jnp.linalg.norm(direction, axis=-1, keepdims=True) + 1e-6)
    return direction + 0.1 * jax.random.normal(key, direction.shape)
