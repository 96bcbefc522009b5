"""Discrete PID controllers for the arm's joints, built from a gain schedule."""

import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def make_pid_step(kp, ki, kd, dt, u_max):
    """Return a jitted PID update for these gains.

    Memoised: asking again for the same gains hands back the same jitted
    function, so its compiled code is reused instead of rebuilt.
    """

    def pid_step(state, error):
        integral, prev_error = state
        integral = jnp.clip(integral + error * dt, -u_max / ki, u_max / ki)
        derivative = (error - prev_error) / dt
        u = kp * error + ki * integral + kd * derivative
        return (integral, error), jnp.clip(u, -u_max, u_max)

    return jax.jit(pid_step)


def init_state(n_joints):
    return (jnp.zeros(n_joints), jnp.zeros(n_joints))
