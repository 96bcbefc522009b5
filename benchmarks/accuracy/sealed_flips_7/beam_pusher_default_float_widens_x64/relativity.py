"""Small special-relativity helpers that accept ints, lists or arrays."""

import jax.numpy as jnp

C = 299_792_458.0


def _float(x):
    """Promote integer input to floating point so that 1 - beta**2 is not integer arithmetic."""
    return jnp.asarray(x, dtype=float)  # expect: RTL402


def lorentz_factor(beta):
    beta = _float(beta)
    return 1.0 / jnp.sqrt(1.0 - jnp.sum(beta**2, axis=-1, keepdims=True))


def beta_from_momentum(p_over_mc):
    p = _float(p_over_mc)
    return p / jnp.sqrt(1.0 + jnp.sum(p**2, axis=-1, keepdims=True))
