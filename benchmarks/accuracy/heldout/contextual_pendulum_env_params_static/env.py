"""A contextual pendulum: physical parameters (the context) can change between episodes."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class PendulumParams:
    gravity: float = 9.81
    mass: float = 1.0
    length: float = 1.0
    max_torque: float = 2.0
    dt: float = 0.05


@partial(jax.jit, static_argnums=(2,))
def pendulum_dynamics(state, action, params):
    theta, omega = state[0], state[1]
    torque = jnp.clip(action, -params.max_torque, params.max_torque)
    acc = (3.0 * params.gravity / (2.0 * params.length) * jnp.sin(theta)
           + 3.0 / (params.mass * params.length ** 2) * torque)
    omega = jnp.clip(omega + acc * params.dt, -8.0, 8.0)
    theta = theta + omega * params.dt
    cost = theta ** 2 + 0.1 * omega ** 2 + 0.001 * torque ** 2
    return jnp.stack([theta, omega]), -cost


class ContextualPendulum:
    def __init__(self, params=None):
        self.env_params = params or PendulumParams()
        self.state = jnp.zeros(2)

    def set_context(self, **context):
        self.env_params = dataclasses.replace(self.env_params, **context)

    def reset(self, key):
        self.state = jax.random.uniform(key, (2,), minval=-1.0, maxval=1.0)
        return self.state

    def step(self, action):
        self.state, reward = pendulum_dynamics(self.state, action, self.env_params)  # expect: RTL201
        return self.state, reward
