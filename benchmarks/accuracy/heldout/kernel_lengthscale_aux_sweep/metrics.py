"""Maximum mean discrepancy between a dataset and its coreset."""

import jax
import jax.numpy as jnp


@jax.jit
def mmd(kernel, x, y):
    return jnp.sqrt(
        jnp.maximum(jnp.mean(kernel(x, x)) + jnp.mean(kernel(y, y)) - 2 * jnp.mean(kernel(x, y)), 0.0)
    )
