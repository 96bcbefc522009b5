"""A small gas-phase chemistry box model (Chapman-like ozone cycle)."""

from typing import NamedTuple

import jax.numpy as jnp


class RateConstants(NamedTuple):
    j_o2: float = 3e-3      # O2 + hv -> 2 O
    k_o_o2: float = 6e-2    # O + O2 -> O3
    j_o3: float = 5e-2      # O3 + hv -> O2 + O
    k_o_o3: float = 8e-3    # O + O3 -> 2 O2


SPECIES = ("O", "O2", "O3")


def tendencies(conc, k: RateConstants):
    o, o2, o3 = conc[0], conc[1], conc[2]
    r1 = k.j_o2 * o2
    r2 = k.k_o_o2 * o * o2
    r3 = k.j_o3 * o3
    r4 = k.k_o_o3 * o * o3
    return jnp.stack([
        2 * r1 - r2 + r3 - r4,
        -r1 - r2 + r3 + 2 * r4,
        r2 - r3 - r4,
    ])


def ozone_production(conc, k: RateConstants):
    """Diagnostics a forecaster cares about: gross O3 production and loss."""
    o, o2, o3 = conc[0], conc[1], conc[2]
    return jnp.stack([k.k_o_o2 * o * o2, k.j_o3 * o3 + k.k_o_o3 * o * o3])
