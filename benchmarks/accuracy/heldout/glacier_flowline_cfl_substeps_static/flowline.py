"""Shallow-ice approximation on a 1-D glacier flowline (explicit, nonlinear diffusion)."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

RHO_ICE = 910.0
G = 9.81
GLEN_A = 2.4e-24  # Pa^-3 s^-1
SECONDS_PER_YEAR = 3.1536e7


@dataclass(frozen=True)
class Grid:
    n: int = 30
    dx: float = 400.0  # metres


def diffusivity(h, bed, dx):
    """SIA diffusivity D = Gamma H^5 |grad s|^2 on staggered points (n = 3)."""
    gamma = 2.0 * GLEN_A * (RHO_ICE * G) ** 3 / 5.0 * SECONDS_PER_YEAR
    s = h + bed
    h_stag = 0.5 * (h[1:] + h[:-1])
    slope = (s[1:] - s[:-1]) / dx
    return gamma * h_stag**5 * slope**2


@partial(jax.jit, static_argnames=("n_sub",))
def advance(h, bed, smb, dt_sub, dx, n_sub):
    """n_sub explicit sub-steps of dH/dt = d/dx(D dS/dx) + smb."""
    for _ in range(n_sub):
        d = diffusivity(h, bed, dx)
        flux = -d * ((h[1:] + bed[1:]) - (h[:-1] + bed[:-1])) / dx
        div = jnp.zeros_like(h).at[1:-1].set(-(flux[1:] - flux[:-1]) / dx)
        h = jnp.maximum(h + dt_sub * (div + smb), 0.0)
    return h


def stable_substeps(h, bed, dx, dt_out, safety=0.4):
    """Number of explicit steps needed over dt_out (years) by the diffusive CFL limit."""
    d_max = float(np.max(diffusivity(np.asarray(h), np.asarray(bed), dx))) + 1e-6
    dt_max = safety * dx**2 / (2.0 * d_max)
    return max(1, int(np.ceil(dt_out / dt_max)))
