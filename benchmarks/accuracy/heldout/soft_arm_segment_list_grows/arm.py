"""Planar piecewise-constant-curvature kinematics for a soft continuum arm."""

import jax
import jax.numpy as jnp


def segment_pose(theta, xy, length, kappa):
    """Advance the backbone frame along one constant-curvature segment."""
    safe_k = jnp.where(jnp.abs(kappa) < 1e-6, 1e-6, kappa)
    dtheta = safe_k * length
    dx = (jnp.sin(theta + dtheta) - jnp.sin(theta)) / safe_k
    dy = (jnp.cos(theta) - jnp.cos(theta + dtheta)) / safe_k
    return theta + dtheta, xy + jnp.stack([dx, dy])


@jax.jit
def tip_error(segments, pressure, target):
    """Distance from the arm tip to a target when every chamber sees `pressure`."""
    theta = jnp.float32(0.0)
    xy = jnp.zeros(2, dtype=jnp.float32)
    for seg in segments:
        kappa = pressure * seg["compliance"] + seg["rest_curvature"]
        theta, xy = segment_pose(theta, xy, seg["length"], kappa)
    return jnp.linalg.norm(xy - target)
