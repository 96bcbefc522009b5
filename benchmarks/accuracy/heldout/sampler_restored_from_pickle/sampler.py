"""A random-walk Metropolis sampler whose jitted step reads its settings from self."""

from functools import partial

import jax
import jax.numpy as jnp


def log_density(x):
    return -0.5 * jnp.sum(x**2) - 0.1 * jnp.sum(x**4)


class RandomWalkSampler:
    def __init__(self, step_size=0.5):
        self.step_size = step_size

    @partial(jax.jit, static_argnums=0)
    def step(self, x, key):
        key_prop, key_accept = jax.random.split(key)
        proposal = x + self.step_size * jax.random.normal(key_prop, x.shape)
        log_ratio = log_density(proposal) - log_density(x)
        accept = jnp.log(jax.random.uniform(key_accept)) < log_ratio
        return jnp.where(accept, proposal, x)
