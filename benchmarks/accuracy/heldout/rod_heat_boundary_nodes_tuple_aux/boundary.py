"""Dirichlet boundary conditions for a 1-D finite-difference heat solver, registered as a pytree."""

import jax.numpy as jnp
import numpy as np
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class DirichletBC:
    """Fixed temperatures at a set of grid nodes.

    The node indices decide which entries of the grid are overwritten, so they are
    kept as static auxiliary data; the prescribed temperatures are leaves.
    """

    def __init__(self, nodes, values):
        self.nodes = nodes
        self.values = values

    @classmethod
    def from_mask(cls, clamped, values):
        # aux data must be hashable and compare by value: a numpy index array would be
        # neither, so the indices are stored as a plain tuple of ints
        nodes = tuple(int(i) for i in np.flatnonzero(clamped))
        return cls(nodes, jnp.asarray(values, jnp.float32))

    def apply(self, u):
        return u.at[jnp.array(self.nodes)].set(self.values)

    def tree_flatten(self):
        return (self.values,), (self.nodes,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (nodes,) = aux_data
        (values,) = children
        return cls(nodes, values)
