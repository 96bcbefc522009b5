"""Metropolis sampling whose state counters start as int32 zeros, as the jitted sweep returns them."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class SamplerState:
    key: jax.Array
    position: jax.Array
    n_accepted: jax.Array


jax.tree_util.register_dataclass(
    SamplerState, data_fields=["key", "position", "n_accepted"], meta_fields=[]
)


def init_state(seed, dim):
    return SamplerState(jax.random.PRNGKey(seed), jnp.zeros(dim), jnp.zeros((), jnp.int32))


@jax.jit
def sweep(state, step_size):
    key, k_move, k_accept = jax.random.split(state.key, 3)
    proposal = state.position + step_size * jax.random.normal(k_move, state.position.shape)
    log_ratio = 0.5 * (jnp.sum(state.position**2) - jnp.sum(proposal**2))
    accept = jnp.log(jax.random.uniform(k_accept)) < log_ratio
    position = jnp.where(accept, proposal, state.position)
    return SamplerState(key, position, state.n_accepted + accept.astype(jnp.int32))


def sample(n_sweeps, step_size=0.5):
    state = init_state(0, 2)
    for _ in range(n_sweeps):
        state = sweep(state, step_size)
    return state.n_accepted / n_sweeps


if __name__ == "__main__":
    print(sample(10))
