"""A repeated two-player matrix game in the style of Jumanji / Matrax environments."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

# payoff[a0, a1] -> (reward of agent 0, reward of agent 1); integer points, as in the textbooks
PRISONERS_DILEMMA = jnp.array(
    [[[3, 3], [0, 5]],
     [[5, 0], [1, 1]]],
    dtype=jnp.int32,
)


class GameState(NamedTuple):
    step_count: jax.Array
    last_actions: jax.Array
    key: jax.Array


class TimeStep(NamedTuple):
    reward: jax.Array  # one entry per agent
    discount: jax.Array
    observation: jax.Array  # the other agent's last action, one-hot, per agent
    last: jax.Array


def _observe(actions, num_actions):
    return jax.nn.one_hot(actions[::-1], num_actions)


class MatrixGame:
    def __init__(self, payoff, time_limit=5):
        self.payoff = payoff
        self.num_agents = payoff.ndim - 1
        self.num_actions = payoff.shape[0]
        self.time_limit = time_limit
        self.reset = jax.jit(self._reset)
        self.step = jax.jit(self._step)

    def _reset(self, key):
        actions = jnp.zeros((self.num_agents,), jnp.int32)
        state = GameState(jnp.asarray(0, jnp.int32), actions, key)
        timestep = TimeStep(
            reward=jnp.zeros((self.num_agents,), jnp.float32),
            discount=jnp.ones((self.num_agents,), jnp.float32),
            observation=_observe(actions, self.num_actions),
            last=jnp.asarray(False),
        )
        return state, timestep

    def _step(self, state, actions):
        step_count = state.step_count + 1
        reward = self.payoff[actions[0], actions[1]]  # expect: RTL402
        done = step_count >= self.time_limit
        timestep = TimeStep(
            reward=reward,
            discount=jnp.where(done, 0.0, 1.0) * jnp.ones((self.num_agents,), jnp.float32),
            observation=_observe(actions, self.num_actions),
            last=done,
        )
        return GameState(step_count, actions, state.key), timestep
