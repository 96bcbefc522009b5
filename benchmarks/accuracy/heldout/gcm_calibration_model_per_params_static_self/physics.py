"""Column physics for a toy two-layer atmosphere: relaxation and vertical diffusion."""

from dataclasses import dataclass

import jax.numpy as jnp


@dataclass
class DiffusionParams:
    trvdi: float = 24.0      # vertical-diffusion timescale [h]
    trelax: float = 240.0    # Newtonian relaxation timescale [h]


class ColumnPhysics:
    def __init__(self, params: DiffusionParams, t_eq):
        self.params = params
        self.t_eq = t_eq

    def tendencies(self, temp):
        p = self.params
        relax = (self.t_eq - temp) / p.trelax
        mix = (temp[::-1] - temp) / p.trvdi
        return relax + mix


def default_equilibrium(n_lat):
    lat = jnp.linspace(-1.2, 1.2, n_lat)
    upper = 250.0 - 20.0 * jnp.sin(lat) ** 2
    lower = 300.0 - 40.0 * jnp.sin(lat) ** 2
    return jnp.stack([upper, lower])
