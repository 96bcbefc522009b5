"""Joint-space PD controllers for a planar two-link leg, packaged as pytree Partials.

Wrapping the control law in ``jax.tree_util.Partial`` lets the simulator take the
controller as an ordinary (traced) argument of its jitted rollout.
"""

from dataclasses import dataclass

import jax.numpy as jnp
from jax.tree_util import Partial


@dataclass(frozen=True)
class GaitPhase:
    name: str
    kp: tuple[float, float]  # hip, knee stiffness
    kd: tuple[float, float]  # hip, knee damping
    target: tuple[float, float]  # joint setpoint in radians


def pd_torque(gains, target, q, qd):
    kp, kd = gains
    return kp * (target - q) - kd * qd


def make_leg_controller(kp, kd):
    """A controller carrying its gain schedule; the setpoint is bound later."""
    gains = (jnp.asarray(kp, jnp.float32), jnp.asarray(kd, jnp.float32))
    return Partial(pd_torque, gains)


def bind_target(controller, target):
    """Fix the joint setpoint of a controller for one gait phase."""
    return Partial(controller, jnp.asarray(target, jnp.float32))  # expect: RTL403


def controller_for(phase: GaitPhase):
    return bind_target(make_leg_controller(phase.kp, phase.kd), phase.target)
