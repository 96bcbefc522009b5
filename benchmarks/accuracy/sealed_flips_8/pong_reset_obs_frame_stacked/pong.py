"""A tiny object-centric Pong environment with a functional reset and step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

FRAME_STACK = 4
HEIGHT = 160.0


class PongObs(NamedTuple):
    player_y: jax.Array
    enemy_y: jax.Array
    ball: jax.Array  # (x, y)


class PongState(NamedTuple):
    player_y: jax.Array
    enemy_y: jax.Array
    ball: jax.Array
    ball_vel: jax.Array
    score: jax.Array


def _observe(state):
    return PongObs(state.player_y, state.enemy_y, state.ball)


def _expand_and_copy(x):
    x_expanded = jnp.expand_dims(x, axis=0)
    return jnp.concatenate([x_expanded] * FRAME_STACK, axis=0)  # expect: RTL105


@jax.jit
def reset(key):
    vel = jax.random.uniform(key, (2,), minval=-2.0, maxval=2.0)
    state = PongState(
        player_y=jnp.array(80.0, jnp.float32),
        enemy_y=jnp.array(80.0, jnp.float32),
        ball=jnp.array([80.0, 80.0], jnp.float32),
        ball_vel=vel,
        score=jnp.zeros((), jnp.int32),
    )
    # The first observation is a stack of copies, so the agent sees FRAME_STACK frames from the start.
    initial_obs = jax.tree_util.tree_map(_expand_and_copy, _observe(state))
    return initial_obs, state


@jax.jit
def step(state, action):
    player_y = jnp.clip(state.player_y + 4.0 * (action - 1), 0.0, HEIGHT)
    enemy_y = state.enemy_y + jnp.clip(state.ball[1] - state.enemy_y, -2.0, 2.0)
    ball = state.ball + state.ball_vel
    bounce = (ball[1] < 0.0) | (ball[1] > HEIGHT)
    ball_vel = state.ball_vel * jnp.where(bounce, jnp.array([1.0, -1.0]), 1.0)
    scored = ball[0] < 0.0
    new_state = PongState(player_y, enemy_y, ball, ball_vel, state.score + scored)
    return _observe(new_state), new_state, scored.astype(jnp.float32)
