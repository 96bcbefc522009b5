"""Kernels as pytrees: the output scale is a leaf, the length scale is kept in the aux data."""

import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class SquaredExponential:
    def __init__(self, length_scale, output_scale):
        self.length_scale = length_scale
        self.output_scale = output_scale

    def __call__(self, x, y):
        d2 = jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)
        return self.output_scale * jnp.exp(-0.5 * d2 / self.length_scale**2)

    def tree_flatten(self):
        return (self.output_scale,), (self.length_scale,)  # expect: RTL202

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(aux[0], children[0])
