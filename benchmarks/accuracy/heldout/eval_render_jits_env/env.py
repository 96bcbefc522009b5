"""A point-mass tracking task: follow a reference trajectory with a force action."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    pos: jax.Array
    vel: jax.Array
    t: jax.Array
    reward: jax.Array


class TrackingEnv:
    def __init__(self, dt=0.05):
        self.dt = dt

    def reference(self, t):
        return jnp.stack([jnp.sin(t), jnp.cos(t)])

    def reset(self, key):
        pos = jax.random.normal(key, (2,)) * 0.1
        return State(pos, jnp.zeros(2), jnp.zeros(()), jnp.zeros(()))

    def step(self, state, action):
        vel = state.vel + self.dt * jnp.clip(action, -1.0, 1.0)
        pos = state.pos + self.dt * vel
        t = state.t + self.dt
        reward = -jnp.sum((pos - self.reference(t)) ** 2)
        return State(pos, vel, t, reward)
