"""Random-walk Metropolis kernels, built from a log-density by a factory."""

from functools import partial

import jax
import jax.numpy as jnp


def rwm_kernel_factory(logpdf):
    """Return make_kernel(step_size) -> kernel(key, position, logp)."""

    def make_kernel(step_size):
        def kernel(key, position, logp):
            k_move, k_accept = jax.random.split(key)
            proposal = position + step_size * jax.random.normal(k_move, position.shape)
            proposal_logp = logpdf(proposal)
            log_u = jnp.log(jax.random.uniform(k_accept))
            accept = log_u < proposal_logp - logp
            return (
                jnp.where(accept, proposal, position),
                jnp.where(accept, proposal_logp, logp),
                accept,
            )

        return kernel

    return make_kernel


@partial(jax.jit, static_argnums=(1,))
def update_chains(key, kernel_factory, step_size, state):
    positions, logps = state
    keys = jax.random.split(key, positions.shape[0])
    kernel = kernel_factory(step_size)
    new_pos, new_logp, accepted = jax.vmap(kernel)(keys, positions, logps)
    return (new_pos, new_logp), accepted.mean()
