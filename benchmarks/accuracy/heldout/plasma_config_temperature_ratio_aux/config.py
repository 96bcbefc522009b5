"""Static configuration of a 1D electrostatic particle-in-cell run."""

import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class PlasmaConfig:
    def __init__(self, grid, n_cells, dt, n_steps, temperature_ratio, mass_ratio=1836.0):
        self.grid = grid  # cell centres, in Debye lengths
        self.n_cells = n_cells
        self.dt = dt  # in inverse plasma frequencies
        self.n_steps = n_steps
        self.temperature_ratio = temperature_ratio  # T_i / T_e
        self.mass_ratio = mass_ratio

    @property
    def box_length(self):
        return self.grid[1] - self.grid[0] + self.grid[-1] - self.grid[0]

    def with_temperature_ratio(self, ratio):
        return PlasmaConfig(self.grid, self.n_cells, self.dt, self.n_steps, ratio, self.mass_ratio)

    def tree_flatten(self):
        # everything but the grid is configuration, known when the run is set up
        aux = (self.n_cells, self.dt, self.n_steps, self.temperature_ratio, self.mass_ratio)  # expect: RTL202
        return (self.grid,), aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0], *aux)


def make_config(box_length=32.0, n_cells=64, dt=0.1, n_steps=20, temperature_ratio=1.0):
    dx = box_length / n_cells
    grid = jnp.arange(n_cells, dtype=jnp.float32) * dx + 0.5 * dx
    return PlasmaConfig(grid, n_cells, dt, n_steps, temperature_ratio)
