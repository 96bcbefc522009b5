"""Bound the states a damped oscillator can reach from a box of initial conditions."""

import jax.numpy as jnp

from reach import LinearSystem, ReachSolver
from sets import from_bounds


def main():
    system = LinearSystem([[0.98, 0.10], [-0.10, 0.95]])
    initial = from_bounds(
        jnp.asarray([0.9, -0.1], dtype=system.dtype), jnp.asarray([1.1, 0.1], dtype=system.dtype)
    )
    flowpipe = ReachSolver(steps=6).solve(system, initial)
    for k, box in enumerate(flowpipe):
        print(k, box.center.dtype, [round(float(v), 3) for v in box.low], [round(float(v), 3) for v in box.high])


if __name__ == "__main__":
    main()
