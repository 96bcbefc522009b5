"""A random-walk Metropolis move applied to every particle at once."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("logdensity_fn",))
def rmh_move(keys, positions, logdensity_fn, step_size):
    def one(key, x):
        key_prop, key_accept = jax.random.split(key)
        proposal = x + step_size * jax.random.normal(key_prop, x.shape)
        log_ratio = logdensity_fn(proposal) - logdensity_fn(x)
        accept = jnp.log(jax.random.uniform(key_accept)) < log_ratio
        return jnp.where(accept, proposal, x)

    return jax.vmap(one)(keys, positions)
