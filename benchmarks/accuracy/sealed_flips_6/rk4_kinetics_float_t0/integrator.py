"""A fixed-step Runge-Kutta integrator object whose step is one jitted function."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def rk4_step(rhs, t, y, dt, params):
    k1 = rhs(t, y, params)
    k2 = rhs(t + dt / 2, y + dt / 2 * k1, params)
    k3 = rhs(t + dt / 2, y + dt / 2 * k2, params)
    k4 = rhs(t + dt, y + dt * k3, params)
    return t + dt, y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


class RK4Integrator:
    """Keeps the current time and state; `step` advances both by one time step."""

    def __init__(self, rhs, t0, y0, dt, params):
        self.rhs = rhs
        self.t = jnp.float32(t0)
        self.y = y0
        self.dt = jnp.float32(dt)
        self.params = params

    def step(self):
        self.t, self.y = rk4_step(self.rhs, self.t, self.y, self.dt, self.params)
        return self.y

    def run_until(self, t_end):
        trajectory = [self.y]
        while float(self.t) < t_end:
            trajectory.append(self.step())
        return jnp.stack(trajectory)
