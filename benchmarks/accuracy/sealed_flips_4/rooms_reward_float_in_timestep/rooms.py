"""A four-rooms gridworld: walls split a 9x9 grid into rooms joined by doorways; reach the goal cell."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

LAYOUT = jnp.array(
    [
        [0, 0, 0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0, 0, 0],
        [1, 0, 1, 1, 1, 1, 0, 1, 1],
        [0, 0, 0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0, 0, 0],
    ],
    dtype=jnp.int32,
)
MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]], dtype=jnp.int32)
GOAL = jnp.array([7, 7], dtype=jnp.int32)


class TimeStep(NamedTuple):
    observation: jax.Array
    reward: jax.Array
    done: jax.Array


def observe(pos):
    return jnp.zeros(LAYOUT.shape, jnp.float32).at[pos[0], pos[1]].set(1.0).ravel()


def reset(key):
    pos = jnp.array([1, 1], jnp.int32) + jax.random.randint(key, (2,), 0, 2)
    return pos, TimeStep(observe(pos), jnp.zeros((), jnp.float32), jnp.array(False))


def step(pos, action):
    target = jnp.clip(pos + MOVES[action], 0, LAYOUT.shape[0] - 1)
    new_pos = jnp.where(LAYOUT[target[0], target[1]] == 1, pos, target)
    at_goal = jnp.all(new_pos == GOAL)
    reward = jnp.logical_and(new_pos[0] == GOAL[0], new_pos[1] == GOAL[1]).astype(jnp.float32)
    return new_pos, TimeStep(observe(new_pos), reward, at_goal)
