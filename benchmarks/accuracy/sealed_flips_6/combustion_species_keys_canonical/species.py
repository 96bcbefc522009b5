"""Species of a toy methane-combustion mechanism and the reader of initial mole fractions."""

import jax.numpy as jnp

SPECIES = ("CH4", "CO2", "H2O", "O2")  # canonical formula spelling, in sorted order


def read_initial_mixture(text):
    """Parse 'name = fraction' lines from a case file into a dict of float32 arrays."""
    mixture = {}
    for line in text.strip().splitlines():
        name, value = (part.strip() for part in line.split("="))
        mixture[name.upper()] = jnp.float32(float(value))
    return mixture
