"""A ring of classical Ising spins sampled in batches, and the bond energy summed one bond at a time."""

import jax
import jax.numpy as jnp
import numpy as np

COUPLING = 1.0


def sample_chains(n_chains, n_sites, up_fraction, seed):
    """Random +-1 spin configurations, one row per chain, as float32 for the energy arithmetic."""
    rng = np.random.default_rng(seed)
    up = rng.random((n_chains, n_sites)) < up_fraction
    return jnp.asarray(np.where(up, 1.0, -1.0).astype(np.float32))


@jax.jit
def add_bond(energy, spins, site):
    """Energy after adding the bond between `site` and its right neighbour, averaged over chains."""
    left = spins[:, site]
    right = jnp.take(spins, (site + 1) % spins.shape[1], axis=1)
    return energy - COUPLING * jnp.mean(left * right)
