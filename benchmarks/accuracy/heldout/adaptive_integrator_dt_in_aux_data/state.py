"""Integrator state for the predator-prey model, registered as a pytree."""
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class SolverState:
    def __init__(self, y, t, dt, rtol=1e-3):
        self.y = y
        self.t = t
        self.dt = dt
        self.rtol = rtol

    def tree_flatten(self):
        children = (self.y, self.t)
        aux = (self.dt, self.rtol)  # expect: RTL202
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        y, t = children
        dt, rtol = aux
        return cls(y, t, dt, rtol)

    def with_step(self, y, t, dt):
        return SolverState(y, t, dt, self.rtol)
