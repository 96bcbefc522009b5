"""A flat prioritised replay buffer: priorities in a flat array, sampling by inverse CDF."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class BufferState(NamedTuple):
    obs: jax.Array
    priorities: jax.Array
    size: jax.Array


def init(capacity, obs_dim):
    return BufferState(jnp.zeros((capacity, obs_dim)), jnp.zeros((capacity,)), jnp.zeros((), jnp.int32))


@jax.jit
def add(state, obs):
    i = state.size % state.priorities.shape[0]
    return BufferState(state.obs.at[i].set(obs), state.priorities.at[i].set(1.0), state.size + 1)


def make_sample(batch_size):
    @jax.jit
    def sample(state, key):
        total = jnp.sum(state.priorities)
        query_values = jax.random.uniform(key, (batch_size, 1)) * total
        cdf = jnp.cumsum(state.priorities)
        indices = jnp.sum(cdf[None, :] < query_values, axis=-1)
        probs = (state.priorities[indices] / total)[:, None]
        return state.obs[indices], probs.squeeze()  # expect: RTL105

    return sample
