"""A planar hopper-like environment with a functional reset and step, in the style of a physics RL library."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

DT = 0.02
N_JOINTS = 3
HEALTHY_REWARD = 1.0
CTRL_COST = 1e-3


class State(NamedTuple):
    qpos: jax.Array  # [x, z, joint angles...]
    qvel: jax.Array
    obs: jax.Array
    reward: jax.Array
    done: jax.Array
    metrics: dict


def _observe(qpos, qvel):
    return jnp.concatenate([qpos[1:], jnp.clip(qvel, -10.0, 10.0)])


def _dynamics(qpos, qvel, action):
    # A stand-in for the physics pipeline: actuated joints, gravity on the height, drift forward.
    acc = jnp.concatenate([jnp.array([0.5, -9.81]), 20.0 * action]) - 0.1 * qvel
    qvel = qvel + DT * acc
    qpos = qpos + DT * qvel
    return qpos.at[1].set(jnp.maximum(qpos[1], 0.0)), qvel


@jax.jit
def reset(key):
    qpos = jnp.concatenate([jnp.array([0.0, 1.25]), 0.01 * jax.random.normal(key, (N_JOINTS,))])
    qvel = jnp.zeros(N_JOINTS + 2)
    metrics = {"x_velocity": jnp.zeros(()), "reward_ctrl": jnp.zeros(())}
    return State(qpos, qvel, _observe(qpos, qvel), jnp.zeros(()), jnp.zeros(()), metrics)  # expect: RTL105


@jax.jit
def step(state, action):
    qpos, qvel = _dynamics(state.qpos, state.qvel, action)
    x_velocity = (qpos[0:1] - state.qpos[0:1]) / DT  # expect: RTL101
    ctrl_cost = CTRL_COST * jnp.sum(jnp.square(action))
    reward = x_velocity + HEALTHY_REWARD - ctrl_cost
    done = (qpos[1] < 0.7).astype(jnp.float32)
    metrics = {"x_velocity": x_velocity.sum(), "reward_ctrl": -ctrl_cost}
    return State(qpos, qvel, _observe(qpos, qvel), reward, done, metrics)
