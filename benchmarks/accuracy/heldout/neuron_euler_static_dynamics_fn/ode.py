"""Fixed-step integrators; the derivative function is a compile-time argument."""
from functools import partial

import jax


@partial(jax.jit, static_argnums=(0,))
def step_euler(dfx, t, x, dt, params):
    return x + dt * dfx(t, x, params)


@partial(jax.jit, static_argnums=(0,))
def step_midpoint(dfx, t, x, dt, params):
    k1 = dfx(t, x, params)
    k2 = dfx(t + 0.5 * dt, x + 0.5 * dt * k1, params)
    return x + dt * k2


INTEGRATORS = {"euler": step_euler, "midpoint": step_midpoint}


def get_integrator(name):
    return INTEGRATORS[name]
