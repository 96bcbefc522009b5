"""A small spiking layer: leaky integrate-and-fire cells feeding a synaptic trace."""
from functools import partial

import jax
import jax.numpy as jnp

from ode import get_integrator


def lif_dv_dt(t, v, params, tau_m):
    current, v_rest, resistance = params
    return (-(v - v_rest) + resistance * current) / tau_m


def trace_dz_dt(t, z, params):
    spikes, tau_tr = params
    return -z / tau_tr + spikes


class LIFCell:
    def __init__(self, n_units, tau_m=5.0, v_thr=-52.0, integration="euler"):
        self.v_rest, self.v_thr = -65.0, v_thr
        self.resistance = 1.0
        self.integrate = get_integrator(integration)
        # bind the membrane constant once; the same partial object is reused every step
        self.dfx = partial(lif_dv_dt, tau_m=tau_m)
        self.v = jnp.full((n_units,), self.v_rest, dtype=jnp.float32)

    def advance(self, t, dt, current):
        params = (current, self.v_rest, self.resistance)
        v = self.integrate(self.dfx, t, self.v, dt, params)
        spikes = (v > self.v_thr).astype(jnp.float32)
        self.v = jnp.where(spikes > 0, self.v_rest, v)
        return spikes


class SynapticTrace:
    def __init__(self, n_units, tau_tr=30.0, integration="midpoint"):
        self.tau_tr = tau_tr
        self.integrate = get_integrator(integration)
        self.z = jnp.zeros((n_units,))

    def advance(self, t, dt, spikes):
        self.z = self.integrate(trace_dz_dt, t, self.z, dt, (spikes, self.tau_tr))
        return self.z


def simulate(n_units=8, n_steps=6, dt=1.0):
    key = jax.random.PRNGKey(0)
    cell = LIFCell(n_units)
    trace = SynapticTrace(n_units)
    counts = jnp.zeros((n_units,))
    for i in range(n_steps):
        key, sub = jax.random.split(key)
        current = 20.0 + 10.0 * jax.random.uniform(sub, (n_units,))
        t = i * dt
        spikes = cell.advance(t, dt, current)
        z = trace.advance(t, dt, spikes)
        counts = counts + spikes
    return counts, z


if __name__ == "__main__":
    counts, z = simulate()
    print("spike counts:", counts)
    print("final trace:", jnp.round(z, 3))
