"""A cooperative foraging grid for several agents, with dm_env-style timesteps and a team reward."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

GRID = 6
MOVES = jnp.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]], jnp.int32)


class TimeStep(NamedTuple):
    step_type: jax.Array
    reward: jax.Array
    discount: jax.Array
    observation: jax.Array


class EnvState(NamedTuple):
    agents: jax.Array
    food: jax.Array
    time: jax.Array


def observe(state):
    food = state.food.astype(jnp.float32).ravel()
    return jnp.concatenate([state.agents.astype(jnp.float32).ravel() / GRID, food])


def restart(observation):
    return TimeStep(jnp.asarray(0, jnp.int8), 0.0, 1.0, observation)  # expect: RTL401


def transition(observation, reward, done):
    return TimeStep(jnp.asarray(1, jnp.int8), reward, 1.0 - done.astype(jnp.float32), observation)


class Foraging:
    def __init__(self, num_agents=3, episode_length=20):
        self.num_agents = num_agents
        self.episode_length = episode_length

    def reset(self, key):
        key_a, key_f = jax.random.split(key)
        agents = jax.random.randint(key_a, (self.num_agents, 2), 0, GRID)
        food = jax.random.bernoulli(key_f, 0.3, (GRID, GRID))
        state = EnvState(agents, food, jnp.zeros((), jnp.int32))
        return state, restart(observe(state))

    def step(self, state, actions):
        agents = jnp.clip(state.agents + MOVES[actions], 0, GRID - 1)
        eaten = jnp.zeros((GRID, GRID), bool).at[agents[:, 0], agents[:, 1]].set(True) & state.food
        reward = eaten.sum().astype(jnp.float32)
        state = EnvState(agents, state.food & ~eaten, state.time + 1)
        done = (state.time >= self.episode_length) | ~state.food.any()
        return state, transition(observe(state), reward, done)
