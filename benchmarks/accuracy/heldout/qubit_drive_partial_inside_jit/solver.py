"""Schrodinger evolution of a driven qubit with a fixed-step RK4 integrator."""

import jax
import jax.numpy as jnp
from jax.tree_util import Partial
from pulses import gaussian

SX = jnp.array([[0, 1], [1, 0]], dtype=jnp.complex64)
SZ = jnp.array([[1, 0], [0, -1]], dtype=jnp.complex64)


def rk4(rhs, psi, t, dt):
    k1 = rhs(t, psi)
    k2 = rhs(t + dt / 2, psi + dt / 2 * k1)
    k3 = rhs(t + dt / 2, psi + dt / 2 * k2)
    k4 = rhs(t + dt, psi + dt * k3)
    return psi + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


@jax.jit
def evolve(psi0, amplitude, width, detuning):
    drive = Partial(lambda t: gaussian(t, amplitude, width))

    def rhs(t, psi):
        H = 0.5 * detuning * SZ + 0.5 * drive(t) * SX
        return -1j * (H @ psi)

    dt, n_steps = 0.05, 200

    def body(i, psi):
        return rk4(rhs, psi, i * dt, dt)

    return jax.lax.fori_loop(0, n_steps, body, psi0)
