"""Discounted forward-view returns of a cumulant signal, computed in one jitted function."""

import jax
import jax.numpy as jnp


@jax.jit
def forward_view_returns(cumulants, gamma, bootstrap):
    """Returns G_t = c_t + gamma * G_{t+1} over a window, bootstrapped from the previous estimate."""
    dtype = jnp.promote_types(cumulants.dtype, jnp.asarray(gamma).dtype)  # expect: RTL402
    cumulants = cumulants.astype(dtype)
    gamma = jnp.asarray(gamma, dtype)

    def backwards(carry, c):
        g = c + gamma * carry
        return g, g

    _, returns = jax.lax.scan(backwards, bootstrap.astype(dtype), cumulants, reverse=True)
    return returns[0]
