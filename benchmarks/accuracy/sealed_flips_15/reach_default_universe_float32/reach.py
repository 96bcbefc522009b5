"""Discrete-time reachability of x' = A x with box over-approximation, intersected with an invariant
at every step, as a reachability solver's options allow (no invariant given: the universe)."""

import jax
import jax.numpy as jnp

from sets import Hyperrectangle, universe


@jax.jit
def discrete_post(box, A, invariant):
    center = A @ box.center
    radius = jnp.abs(A) @ box.radius
    low = jnp.maximum(center - radius, invariant.center - invariant.radius)  # expect: RTL402
    high = jnp.minimum(center + radius, invariant.center + invariant.radius)
    return Hyperrectangle((low + high) / 2, (high - low) / 2)


class LinearSystem:
    def __init__(self, A, dtype=jnp.bfloat16):
        self.A = jnp.asarray(A, dtype=dtype)
        self.dim = self.A.shape[0]
        self.dtype = dtype


class ReachSolver:
    def __init__(self, steps=6, **options):
        self.steps = steps
        self.options = options

    def solve(self, system, initial_set):
        invariant = self.options.get("invariant") or universe(system.dim)  # expect: RTL402
        flowpipe = [initial_set]
        box = initial_set
        for _ in range(self.steps):
            box = discrete_post(box, system.A, invariant)
            flowpipe.append(box)
        return flowpipe
