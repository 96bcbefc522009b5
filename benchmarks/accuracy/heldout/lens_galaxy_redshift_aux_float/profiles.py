"""Lens and source galaxy models registered as pytrees.

Free parameters (fitted by the sampler) are children; constants fixed by the
model definition, like a spectroscopic redshift, go into the aux data so they
stay plain Python values inside jit."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class IsothermalGalaxy:
    def __init__(self, einstein_radius, centre, redshift):
        self.einstein_radius = einstein_radius
        self.centre = centre
        self.redshift = redshift

    def tree_flatten(self):
        return (self.einstein_radius, self.centre), (self.redshift,)  # expect: RTL202

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)

    def deflections(self, grid):
        d = grid - self.centre
        r = jnp.sqrt(jnp.sum(d**2, axis=-1, keepdims=True)) + 1e-6
        return self.einstein_radius * d / r


@jax.tree_util.register_pytree_node_class
class SersicSource:
    def __init__(self, intensity, centre, effective_radius):
        self.intensity = intensity
        self.centre = centre
        self.effective_radius = effective_radius

    def tree_flatten(self):
        return (self.intensity, self.centre, self.effective_radius), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def image(self, grid):
        r = jnp.sqrt(jnp.sum((grid - self.centre) ** 2, axis=-1))
        return self.intensity * jnp.exp(-r / self.effective_radius)
