"""Metropolis sampling of a 1-D Gaussian; the sampler state counts accepted moves."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class SamplerState:
    key: jax.Array
    position: jax.Array
    n_accepted: int = 0  # expect: RTL401


jax.tree_util.register_dataclass(
    SamplerState, data_fields=["key", "position", "n_accepted"], meta_fields=[]
)


def log_prob(x):
    return -0.5 * jnp.sum(x**2)


@jax.jit
def sweep(state, step_size):
    key, k_move, k_accept = jax.random.split(state.key, 3)
    proposal = state.position + step_size * jax.random.normal(k_move, state.position.shape)
    accept = jnp.log(jax.random.uniform(k_accept)) < log_prob(proposal) - log_prob(state.position)
    position = jnp.where(accept, proposal, state.position)
    return SamplerState(key, position, state.n_accepted + accept.astype(jnp.int32))


def sample(n_sweeps, step_size=0.5):
    state = SamplerState(jax.random.PRNGKey(0), jnp.zeros(2))
    for _ in range(n_sweeps):
        state = sweep(state, step_size)
    return state.n_accepted / n_sweeps


if __name__ == "__main__":
    print(sample(10))
