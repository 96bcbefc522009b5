"""Episode statistics logged next to the environment state."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class LogEnvState(NamedTuple):
    env_state: object
    episode_returns: jax.Array
    episode_lengths: jax.Array
    returned_episode_returns: jax.Array


class LogWrapper:
    def __init__(self, env):
        self.env = env

    def reset(self, key):
        obs, env_state = self.env.reset(key)
        return obs, LogEnvState(env_state, jnp.zeros(()), 0, jnp.zeros(()))

    def step(self, key, state, action):
        obs, env_state, reward, done = self.env.step(key, state.env_state, action)
        new_return = state.episode_returns + reward
        new_length = state.episode_lengths + 1
        state = LogEnvState(
            env_state,
            episode_returns=new_return * (1 - done),
            episode_lengths=new_length * (1 - done),
            returned_episode_returns=jnp.where(done, new_return, state.returned_episode_returns),
        )
        return obs, state, reward, done
