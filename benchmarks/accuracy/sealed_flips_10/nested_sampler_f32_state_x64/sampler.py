"""A toy nested sampler: replace the worst live point by a constrained random-walk proposal."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SamplerState(NamedTuple):
    key: jax.Array
    live_points: jax.Array
    log_L: jax.Array
    log_Z: jax.Array


def init_state(key, log_likelihood, num_live, ndim):
    key, sub = jax.random.split(key)
    points = jax.random.uniform(sub, (num_live, ndim), dtype=jnp.float32)
    # Samples are stored in single precision to halve the memory of large runs.
    log_L = jax.vmap(log_likelihood)(points).astype(jnp.float32)  # expect: RTL402
    return SamplerState(key, points, log_L, jnp.full((), -jnp.inf, jnp.float32))  # expect: RTL402


def make_step(log_likelihood):
    def step(state):
        worst = jnp.argmin(state.log_L)
        key, k1 = jax.random.split(state.key)
        start = state.live_points[jax.random.randint(k1, (), 0, state.live_points.shape[0])]
        proposal = jnp.clip(start + 0.1 * jax.random.normal(k1, start.shape), 0.0, 1.0)
        new_log_L = log_likelihood(proposal)
        accept = new_log_L > state.log_L[worst]
        live = state.live_points.at[worst].set(jnp.where(accept, proposal, state.live_points[worst]))
        replace = accept & (jnp.arange(state.log_L.shape[0]) == worst)
        log_L = jnp.where(replace, new_log_L, state.log_L)
        log_Z = jnp.logaddexp(state.log_Z, state.log_L[worst] - jnp.log(live.shape[0]))
        return SamplerState(key, live, log_L, log_Z)

    return step
