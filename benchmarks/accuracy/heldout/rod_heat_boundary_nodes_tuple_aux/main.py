"""A copper rod, one end held by a thermostat that cycles, the other end in ice water."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from boundary import DirichletBC

N_NODES = 41
LENGTH = 0.4  # m
DIFFUSIVITY = 1.1e-4  # m^2/s, copper


@jax.jit
def advance(u, bc, r):
    """Explicit FTCS update of the interior, then re-impose the clamped nodes."""
    lap = jnp.zeros_like(u).at[1:-1].set(u[2:] - 2.0 * u[1:-1] + u[:-2])
    return bc.apply(u + r * lap)


@jax.jit
def heat_content(u, dx):
    return jnp.sum(0.5 * (u[1:] + u[:-1])) * dx


def thermostat(t, period=60.0):
    return 80.0 + 15.0 * math.sin(2.0 * math.pi * t / period)


def clamped_mask(n_nodes):
    mask = np.zeros(n_nodes, dtype=bool)
    mask[0] = True  # heater end
    mask[-1] = True  # ice bath end
    return mask


def simulate(n_outer=5, substeps=20):
    dx = LENGTH / (N_NODES - 1)
    dt = 0.4 * dx**2 / DIFFUSIVITY
    r = jnp.float32(DIFFUSIVITY * dt / dx**2)
    u = jnp.full((N_NODES,), 20.0, jnp.float32)
    mask = clamped_mask(N_NODES)
    t = 0.0
    for outer in range(n_outer):
        # the heater set-point changes, so the boundary object is rebuilt for each block
        bc = DirichletBC.from_mask(mask, [thermostat(t), 0.0])
        for _ in range(substeps):
            u = advance(u, bc, r)
            t += dt
        q = float(heat_content(u, jnp.float32(dx)))
        print(f"t={t:7.1f}s  T_hot={float(u[0]):5.1f}  T_mid={float(u[N_NODES // 2]):5.2f}  Q={q:.3f}")
    return u


if __name__ == "__main__":
    simulate()
