"""One explicit step of a single global reaction CH4 + 2 O2 -> CO2 + 2 H2O."""

import jax
import jax.numpy as jnp

from species import SPECIES

STOICHIOMETRY = jnp.array([-1.0, 1.0, 2.0, -2.0])  # in SPECIES order


@jax.jit
def react(mixture, rate_constant, dt):
    """Advance the mole fractions by dt; species are read in sorted-name order."""
    x = jnp.stack([mixture[name] for name in sorted(mixture)])
    rate = rate_constant * x[0] * x[3] ** 2
    x = jnp.clip(x + dt * rate * STOICHIOMETRY, 0.0, None)
    return dict(zip(SPECIES, x / jnp.sum(x)))
