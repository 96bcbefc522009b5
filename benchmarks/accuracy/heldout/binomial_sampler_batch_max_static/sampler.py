"""A binomial sampler built from uniform draws, one Bernoulli trial per column."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n_max")
def binomial(key, n, p, n_max):
    """Draw Binomial(n, p) for every entry; n_max bounds the number of trials of any entry."""
    u = jax.random.uniform(key, n.shape + (n_max,))
    live = jnp.arange(n_max) < n[..., None]
    return jnp.sum((u < p[..., None]) & live, axis=-1)
