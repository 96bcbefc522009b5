"""A small adaptive-free Heun solver in the style of diffeqsolve: the times t0, t1 and dt0 may be given
as Python floats, the state as an array; both are turned into arrays once, when the solve starts."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SolverState(NamedTuple):
    y: jax.Array
    t: jax.Array
    dt: jax.Array


class Heun:
    def __init__(self, vector_field):
        self.vector_field = vector_field
        self._step = jax.jit(self.heun_step)

    def heun_step(self, state, args):
        y, t, dt = state
        k1 = self.vector_field(t, y, args)
        k2 = self.vector_field(t + dt, y + dt * k1, args)
        y_next = y + 0.5 * dt * (k1 + k2)
        return SolverState(y_next, t + dt, dt)

    def init(self, y0, t0, t1, dt0):
        timelikes = [t0, t1, dt0]
        time_dtype = jnp.result_type(y0, *timelikes)
        y0 = jnp.asarray(y0, dtype=jnp.result_type(y0, *timelikes))
        return SolverState(
            y0, jnp.asarray(t0, dtype=time_dtype), jnp.asarray(dt0, dtype=time_dtype)
        )

    def solve(self, y0, t0, t1, dt0, args, save_every=5):
        state = self.init(y0, t0, t1, dt0)
        saved = [state.y]
        n = 0
        while float(state.t) < t1 - 1e-9:
            state = self._step(state, args)
            n += 1
            if n % save_every == 0:
                saved.append(state.y)
        return state, saved
