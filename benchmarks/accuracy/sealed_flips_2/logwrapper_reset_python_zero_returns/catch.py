"""A small Catch environment: a ball falls down a grid and a paddle moves to catch it."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class CatchState(NamedTuple):
    ball_x: jax.Array
    ball_y: jax.Array
    paddle_x: jax.Array


class Catch:
    rows = 10
    columns = 5

    def reset(self, key):
        ball_x = jax.random.randint(key, (), 0, self.columns)
        state = CatchState(ball_x, jnp.zeros((), jnp.int32), jnp.full((), self.columns // 2, jnp.int32))
        return self.observe(state), state

    def step(self, key, state, action):
        paddle_x = jnp.clip(state.paddle_x + action - 1, 0, self.columns - 1)
        ball_y = state.ball_y + 1
        done = ball_y == self.rows - 1
        caught = done & (paddle_x == state.ball_x)
        reward = jnp.where(done, jnp.where(caught, 1.0, -1.0), 0.0).astype(jnp.float32)
        new_obs, new_state = self.reset(key)
        state = CatchState(state.ball_x, ball_y, paddle_x)
        state = jax.tree_util.tree_map(lambda a, b: jnp.where(done, a, b), new_state, state)
        obs = jnp.where(done, new_obs, self.observe(state))
        return obs, state, reward, done

    def observe(self, state):
        board = jnp.zeros((self.rows, self.columns), jnp.float32)
        board = board.at[state.ball_y, state.ball_x].set(1.0)
        return board.at[self.rows - 1, state.paddle_x].set(1.0).ravel()
