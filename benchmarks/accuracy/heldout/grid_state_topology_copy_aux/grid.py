"""DC power-flow state of a small transmission grid, registered as a pytree."""

import copy

import jax
import jax.numpy as jnp


class Topology:
    """Buses and lines (from, to, susceptance); kept out of the traced leaves."""

    def __init__(self, n_bus, lines):
        self.n_bus = n_bus
        self.lines = list(lines)

    def susceptance_matrix(self):
        b = [[0.0] * self.n_bus for _ in range(self.n_bus)]
        for i, j, s in self.lines:
            b[i][i] += s
            b[j][j] += s
            b[i][j] -= s
            b[j][i] -= s
        return jnp.array(b, jnp.float32)


@jax.tree_util.register_pytree_node_class
class GridState:
    def __init__(self, angles, injections, topology):
        self.angles = angles
        self.injections = injections
        self.topology = topology

    def tree_flatten(self):
        return (self.angles, self.injections), self.topology

    @classmethod
    def tree_unflatten(cls, topology, children):
        return cls(*children, topology)

    def with_injections(self, injections):
        # states must never share a mutable topology, so each one gets its own copy
        topology = copy.deepcopy(self.topology)  # expect: RTL403
        return GridState(self.angles, injections, topology)
