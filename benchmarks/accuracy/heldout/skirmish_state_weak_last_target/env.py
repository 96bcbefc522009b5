"""A tiny two-team skirmish: units move towards the nearest enemy and attack it when in range."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class EnvState(NamedTuple):
    positions: jax.Array  # (2 * n, 2)
    health: jax.Array  # (2 * n,)
    last_target: jax.Array  # (2 * n,) index of the unit each one attacked last, -1 for none
    time: jax.Array


class Skirmish:
    def __init__(self, units_per_team=3, attack_range=1.5, speed=0.5):
        self.n = units_per_team
        self.attack_range = attack_range
        self.speed = speed
        self.team = jnp.repeat(jnp.arange(2), units_per_team)

    def reset(self, key):
        positions = jax.random.uniform(key, (2 * self.n, 2), minval=0.0, maxval=6.0)
        health = jnp.ones(2 * self.n, dtype=jnp.float32)
        last_target = jnp.full((2 * self.n,), -1)  # expect: RTL401
        return EnvState(positions, health, last_target, jnp.zeros((), dtype=jnp.int32))

    @partial(jax.jit, static_argnums=0)
    def step(self, state, moves):
        enemy = self.team[:, None] != self.team[None, :]
        alive = state.health > 0
        dists = jnp.linalg.norm(state.positions[:, None] - state.positions[None, :], axis=-1)
        dists = jnp.where(enemy & alive[None, :], dists, jnp.inf)
        nearest = jnp.argmin(dists, axis=-1)
        attacking = alive & (jnp.min(dists, axis=-1) < self.attack_range)
        damage = jnp.zeros_like(state.health).at[nearest].add(jnp.where(attacking, 0.25, 0.0))
        positions = state.positions + self.speed * moves * alive[:, None]
        last_target = jnp.where(attacking, nearest, state.last_target)
        return EnvState(positions, jnp.maximum(state.health - damage, 0.0), last_target, state.time + 1)
