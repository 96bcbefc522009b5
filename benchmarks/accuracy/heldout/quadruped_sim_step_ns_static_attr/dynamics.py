"""Planar trunk-and-feet model with penalty contacts (x, z, pitch)."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp

GRAVITY = 9.81


class BodyParams(NamedTuple):
    mass: jnp.ndarray
    inertia: jnp.ndarray
    foot_offsets: jnp.ndarray  # x offsets of the four feet in the trunk frame
    leg_length: jnp.ndarray
    contact_stiffness: jnp.ndarray
    contact_damping: jnp.ndarray


def default_params():
    f32 = jnp.float32
    return BodyParams(
        mass=jnp.asarray(12.0, f32),
        inertia=jnp.asarray(0.4, f32),
        foot_offsets=jnp.asarray([0.25, 0.2, -0.2, -0.25], f32),
        leg_length=jnp.asarray(0.3, f32),
        contact_stiffness=jnp.asarray(2.0e4, f32),
        contact_damping=jnp.asarray(300.0, f32),
    )


@jax.jit
def foot_heights(q, params):
    x, z, pitch = q
    return z - params.leg_length - params.foot_offsets * jnp.sin(pitch)


@partial(jax.jit, static_argnames=("step_size_ns",))
def integrate_step(q, qd, hip_forces, params, step_size_ns):
    dt = step_size_ns * 1e-9
    heights = foot_heights(q, params)
    foot_vz = qd[1] - params.foot_offsets * jnp.cos(q[2]) * qd[2]
    penetration = jnp.maximum(-heights, 0.0)
    normal = params.contact_stiffness * penetration - params.contact_damping * foot_vz
    # the legs can only push while their foot is on the ground
    normal = jnp.where(penetration > 0.0, jnp.maximum(normal + hip_forces, 0.0), 0.0)
    fz = jnp.sum(normal) - params.mass * GRAVITY
    torque = -jnp.sum(normal * params.foot_offsets * jnp.cos(q[2]))
    qdd = jnp.stack([-0.2 * qd[0], fz / params.mass, torque / params.inertia])
    qd_next = qd + dt * qdd  # semi-implicit Euler
    return q + dt * qd_next, qd_next
