"""A state-update rule packaged as a pytree: an array leaf plus a size kept as metadata."""

import jax.numpy as jnp
from jax import tree_util


class ConfigBox:
    def __init__(self, vec, scale):
        self.vec = vec
        self.scale = scale

    def step_fn(self, state, inp):
        return (self.vec + state + jnp.ones(self.scale)) * inp

    def _tree_flatten(self):
        return (self.vec,), {"scale": self.scale}

    @classmethod
    def _tree_unflatten(cls, meta, leaves):
        return cls(*leaves, **meta)


tree_util.register_pytree_node(ConfigBox, ConfigBox._tree_flatten, ConfigBox._tree_unflatten)
