"""Closed-loop altitude hold: PID controller against a point-mass quadrotor model."""

import jax
import jax.numpy as jnp

from controller import AltitudeController

MASS = 1.2
GRAVITY = 9.81
DT = 0.02


@jax.jit
def plant_step(z, vz, thrust, dt):
    drag = 0.3 * vz
    az = (thrust - drag) / MASS - GRAVITY
    vz = vz + az * dt
    z = z + vz * dt
    return jnp.maximum(z, 0.0), vz


def run_episode(controller, setpoint, z0, n_steps):
    z = jnp.asarray(z0, jnp.float32)
    vz = jnp.zeros((), jnp.float32)
    controller.reset(setpoint, z)
    trace = []
    for _ in range(n_steps):
        thrust = controller.command(setpoint, z)
        z, vz = plant_step(z, vz, thrust, DT)
        trace.append(float(z))
    return trace


if __name__ == "__main__":
    ctrl = AltitudeController(dt=DT)
    for target, start in [(2.0, 0.0), (1.0, 2.0)]:
        traj = run_episode(ctrl, target, start, n_steps=6)
        print(f"hold {target:.1f} m from {start:.1f} m:", [round(v, 3) for v in traj])
