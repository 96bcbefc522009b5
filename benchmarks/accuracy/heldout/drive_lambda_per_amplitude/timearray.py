"""Time-dependent operators: a constant matrix times a scalar envelope f(t)."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class ModulatedArray:
    def __init__(self, envelope, array):
        self.envelope = envelope
        self.array = array

    def __call__(self, t):
        return self.envelope(t) * self.array

    def tree_flatten(self):
        return (self.array,), self.envelope

    @classmethod
    def tree_unflatten(cls, envelope, children):
        return cls(envelope, *children)


def modulated(envelope, array):
    return ModulatedArray(envelope, jnp.asarray(array))
