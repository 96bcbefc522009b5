"""Collision geometry for the planar arm: obstacles are discs (spheres in the plane)."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Sphere:
    center: jax.Array  # (2,) position in the workspace, metres
    radius: jax.Array  # () radius, metres

    @classmethod
    def from_detection(cls, xy, radius):
        return cls(jnp.asarray(xy, dtype=jnp.float32), jnp.asarray(radius, dtype=jnp.float32))


def signed_distance(points, sphere):
    """Distance of each point to the sphere's surface (negative inside)."""
    return jnp.linalg.norm(points - sphere.center, axis=-1) - sphere.radius


def world_collision_cost(points, world, margin=0.05):
    """Hinge penalty for every sampled arm point closer than `margin` to any obstacle."""
    total = 0.0
    for sphere in world:
        penetration = jnp.maximum(margin - signed_distance(points, sphere), 0.0)
        total = total + jnp.sum(penetration**2)
    return total
