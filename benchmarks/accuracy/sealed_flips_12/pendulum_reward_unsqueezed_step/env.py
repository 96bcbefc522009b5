"""Pendulum-v1 in the functional reset/step style: the action is a one-element array."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class EnvState(NamedTuple):
    theta: jax.Array
    theta_dot: jax.Array
    time: jax.Array


class TimeStep(NamedTuple):
    obs: jax.Array
    reward: jax.Array
    done: jax.Array


def angle_normalize(x):
    return ((x + jnp.pi) % (2 * jnp.pi)) - jnp.pi


class Pendulum:
    max_speed = 8.0
    max_torque = 2.0
    dt = 0.05

    def observation(self, state):
        return jnp.stack([jnp.cos(state.theta), jnp.sin(state.theta), state.theta_dot])

    def reset(self, key):
        high = jnp.array([jnp.pi, 1.0])
        theta, theta_dot = jax.random.uniform(key, (2,), minval=-high, maxval=high)
        state = EnvState(theta, theta_dot, jnp.zeros((), jnp.int32))
        return state, TimeStep(self.observation(state), jnp.zeros(()), jnp.zeros((), bool))  # expect: RTL105

    def step(self, state, action):
        u = jnp.clip(action, -self.max_torque, self.max_torque)
        reward = -(angle_normalize(state.theta) ** 2 + 0.1 * state.theta_dot**2 + 0.001 * u**2)  # expect: RTL105
        theta_dot = state.theta_dot + (3 * 10.0 / 2 * jnp.sin(state.theta) + 3.0 * u[0]) * self.dt
        theta_dot = jnp.clip(theta_dot, -self.max_speed, self.max_speed)
        state = EnvState(state.theta + theta_dot * self.dt, theta_dot, state.time + 1)
        return state, TimeStep(self.observation(state), reward, state.time >= 200)
