"""State grids and initial conditions for the retirement model."""

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class DiscreteGrid:
    categories: tuple

    def to_jax(self):
        # codes are stored as int32 so they are small on device
        return jnp.arange(len(self.categories), dtype=jnp.int32)

    def code(self, name):
        return self.categories.index(name)


@dataclass(frozen=True)
class LinSpacedGrid:
    start: float
    stop: float
    n_points: int

    def to_jax(self):
        return jnp.linspace(self.start, self.stop, self.n_points)


def build_initial_states(n_subjects, employment_grid, seed=0):
    rng = np.random.default_rng(seed)
    wealth = rng.uniform(1.0, 20.0, size=n_subjects)
    share_employed = 0.8
    employed = np.where(
        rng.uniform(size=n_subjects) < share_employed,
        employment_grid.code("employed"),
        employment_grid.code("unemployed"),
    )
    return {
        "wealth": jnp.asarray(wealth),
        "employment": jnp.asarray(employed),  # expect: RTL402
    }
