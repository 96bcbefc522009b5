"""Functional pendulum swing-up environment (gymnax-style: params live outside the env)."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class EnvParams:
    max_speed: float = 8.0
    max_torque: float = 2.0
    dt: float = 0.05
    gravity: float = 10.0
    mass: float = 1.0
    length: float = 1.0


def reset(key):
    high = jnp.array([jnp.pi, 1.0])
    return jax.random.uniform(key, (2,), minval=-high, maxval=high)


def observe(state):
    theta, theta_dot = state
    return jnp.stack([jnp.cos(theta), jnp.sin(theta), theta_dot])


def step(params, state, action):
    theta, theta_dot = state
    torque = jnp.clip(action, -params.max_torque, params.max_torque)
    angle = ((theta + jnp.pi) % (2 * jnp.pi)) - jnp.pi
    cost = angle**2 + 0.1 * theta_dot**2 + 0.001 * torque**2
    accel = 3 * params.gravity / (2 * params.length) * jnp.sin(theta)
    accel = accel + 3.0 / (params.mass * params.length**2) * torque
    theta_dot = jnp.clip(theta_dot + accel * params.dt, -params.max_speed, params.max_speed)
    theta = theta + theta_dot * params.dt
    return jnp.stack([theta, theta_dot]), -cost
