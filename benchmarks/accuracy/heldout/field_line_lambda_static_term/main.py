"""Scan the shaping-coil currents for the flattest flux surfaces, DESC-style.

An objective traces a few field lines around the torus (Poincare section) for each candidate
set of coil currents and measures how far the lines wander from a circle about the axis.
"""

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

import fields
from integrator import odeint_rk4


@dataclass
class CoilSet:
    positions: jnp.ndarray  # (n_coils, 2): R, Z of each filament
    currents: jnp.ndarray  # (n_coils,)

    def scaled(self, factor):
        return CoilSet(self.positions, self.currents * factor)


def field_line_integrate(r0, z0, phis, coils, substeps=4):
    """R, Z of field lines started at (r0, z0), at every toroidal angle in phis."""
    x0 = jnp.stack([r0, z0], axis=-1)
    rhs = lambda phi, x, args: fields.field_line_rhs(phi, x, *args)  # expect: RTL204
    args = (coils.positions, coils.currents)
    return odeint_rk4(rhs, x0, phis, args, substeps=substeps)  # expect: RTL204


class SurfaceCircularityObjective:
    """Mean variance of the minor radius of each traced line: 0 for perfectly circular surfaces."""

    def __init__(self, r_starts, n_turns=3, points_per_turn=8):
        self.r_starts = jnp.asarray(r_starts)
        self.phis = jnp.linspace(0.0, 2 * np.pi * n_turns, n_turns * points_per_turn + 1)

    def compute(self, coils):
        z0 = jnp.zeros_like(self.r_starts)
        traj = field_line_integrate(self.r_starts, z0, self.phis, coils)
        minor_r = jnp.hypot(traj[..., 0] - fields.R0, traj[..., 1])
        return float(jnp.mean(jnp.var(minor_r, axis=0)))


def main():
    base = CoilSet(
        positions=jnp.array([[fields.R0, 0.0], [fields.R0 + 0.9, 0.6], [fields.R0 + 0.9, -0.6]]),
        currents=jnp.array([0.3, -0.05, -0.05]),
    )
    objective = SurfaceCircularityObjective(r_starts=[1.6, 1.7, 1.8])
    best = None
    for factor in (0.6, 0.8, 1.0, 1.2):
        value = objective.compute(base.scaled(factor))
        print(f"shaping-current factor {factor:.1f}: circularity cost {value:.3e}")
        if best is None or value < best[1]:
            best = (factor, value)
    print("best factor", best[0])


if __name__ == "__main__":
    main()
