"""Gimbal stabilisation loop: a PID controller drives two axes toward a setpoint."""

import jax.numpy as jnp

from controller import AxisController, Gains


def plant_response(angles, command, dt=0.02):
    # First-order actuator: the angle moves a fraction of the command each tick.
    return angles + 0.5 * command * dt


def run_stabilisation(n_ticks=5):
    controller = AxisController(Gains(), n_axes=2, dt=0.02)
    setpoint = jnp.array([0.3, -0.1], dtype=jnp.float32)
    angles = jnp.zeros(2, dtype=jnp.float32)
    history = []
    for _ in range(n_ticks):
        command = controller.step(setpoint, angles)
        angles = plant_response(angles, command)
        history.append(float(jnp.abs(setpoint - angles).max()))
    return history


if __name__ == "__main__":
    errs = run_stabilisation()
    print("max tracking error per tick:", [round(e, 4) for e in errs])
