"""Kinematics of a serial manipulator: forward kinematics and per-link Jacobians."""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class ArmSpec:
    link_names: tuple
    joint_axes: tuple  # 0 = x, 1 = y, 2 = z, in the parent frame
    link_lengths: tuple


def arm_parameters(spec):
    """Arrays the kinematics functions work on."""
    return {
        "axes": jnp.asarray(np.eye(3)[list(spec.joint_axes)], dtype=jnp.float32),
        "offsets": jnp.asarray(
            [[0.0, 0.0, length] for length in spec.link_lengths], dtype=jnp.float32
        ),
    }


def _axis_angle(axis, angle):
    k = jnp.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]], [-axis[1], axis[0], 0.0]])
    return jnp.eye(3) + jnp.sin(angle) * k + (1.0 - jnp.cos(angle)) * (k @ k)


def link_frames(params, q):
    """World rotation, joint origin and link tip of every link."""
    rot, origin = jnp.eye(3), jnp.zeros(3)
    rots, origins, tips = [], [], []
    for j in range(q.shape[0]):
        rot = rot @ _axis_angle(params["axes"][j], q[j])
        rots.append(rot)
        origins.append(origin)
        origin = origin + rot @ params["offsets"][j]
        tips.append(origin)
    return jnp.stack(rots), jnp.stack(origins), jnp.stack(tips)


@partial(jax.jit, static_argnames=("body_index",))
def link_jacobian(params, q, body_index):
    """6 x n geometric Jacobian of the tip of link `body_index`.

    Only the joints that support the link contribute, so the chain walked here is
    body_index + 1 joints long and the remaining columns are zero.
    """
    rots, origins, tips = link_frames(params, q)
    tip = tips[body_index]
    columns = []
    for j in range(body_index + 1):
        z = rots[j] @ params["axes"][j]
        columns.append(jnp.concatenate([jnp.cross(z, tip - origins[j]), z]))
    support = jnp.stack(columns, axis=1)
    unused = jnp.zeros((6, q.shape[0] - body_index - 1))
    return jnp.concatenate([support, unused], axis=1)
