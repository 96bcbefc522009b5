"""A random-walk Metropolis kernel that carries its own typed PRNG key."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class ChainState(NamedTuple):
    position: jax.Array
    logdensity: jax.Array


def logdensity(x):
    return -0.5 * jnp.sum(x ** 2) - jnp.sum(jnp.log1p(jnp.exp(-4.0 * x)))


def init(position):
    return ChainState(position, logdensity(position))


@jax.jit
def rwm_step(key, state, step_size):
    key, k_prop, k_acc = jax.random.split(key, 3)
    proposal = state.position + step_size * jax.random.normal(k_prop, state.position.shape)
    new_ld = logdensity(proposal)
    accept = jnp.log(jax.random.uniform(k_acc)) < new_ld - state.logdensity
    new_state = ChainState(jnp.where(accept, proposal, state.position),
                           jnp.where(accept, new_ld, state.logdensity))
    return key, new_state, accept
