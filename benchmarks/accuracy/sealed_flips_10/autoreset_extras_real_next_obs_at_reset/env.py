"""A 1-D reaching environment with an auto-reset wrapper in the style of functional RL envs."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    pos: jax.Array
    t: jax.Array


class TimeStep(NamedTuple):
    observation: jax.Array
    reward: jax.Array
    discount: jax.Array
    extras: dict


def _obs(state):
    return jnp.stack([state.pos, state.t / 10.0])


class Reacher:
    def reset(self, key):
        state = State(jax.random.uniform(key, (), minval=-1.0, maxval=1.0), jnp.zeros((), jnp.float32))
        return state, TimeStep(_obs(state), jnp.zeros(()), jnp.ones(()), extras={})

    def step(self, state, action):
        new = State(state.pos + 0.1 * action, state.t + 1.0)
        done = (jnp.abs(new.pos) < 0.05) | (new.t >= 10.0)
        return new, TimeStep(_obs(new), -jnp.abs(new.pos), 1.0 - done.astype(jnp.float32), extras={})


class AutoReset:
    def __init__(self, env):
        self.env = env

    def reset(self, key):
        state, ts = self.env.reset(key)
        # The same extras keys as step's, so that timesteps keep one structure.
        return state, ts._replace(extras=dict(ts.extras, real_next_obs=ts.observation))

    def step(self, state, action):
        new_state, ts = self.env.step(state, action)
        reset_state, reset_ts = self.env.reset(jax.random.PRNGKey(0))
        done = ts.discount == 0.0
        pick = lambda a, b: jnp.where(done, a, b)  # noqa: E731
        state = jax.tree_util.tree_map(pick, reset_state, new_state)
        # Keep the terminal observation: the value target needs it on truncation.
        extras = dict(ts.extras, real_next_obs=ts.observation)
        return state, ts._replace(observation=pick(reset_ts.observation, ts.observation), extras=extras)
