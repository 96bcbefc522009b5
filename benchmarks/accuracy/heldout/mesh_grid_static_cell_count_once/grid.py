"""Aquifer grid as a pytree: arrays are leaves, sizes derived once are static."""

import dataclasses
from dataclasses import dataclass, field

import jax
import numpy as np


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class AquiferGrid:
    conductivity: jax.Array
    mask: jax.Array
    n_active: int = field(metadata={"static": True})
    spacing: float = field(metadata={"static": True})

    @classmethod
    def from_mask(cls, mask, conductivity, spacing):
        # Derived static size, computed once from the concrete mask (never
        # inside jit, where the mask would be a tracer).
        n_active = int(np.asarray(mask).sum())
        return cls(conductivity=conductivity, mask=mask, n_active=n_active, spacing=spacing)

    def with_conductivity(self, conductivity):
        return dataclasses.replace(self, conductivity=conductivity)
