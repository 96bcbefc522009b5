"""A PID loop around a first-order plant, simulated under jit."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class PIDController:
    def __init__(self, kp, ki, kd, dt=0.05, u_max=5.0, tau=0.8, horizon=60):
        self.kp = kp
        self.ki = ki
        self.kd = kd
        self.dt = dt
        self.u_max = u_max
        self.tau = tau
        self.horizon = horizon

    def _key(self):
        return (self.kp, self.ki, self.kd, self.dt, self.u_max, self.tau, self.horizon)

    def retuned(self, **gains):
        params = dict(kp=self.kp, ki=self.ki, kd=self.kd, dt=self.dt, u_max=self.u_max,
                      tau=self.tau, horizon=self.horizon)
        params.update(gains)
        return PIDController(**params)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, PIDController) and self._key() == other._key()

    @partial(jax.jit, static_argnums=0)
    def closed_loop(self, x0, setpoint):
        def step(carry, _):
            x, integ, prev_err = carry
            err = setpoint - x
            integ = integ + err * self.dt
            deriv = (err - prev_err) / self.dt
            u = jnp.clip(self.kp * err + self.ki * integ + self.kd * deriv, -self.u_max, self.u_max)
            x = x + self.dt * (u - x) / self.tau
            return (x, integ, err), x

        init = (x0, jnp.zeros_like(x0), setpoint - x0)
        _, xs = lax.scan(step, init, None, length=self.horizon)
        return xs
