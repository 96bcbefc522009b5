"""Stopping criteria for pre-equilibration, as callable settings objects."""

from dataclasses import dataclass

import jax.numpy as jnp


@dataclass(frozen=True)
class SteadyStateEvent:
    rtol: float = 1e-4
    atol: float = 1e-6

    def __call__(self, dydt, y):
        return jnp.linalg.norm(dydt) <= self.atol + self.rtol * jnp.linalg.norm(y)
