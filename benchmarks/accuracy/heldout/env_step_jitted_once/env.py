"""A point-mass reacher with a functional reset/step API, in the style of a physics env."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    pos: jax.Array
    vel: jax.Array
    target: jax.Array
    reward: jax.Array


class Reacher:
    action_size = 2
    dt = 0.05

    def reset(self, rng):
        k1, k2 = jax.random.split(rng)
        pos = jax.random.uniform(k1, (2,), minval=-1.0, maxval=1.0)
        target = jax.random.uniform(k2, (2,), minval=-1.0, maxval=1.0)
        return State(pos, jnp.zeros(2), target, jnp.zeros(()))

    def step(self, state, action):
        vel = 0.9 * state.vel + self.dt * jnp.clip(action, -1.0, 1.0)
        pos = state.pos + self.dt * vel
        reward = -jnp.linalg.norm(pos - state.target)
        return State(pos, vel, state.target, reward)
