"""dm_env-style time steps, as an environment library defines them."""

from typing import Any, NamedTuple

import jax.numpy as jnp

FIRST, MID, LAST = 0, 1, 2


class TimeStep(NamedTuple):
    step_type: Any
    reward: Any
    discount: Any
    observation: Any


def restart(observation, shape=(), dtype=float):
    return TimeStep(
        step_type=jnp.asarray(FIRST, jnp.int8),
        reward=jnp.zeros(shape, dtype),  # expect: RTL402
        discount=jnp.ones(shape, dtype),
        observation=observation,
    )


def transition(reward, observation, discount=None):
    discount = jnp.ones_like(reward) if discount is None else discount
    return TimeStep(jnp.asarray(MID, jnp.int8), reward, discount, observation)
