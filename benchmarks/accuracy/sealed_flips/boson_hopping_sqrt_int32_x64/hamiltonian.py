"""Hopping matrix elements of a Bose-Hubbard chain, from integer occupations."""

import jax
import jax.numpy as jnp


class BoseHubbardChain:
    def __init__(self, sites, hopping):
        self.sites = sites
        self.hopping = hopping

    def occupations(self, key):
        return jax.random.randint(key, (self.sites,), 0, 3, dtype=jnp.int32)


@jax.jit
def hop_elements(occupations, previous, hopping):
    """The matrix elements of the hops j -> j+1, and how far they moved since the last sample."""
    # bosonic ladder factors sqrt(n_j (n_{j+1} + 1))
    mels = hopping * jnp.sqrt(occupations * (jnp.roll(occupations, -1) + 1))
    return mels, jnp.max(jnp.abs(mels - previous))
