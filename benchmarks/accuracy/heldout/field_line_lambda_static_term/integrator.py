"""A fixed-step RK4 integrator for field-line ODEs, compiled once per vector field."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames=("vector_field", "substeps"))
def odeint_rk4(vector_field, y0, ts, args, substeps=4):
    """Integrate dy/dt = vector_field(t, y, args) and return y at every time in ts."""

    def rk4_interval(y, interval):
        t0, t1 = interval
        h = (t1 - t0) / substeps

        def rk4_substep(i, y):
            t = t0 + i * h
            k1 = vector_field(t, y, args)
            k2 = vector_field(t + 0.5 * h, y + 0.5 * h * k1, args)
            k3 = vector_field(t + 0.5 * h, y + 0.5 * h * k2, args)
            k4 = vector_field(t + h, y + h * k3, args)
            return y + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)

        y = lax.fori_loop(0, substeps, rk4_substep, y)
        return y, y

    _, ys = lax.scan(rk4_interval, y0, (ts[:-1], ts[1:]))
    return jnp.concatenate([y0[None], ys], axis=0)
