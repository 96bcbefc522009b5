"""Fly a quadrotor through take-off, hover and landing with scheduled PID gains."""

import jax
import jax.numpy as jnp

from controller import PIDController

MASS = 0.9
GRAVITY = 9.81

# (phase name, altitude set-point [m], (kp, ki, kd), steps)
FLIGHT_PLAN = [
    ("takeoff", 2.0, (6.0, 1.5, 2.5), 5),
    ("hover", 2.0, (4.0, 1.0, 2.0), 5),
    ("land", 0.1, (2.5, 0.5, 1.6), 5),
]


@jax.jit
def plant_step(state, thrust, dt):
    """Vertical point-mass dynamics: state = (altitude, climb rate)."""
    z, vz = state[0], state[1]
    az = thrust / MASS - GRAVITY
    vz = vz + az * dt
    z = jnp.maximum(z + vz * dt, 0.0)
    return jnp.stack([z, vz])


class AltitudeHold:
    def __init__(self, controller):
        self.controller = controller
        self.integ = jnp.zeros((), jnp.float32)
        self.prev_err = jnp.zeros((), jnp.float32)

    def enter_phase(self, gains):
        self.controller = self.controller.retuned(gains)

    def thrust(self, setpoint, z):
        err = jnp.float32(setpoint) - z
        u, self.integ = self.controller.command(self.integ, self.prev_err, err)  # expect: RTL201
        self.prev_err = err
        return MASS * GRAVITY + u


def fly(plan):
    pid = PIDController(*plan[0][2])
    autopilot = AltitudeHold(pid)
    state = jnp.zeros(2, jnp.float32)
    log = []
    for name, setpoint, gains, steps in plan:
        autopilot.enter_phase(gains)
        for _ in range(steps):
            thrust = autopilot.thrust(setpoint, state[0])
            state = plant_step(state, thrust, autopilot.controller.dt)
        log.append((name, float(state[0])))
    return log


if __name__ == "__main__":
    for phase, altitude in fly(FLIGHT_PLAN):
        print(f"{phase:8s} altitude {altitude:6.3f} m")
