"""Lumped thermal network of a circuit board, stepped with explicit Euler."""

import jax
import jax.numpy as jnp
from jax import lax

SITES = {"cpu": 0, "pmic": 1, "dram": 2, "radio": 3, "usb": 4}
SENSOR = 5
N_NODES = 6
DT = 0.05


def conductance_matrix(links):
    g = jnp.zeros((N_NODES, N_NODES), jnp.float32)
    for i, j, k in links:
        g = g.at[i, i].add(k).at[j, j].add(k).at[i, j].add(-k).at[j, i].add(-k)
    return g + 0.05 * jnp.eye(N_NODES)  # loss to ambient


@jax.jit
def simulate(conductance, sources, t0):
    """sources maps a site name to its power trace; returns the sensor reading per step."""

    def step(temps, t):
        q = jnp.zeros_like(temps)
        for name, trace in sources.items():
            q = q.at[SITES[name]].add(trace[t])
        temps = temps + DT * (q - conductance @ temps)
        return temps, temps[SENSOR]

    n_steps = next(iter(sources.values())).shape[0]
    _, readings = lax.scan(step, t0, jnp.arange(n_steps))
    return readings
