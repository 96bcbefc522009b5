"""Grasp quality scoring for a multi-fingered hand."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class GraspConfig:
    contact_points: jax.Array  # (n_fingers, 3), in the object frame
    contact_normals: jax.Array  # (n_fingers, 3), pointing into the object
    finger_names: tuple = jax.tree.static()  # static: must be hashable, so a tuple, not a list
    friction_cone_edges: int = jax.tree.static(default=6)


@jax.jit
def grasp_quality(config, mu):
    """Smallest singular value of the grasp matrix built from linearised friction cones."""
    n_edges = config.friction_cone_edges
    angles = jnp.linspace(0.0, 2 * jnp.pi, n_edges, endpoint=False)
    normals = config.contact_normals / jnp.linalg.norm(config.contact_normals, axis=1, keepdims=True)
    helper = jnp.where(jnp.abs(normals[:, :1]) < 0.9, jnp.array([1.0, 0.0, 0.0]), jnp.array([0.0, 1.0, 0.0]))
    t1 = jnp.cross(normals, helper)
    t1 = t1 / jnp.linalg.norm(t1, axis=1, keepdims=True)
    t2 = jnp.cross(normals, t1)
    edges = normals[:, None, :] + mu * (
        jnp.cos(angles)[None, :, None] * t1[:, None, :] + jnp.sin(angles)[None, :, None] * t2[:, None, :]
    )
    torques = jnp.cross(config.contact_points[:, None, :], edges)
    wrenches = jnp.concatenate([edges, torques], axis=-1).reshape(-1, 6)
    return jnp.linalg.svd(wrenches.T, compute_uv=False)[-1]


def make_config(fingers, points, normals):
    """Build the config from the hand description (the names arrive as a list)."""
    return GraspConfig(
        contact_points=jnp.asarray(points, dtype=jnp.float32),
        contact_normals=jnp.asarray(normals, dtype=jnp.float32),
        finger_names=tuple(fingers),
    )
