"""Classical RK4 time stepping as a generator of step events, in the style of a DG solver's shortcuts."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass
class StepEvent:
    component_id: str
    t: object
    state: object


@partial(jax.jit, static_argnums=0)
def rk4_step(rhs, t, state, dt):
    k1 = rhs(t, state)
    k2 = rhs(t + dt / 2, jax.tree.map(lambda y, k: y + dt / 2 * k, state, k1))
    k3 = rhs(t + dt / 2, jax.tree.map(lambda y, k: y + dt / 2 * k, state, k2))
    k4 = rhs(t + dt, jax.tree.map(lambda y, k: y + dt * k, state, k3))
    new_state = jax.tree.map(lambda y, a, b, c, d: y + dt / 6 * (a + 2 * b + 2 * c + d), state, k1, k2, k3, k4)
    return t + dt, new_state


def set_up_rk4(field_var_name, dt, fields, rhs, t_start=0):
    """Yield a StepEvent after every RK4 step, forever; the caller decides when to stop."""
    t = jnp.asarray(t_start, dtype=jnp.result_type(dt))
    state = fields
    while True:
        t, state = rk4_step(rhs, t, state, dt)
        yield StepEvent(field_var_name, t, state)
