"""A minimal unit-carrying array: the value is a pytree leaf, the unit is static metadata."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Quantity:
    def __init__(self, value, unit):
        self.value = jnp.asarray(value)  # expect: RTL401
        self.unit = unit

    def tree_flatten(self):
        return (self.value,), self.unit

    @classmethod
    def tree_unflatten(cls, unit, children):
        obj = object.__new__(cls)
        obj.value, obj.unit = children[0], unit
        return obj

    def __add__(self, other):
        if other.unit != self.unit:
            raise ValueError(f"cannot add {other.unit} to {self.unit}")
        return Quantity(self.value + other.value, self.unit)

    def scale(self, factor, unit):
        return Quantity(self.value * factor, unit)

    def __repr__(self):
        return f"Quantity({self.value}, {self.unit!r})"
