"""Fixed-step RK4 integration of a decaying population that stops at a threshold event."""

import jax
import jax.numpy as jnp


def vector_field(t, y, args):
    rate, _ = args
    return -rate * y * (1.0 + 0.1 * jnp.sin(t))


def rk4_step(t, y, dt, args):
    k1 = vector_field(t, y, args)
    k2 = vector_field(t + dt / 2, y + dt / 2 * k1, args)
    k3 = vector_field(t + dt / 2, y + dt / 2 * k2, args)
    k4 = vector_field(t + dt, y + dt * k3, args)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


@jax.jit
def solve_until_event(y0, t0, args, dt, t1):
    _, threshold = args

    def running(state):
        t, y = state
        return (t < t1) & (jnp.sum(y) > threshold)

    def step(state):
        t, y = state
        return t + dt, rk4_step(t, y, dt, args)

    return jax.lax.while_loop(running, step, (t0, y0))
