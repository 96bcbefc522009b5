"""A minimal module system: a Param wraps an array (a pytree node with one child, like a framework's
parameter class) and modules hand out their parameters either wrapped or as plain arrays."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Param:
    def __init__(self, value):
        self.value = value

    def tree_flatten(self):
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def unwrap(x):
    return x.value if isinstance(x, Param) else x


class Linear:
    def __init__(self, features, units, key):
        self.weight = Param(jax.random.normal(key, (features, units)) / features**0.5)
        self.bias = Param(jnp.zeros((units,)))


class LinearProbe:
    """A linear read-out trained on frozen features."""

    def __init__(self, features, classes, key):
        self.head = Linear(features, classes, key)

    def parameters(self):
        return {"weight": self.head.weight, "bias": self.head.bias}

    def state_dict(self):
        return {name: unwrap(p) for name, p in self.parameters().items()}


def logits(weights, x):
    return x @ unwrap(weights["weight"]) + unwrap(weights["bias"])
