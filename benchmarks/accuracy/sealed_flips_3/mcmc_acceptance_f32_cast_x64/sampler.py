"""A batched Gaussian random-walk Metropolis sampler that keeps per-chain acceptance statistics."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class ChainState(NamedTuple):
    positions: jax.Array
    log_prob: jax.Array
    acceptance: jax.Array


def init_chains(logpdf, positions):
    n_chains = positions.shape[0]
    return ChainState(positions, jax.vmap(logpdf)(positions), jnp.zeros(n_chains))


def take_step(logpdf, step_size, key, state):
    key_prop, key_accept = jax.random.split(key)
    noise = jax.random.normal(key_prop, state.positions.shape, dtype=state.positions.dtype)
    proposal = state.positions + step_size * noise
    proposal_log_prob = jax.vmap(logpdf)(proposal)
    log_u = jnp.log(jax.random.uniform(key_accept, state.log_prob.shape, dtype=state.log_prob.dtype))
    do_accept = log_u < proposal_log_prob - state.log_prob
    positions = jnp.where(do_accept[:, None], proposal, state.positions)
    log_prob = jnp.where(do_accept, proposal_log_prob, state.log_prob)
    acceptance = do_accept.astype(jnp.float32)  # expect: RTL402
    return ChainState(positions, log_prob, acceptance)
