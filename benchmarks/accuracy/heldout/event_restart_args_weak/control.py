"""What the operator changes at each event: a slower decay and a lower next threshold."""

import jax
import jax.numpy as jnp


@jax.jit
def modify_args(y, args):
    rate, threshold = args
    return rate * 0.8, threshold * 0.5 + 0.01 * jnp.sum(y)
