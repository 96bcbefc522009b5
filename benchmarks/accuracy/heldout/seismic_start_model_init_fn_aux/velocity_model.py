"""1-D layered velocity model used for reflection travel-time inversion."""

import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


def linear_gradient(depths):
    return 1.6 + 0.55 * depths


def constant_velocity(depths):
    return jnp.full_like(depths, 2.4)


def smoothed_step(depths):
    return 1.8 + 1.2 / (1.0 + jnp.exp(-(depths - 2.0) / 0.4))


@register_pytree_node_class
class LayeredVelocityModel:
    """Interval velocities (km/s) of layers of thickness dz (km)."""

    def __init__(self, velocities, dz, init_fn):
        self.velocities = velocities
        self.dz = dz
        self.init_fn = init_fn  # kept so the model can be reset / reported

    @classmethod
    def from_profile(cls, init_fn, n_layers=16, dz=0.25):
        depths = (jnp.arange(n_layers, dtype=jnp.float32) + 0.5) * dz
        return cls(init_fn(depths), dz, init_fn)

    def updated(self, velocities):
        return LayeredVelocityModel(velocities, self.dz, self.init_fn)

    def reset(self):
        return LayeredVelocityModel.from_profile(self.init_fn, self.velocities.shape[0], self.dz)

    def tree_flatten(self):
        return (self.velocities,), (self.dz, self.init_fn)  # expect: RTL201

    @classmethod
    def tree_unflatten(cls, aux, children):
        dz, init_fn = aux
        (velocities,) = children
        return cls(velocities, dz, init_fn)
