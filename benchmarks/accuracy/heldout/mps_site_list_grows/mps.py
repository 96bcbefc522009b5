"""A matrix product state grown one site at a time, as in infinite-system DMRG warm-up."""

import jax
import jax.numpy as jnp
from contract import local_magnetization, norm_squared

BOND = 2


class MatrixProductState:
    def __init__(self):
        self.sites = []

    def grow(self, key):
        left = 1 if not self.sites else BOND
        tensor = jax.random.normal(key, (left, 2, BOND))
        if self.sites:
            self.sites[-1] = self.sites[-1] / jnp.linalg.norm(self.sites[-1])
        self.sites.append(tensor)  # expect: RTL102, RTL403

    def expectation(self, operator):
        return local_magnetization(self.sites, operator) / norm_squared(self.sites)
