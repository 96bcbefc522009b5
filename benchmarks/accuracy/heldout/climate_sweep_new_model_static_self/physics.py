"""Column physics terms: radiative relaxation and vertical diffusion with a timescale."""

import dataclasses

import jax.numpy as jnp


@dataclasses.dataclass
class VerticalDiffusion:
    timescale: float = 24.0  # hours

    def tendency(self, temp):
        lap = jnp.roll(temp, 1, axis=-1) - 2 * temp + jnp.roll(temp, -1, axis=-1)
        return lap / self.timescale


@dataclasses.dataclass
class Relaxation:
    equilibrium: float = 250.0
    timescale: float = 240.0

    def tendency(self, temp):
        return (self.equilibrium - temp) / self.timescale
