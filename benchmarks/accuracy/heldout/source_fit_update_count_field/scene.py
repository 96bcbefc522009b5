"""Sources of an astronomical scene as pytrees: arrays are parameters, everything else is static."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["flux", "center"], meta_fields=["n_updates"])
@dataclasses.dataclass(frozen=True)
class PointSource:
    flux: jax.Array
    center: jax.Array
    n_updates: int = 0

    def render(self, grid, psf_width=1.5):
        r2 = ((grid - self.center) ** 2).sum(axis=-1)
        return self.flux * jnp.exp(-0.5 * r2 / psf_width**2)
