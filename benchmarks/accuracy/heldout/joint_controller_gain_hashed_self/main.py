"""Track a sequence of joint set-points, re-tuning the controller gain after each segment."""

import jax
import jax.numpy as jnp
import numpy as np

from controller import ImpedanceController

DT = 0.02
TICKS_PER_SEGMENT = 8


@jax.jit
def arm_step(q, qd, tau, inertia, damping):
    # crude decoupled joint dynamics with the gravity load already compensated
    qdd = (tau - damping * qd - 9.81 * jnp.cos(q)) / inertia
    qd = qd + DT * qdd
    return q + DT * qd, qd


def run_segment(ctrl, q, qd, q_ref, inertia, damping):
    errors = []
    for _ in range(TICKS_PER_SEGMENT):
        tau = ctrl.torque(q, qd, q_ref)  # expect: RTL201
        q, qd = arm_step(q, qd, tau, inertia, damping)
        errors.append(float(jnp.linalg.norm(q_ref - q)))
    return q, qd, float(np.mean(errors))


def adapt_gain(ctrl, tracking_error, target=0.2):
    # stiffen when tracking is poor, soften when it is better than needed
    ratio = tracking_error / target
    return ctrl.retuned(float(np.clip(ctrl.gain_scale * ratio**0.25, 0.5, 4.0)))  # expect: RTL201


if __name__ == "__main__":
    ctrl = ImpedanceController(kp=(40.0, 25.0), kd=(6.0, 4.0), link_masses=(1.2, 0.8),
                               link_lengths=(0.4, 0.3))
    inertia = jnp.array([0.35, 0.12], dtype=jnp.float32)
    damping = jnp.array([0.5, 0.3], dtype=jnp.float32)
    q = jnp.zeros(2, dtype=jnp.float32)
    qd = jnp.zeros(2, dtype=jnp.float32)
    setpoints = [(0.4, -0.2), (0.8, 0.1), (0.6, 0.5), (0.2, 0.3)]
    for i, target in enumerate(setpoints):
        q_ref = jnp.asarray(target, dtype=jnp.float32)
        q, qd, err = run_segment(ctrl, q, qd, q_ref, inertia, damping)
        ctrl = adapt_gain(ctrl, err)
        print(f"segment {i}: mean error {err:.3f} rad, gain scale now {ctrl.gain_scale:.3f}")
