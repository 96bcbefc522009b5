"""Altitude-hold PID controller for a small quadrotor.

The controller follows the "mark self as static" recipe: the jitted method takes
the instance as a static argument, and __hash__/__eq__ look at the gains so that
JAX can tell two controllers apart.
"""

from functools import partial

import jax
import jax.numpy as jnp


class PIDController:
    def __init__(self, kp, ki, kd, dt=0.02, u_max=12.0):
        self.kp = kp
        self.ki = ki
        self.kd = kd
        self.dt = dt
        self.u_max = u_max

    def _key(self):
        return (self.kp, self.ki, self.kd, self.dt, self.u_max)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, PIDController) and self._key() == other._key()

    def retuned(self, gains):
        """Gain scheduling: a controller with the gains of the next flight phase.

        A fresh instance rather than mutating this one, since self is hashed.
        """
        kp, ki, kd = gains
        return PIDController(kp, ki, kd, dt=self.dt, u_max=self.u_max)  # expect: RTL201

    @partial(jax.jit, static_argnums=0)
    def command(self, integ, prev_err, err):
        integ = integ + err * self.dt
        deriv = (err - prev_err) / self.dt
        u = self.kp * err + self.ki * integ + self.kd * deriv
        return jnp.clip(u, -self.u_max, self.u_max), integ
