"""A planar serial arm: its kinematic parameters and forward kinematics."""

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np


class FKData(NamedTuple):
    link_lengths: jnp.ndarray  # (n_joints,) metres
    joint_offsets: jnp.ndarray  # (n_joints,) radians at the zero configuration
    base_xy: jnp.ndarray  # (2,) base position in the world frame


class PlanarArm:
    def __init__(self, link_lengths, joint_limits, base_xy=(0.0, 0.0), joint_offsets=None):
        self.link_lengths = np.asarray(link_lengths, dtype=np.float32)
        self.joint_limits = np.asarray(joint_limits, dtype=np.float32)  # (n_joints, 2)
        self.base_xy = np.asarray(base_xy, dtype=np.float32)
        offsets = np.zeros_like(self.link_lengths) if joint_offsets is None else joint_offsets
        self.joint_offsets = np.asarray(offsets, dtype=np.float32)

    def fk_data(self):
        return FKData(
            jnp.asarray(self.link_lengths),
            jnp.asarray(self.joint_offsets),
            jnp.asarray(self.base_xy),
        )


def end_effector(fk, q):
    """World-frame (x, y) of the tool for one joint configuration q."""
    angles = jnp.cumsum(q + fk.joint_offsets)
    x = fk.base_xy[0] + jnp.sum(fk.link_lengths * jnp.cos(angles))
    y = fk.base_xy[1] + jnp.sum(fk.link_lengths * jnp.sin(angles))
    return jnp.stack([x, y])
