"""Spin up a mountain glacier under a warming mass-balance scenario."""

import jax.numpy as jnp
import numpy as np

from flowline import Grid, advance, stable_substeps


class GlacierModel:
    def __init__(self, grid, ela=3300.0, gradient=0.007):
        self.grid = grid
        x = np.arange(grid.n) * grid.dx
        self.bed = jnp.asarray(3400.0 - 0.08 * x, dtype=jnp.float32)
        self.h = jnp.asarray(220.0 * np.sqrt(np.clip(1 - x / 9_000, 0.0, None)),
                             dtype=jnp.float32)
        self.ela = ela
        self.gradient = gradient

    def mass_balance(self):
        surface = self.h + self.bed
        return jnp.clip(self.gradient * (surface - self.ela), -4.0, 2.0)

    def step(self, dt_out):
        n_sub = stable_substeps(self.h, self.bed, self.grid.dx, dt_out)
        smb = self.mass_balance()
        self.h = advance(self.h, self.bed, smb, dt_out / n_sub, self.grid.dx, n_sub=n_sub)  # expect: RTL201
        return n_sub

    def cross_section_km2(self):
        return float(self.h.sum()) * self.grid.dx / 1e6


def run_scenario(model, n_outputs=5, dt_out=2.0, warming_per_year=20.0):
    for k in range(n_outputs):
        n_sub = model.step(dt_out)
        model.ela += warming_per_year * dt_out
        year = (k + 1) * dt_out
        print(f"year {year:4.0f}: {n_sub:3d} sub-steps, cross-section {model.cross_section_km2():.3f} km^2")


if __name__ == "__main__":
    run_scenario(GlacierModel(Grid()))
