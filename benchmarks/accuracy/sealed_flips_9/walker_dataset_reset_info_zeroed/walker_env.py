"""A planar point-walker with a functional reset/step API that reports reward terms in an info dict."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

DT = 0.05
INFO_KEYS = ("x_position", "x_velocity", "reward_forward", "reward_ctrl")


class WalkerState(NamedTuple):
    pos: jax.Array
    vel: jax.Array
    t: jax.Array


def _obs(state):
    return jnp.concatenate([state.pos, state.vel])


@jax.jit
def reset(key):
    pos = jax.random.uniform(key, (2,), minval=-0.1, maxval=0.1)
    state = WalkerState(pos=pos, vel=jnp.zeros((2,)), t=jnp.zeros((), jnp.int32))
    info = {name: jnp.zeros(()) for name in INFO_KEYS}
    return _obs(state), state, info


@jax.jit
def step(state, action):
    vel = 0.9 * state.vel + DT * jnp.clip(action, -1.0, 1.0)
    pos = state.pos + DT * vel
    reward_forward = vel[0]
    reward_ctrl = -0.1 * jnp.sum(action**2)
    info = {"x_position": pos[0], "x_velocity": vel[0], "reward_forward": reward_forward, "reward_ctrl": reward_ctrl}
    new_state = WalkerState(pos=pos, vel=vel, t=state.t + 1)
    return _obs(new_state), new_state, reward_forward + reward_ctrl, new_state.t >= 20, info
