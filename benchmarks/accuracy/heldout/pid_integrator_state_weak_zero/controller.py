"""Discrete PID altitude controller for a small quadrotor."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class PIDGains(NamedTuple):
    kp: jax.Array
    ki: jax.Array
    kd: jax.Array


class PIDState(NamedTuple):
    integral: jax.Array
    prev_error: jax.Array


@jax.jit
def pid_step(gains, state, setpoint, measurement, dt):
    error = setpoint - measurement
    integral = jnp.clip(state.integral + error * dt, -5.0, 5.0)
    derivative = (error - state.prev_error) / dt
    thrust = gains.kp * error + gains.ki * integral + gains.kd * derivative
    return jnp.clip(thrust, 0.0, 30.0), PIDState(integral, error)


class AltitudeController:
    def __init__(self, kp=6.0, ki=1.5, kd=3.0, dt=0.02):
        self.gains = PIDGains(*(jnp.asarray(g, jnp.float32) for g in (kp, ki, kd)))
        self.dt = dt
        self.state = None

    def reset(self, setpoint, first_measurement):
        self.state = PIDState(
            integral=jnp.array(0.0),  # expect: RTL401
            prev_error=setpoint - first_measurement,
        )

    def command(self, setpoint, measurement):
        thrust, self.state = pid_step(self.gains, self.state, setpoint, measurement, self.dt)
        return thrust
