"""A small discrete PID controller whose update runs under jax.jit."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class PIDState:
    integral: jax.Array
    prev_error: jax.Array


@dataclass(frozen=True)
class Gains:
    kp: float = 1.2
    ki: float = 0.4
    kd: float = 0.05


def initial_state(n_axes):
    # A fresh controller starts with nothing integrated yet.
    return PIDState(
        integral=jnp.array(0.0),  # expect: RTL401
        prev_error=jnp.zeros(n_axes, dtype=jnp.float32),
    )


@jax.jit
def pid_update(state, error, gains_vec, dt):
    kp, ki, kd = gains_vec[0], gains_vec[1], gains_vec[2]
    integral = state.integral + jnp.sum(error) * dt
    derivative = (error - state.prev_error) / dt
    command = kp * error + ki * integral + kd * derivative
    return PIDState(integral=integral, prev_error=error), command


class AxisController:
    def __init__(self, gains, n_axes, dt):
        self.gains_vec = jnp.array([gains.kp, gains.ki, gains.kd], dtype=jnp.float32)
        self.dt = jnp.float32(dt)
        self.state = initial_state(n_axes)

    def step(self, setpoint, measured):
        error = (setpoint - measured).astype(jnp.float32)
        self.state, command = pid_update(self.state, error, self.gains_vec, self.dt)
        return command
