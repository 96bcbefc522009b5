"""Boris push of a particle bunch through a uniform magnetic field, in normalised units."""

import jax
import jax.numpy as jnp

from relativity import beta_from_momentum, lorentz_factor


@jax.jit
def boris_push(x, p, b_field, dt):
    """Advance positions x and normalised momenta p = gamma*beta by one step."""
    gamma = lorentz_factor(beta_from_momentum(p))
    t = b_field * dt / (2 * gamma)
    s = 2 * t / (1 + jnp.sum(t**2, axis=-1, keepdims=True))
    p_prime = p + jnp.cross(p, t)
    p_new = p + jnp.cross(p_prime, s)
    return x + dt * p_new / lorentz_factor(beta_from_momentum(p_new)), p_new
