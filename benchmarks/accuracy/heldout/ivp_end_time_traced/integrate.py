"""Solve an initial value problem up to a given end time with a fixed number of RK4 steps."""

import jax
import jax.numpy as jnp

NUM_STEPS = 64


def decay(t, y, k):
    return -k * y


@jax.jit
def ivp(t1, y0, k):
    dt = t1 / NUM_STEPS

    def step(i, y):
        t = i * dt
        k1 = decay(t, y, k)
        k2 = decay(t + dt / 2, y + dt / 2 * k1, k)
        k3 = decay(t + dt / 2, y + dt / 2 * k2, k)
        k4 = decay(t + dt, y + dt * k3, k)
        return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

    return jax.lax.fori_loop(0, NUM_STEPS, step, y0)
