"""Run every stimulation protocol on one cell and summarise the recorded voltages."""

import jax.numpy as jnp
from cell import N_STEPS, CellParams, solve
from protocols import PROTOCOLS


def run_protocols(params, v0=-70.0):
    summary = {}
    for proto in PROTOCOLS:
        recorded = solve(params, jnp.float32(v0), jnp.float32(proto.amplitude), proto.checkpoints(N_STEPS))
        summary[proto.name] = (len(recorded), float(recorded[-1]))
    return summary


if __name__ == "__main__":
    params = CellParams(jnp.float32(0.01), jnp.float32(-70.0), jnp.float32(0.1))
    for name, (n, v_end) in run_protocols(params).items():
        print(f"{name:12s} {n} samples, last {v_end:.2f} mV")
