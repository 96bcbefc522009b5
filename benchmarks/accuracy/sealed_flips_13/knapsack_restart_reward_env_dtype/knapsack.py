"""A knapsack environment whose rewards are kept in half precision to save memory in large batches."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

from timesteps import restart, transition


class State(NamedTuple):
    weights: jax.Array
    values: jax.Array
    packed: jax.Array
    remaining: jax.Array
    key: jax.Array


class Knapsack:
    def __init__(self, num_items=8, capacity=2.0, reward_dtype=jnp.float16):
        self.num_items = num_items
        self.capacity = capacity
        self.reward_dtype = reward_dtype

    def _observation(self, state):
        return jnp.stack([state.weights, state.values, state.packed.astype(jnp.float32)], axis=-1)

    def reset(self, key):
        key, w_key, v_key = jax.random.split(key, 3)
        weights = jax.random.uniform(w_key, (self.num_items,), minval=0.1, maxval=0.6)
        values = jax.random.uniform(v_key, (self.num_items,))
        state = State(weights, values, jnp.zeros(self.num_items, bool), jnp.float32(self.capacity), key)
        return state, restart(self._observation(state), dtype=self.reward_dtype)

    def step(self, state, action):
        fits = (~state.packed[action]) & (state.weights[action] <= state.remaining)
        packed = state.packed.at[action].set(state.packed[action] | fits)
        remaining = state.remaining - jnp.where(fits, state.weights[action], 0.0)
        state = state._replace(packed=packed, remaining=remaining)
        reward = jnp.where(fits, state.values[action], 0.0).astype(self.reward_dtype)
        return state, transition(reward, self._observation(state))
