"""A single-compartment leaky integrate-and-fire cell, integrated with jitted forward Euler."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class CellParams(NamedTuple):
    g_leak: jax.Array
    e_leak: jax.Array
    capacitance: jax.Array


N_STEPS = 200
DT = 0.025  # ms


@jax.jit
def solve(params, v0, current, checkpoint_inds):
    """Integrate N_STEPS steps and return the voltage at the requested checkpoints."""

    def euler(v, _):
        dv = (-params.g_leak * (v - params.e_leak) + current) / params.capacitance
        v = v + DT * dv
        return v, v

    _, trace = jax.lax.scan(euler, v0, None, length=N_STEPS)
    return jnp.stack([trace[i] for i in checkpoint_inds])
