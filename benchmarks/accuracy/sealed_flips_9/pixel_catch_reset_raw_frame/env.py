"""A pixel Catch game with a functional reset/step API: a ball falls, a paddle on the bottom row catches it."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

ROWS, COLS = 10, 5


class State(NamedTuple):
    ball_row: jax.Array
    ball_col: jax.Array
    paddle_col: jax.Array
    key: jax.Array


def _render(state):
    frame = jnp.zeros((ROWS, COLS), jnp.uint8)
    frame = frame.at[state.ball_row, state.ball_col].set(255)
    return frame.at[ROWS - 1, state.paddle_col].set(255)


def _observe(state):
    # The agent sees the frame scaled to [0, 1].
    return _render(state).astype(jnp.float32) / 255.0


@jax.jit
def reset(key):
    key, k_ball = jax.random.split(key)
    state = State(
        ball_row=jnp.zeros((), jnp.int32),
        ball_col=jax.random.randint(k_ball, (), 0, COLS),
        paddle_col=jnp.int32(COLS // 2),
        key=key,
    )
    return _render(state), state  # expect: RTL402


@jax.jit
def step(state, action):
    paddle = jnp.clip(state.paddle_col + action - 1, 0, COLS - 1)
    ball_row = state.ball_row + 1
    done = ball_row == ROWS - 1
    reward = jnp.where(done, jnp.where(paddle == state.ball_col, 1.0, -1.0), 0.0)
    state = state._replace(ball_row=ball_row, paddle_col=paddle)
    return _observe(state), state, reward, done  # expect: RTL402
