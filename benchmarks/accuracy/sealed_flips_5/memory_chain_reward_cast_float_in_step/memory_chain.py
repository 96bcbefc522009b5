"""A bsuite-style memory chain: a context bit is shown at t=0 and must be recalled at the last step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

MEMORY_LENGTH = 6


class EnvState(NamedTuple):
    context: jax.Array
    t: jax.Array


class TimeStep(NamedTuple):
    obs: jax.Array
    reward: jax.Array
    done: jax.Array


def _obs(context, t):
    shown = jnp.where(t == 0, 2 * context - 1, 0)
    return jnp.stack([t / MEMORY_LENGTH, shown]).astype(jnp.float32)


def reset(key):
    context = jax.random.bernoulli(key).astype(jnp.int32)
    t = jnp.zeros((), jnp.int32)
    timestep = TimeStep(_obs(context, t), jnp.zeros((), jnp.float32), jnp.zeros((), bool))
    return EnvState(context, t), timestep


@jax.jit
def env_step(state, action):
    t = state.t + 1
    done = t >= MEMORY_LENGTH
    correct = (action == state.context).astype(jnp.int32)
    reward = ((2 * correct - 1) * done.astype(jnp.int32)).astype(jnp.float32)
    return EnvState(state.context, t), TimeStep(_obs(state.context, t), reward, done)
