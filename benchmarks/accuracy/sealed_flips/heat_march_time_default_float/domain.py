"""A 1-D rod: grid, initial temperature and the clock of the simulation."""

from dataclasses import dataclass, field

import jax.numpy as jnp
import numpy as np


@dataclass
class Rod:
    n: int = 32
    dt: float = 1e-4
    base_time: jnp.ndarray = field(default_factory=lambda: jnp.zeros((), jnp.result_type(float)))  # the default float, as the data

    def grid(self):
        return jnp.asarray(np.linspace(0.0, 1.0, self.n))  # float64 under x64

    def initial_temperature(self):
        x = self.grid()
        return jnp.sin(np.pi * x)
