"""A small explicit time-stepping helper, in the style of the solver's shortcuts module."""

from dataclasses import dataclass

import jax


@dataclass
class StateComputed:
    field_name: str
    t: float
    dt: float
    state: tuple


def _axpy(a, x, y):
    """y + a * x on matching pytrees of arrays."""
    return jax.tree.map(lambda xi, yi: yi + a * xi, x, y)


def _combine(fields, dt, k1, k2, k3, k4):
    return jax.tree.map(
        lambda f, a, b, c, d: f + dt / 6 * (a + 2 * b + 2 * c + d), fields, k1, k2, k3, k4
    )


def set_up_rk4(field_var_name, dt, fields, rhs, t_start=0):  # expect: RTL402
    """Yield the state after each classical RK4 step of d(fields)/dt = rhs(t, fields)."""
    t = t_start
    while True:
        k1 = rhs(t, fields)
        k2 = rhs(t + dt / 2, _axpy(dt / 2, k1, fields))
        k3 = rhs(t + dt / 2, _axpy(dt / 2, k2, fields))
        k4 = rhs(t + dt, _axpy(dt, k3, fields))
        fields = _combine(fields, dt, k1, k2, k3, k4)
        t += dt
        yield StateComputed(field_var_name, t, dt, fields)
