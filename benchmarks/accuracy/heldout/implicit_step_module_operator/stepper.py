"""Backward-Euler steps solved with conjugate gradients on a matrix-free operator."""

from functools import partial

import jax
from jax.scipy.sparse.linalg import cg


@partial(jax.jit, static_argnames=("operator",))
def implicit_step(u, dt, dx, operator):
    def matvec(v):
        return v - dt * operator(v, dx)

    u_next, _ = cg(matvec, u, x0=u, tol=1e-6, maxiter=200)
    return u_next


class HeatSolver:
    def __init__(self, operator, dx):
        self.operator = operator
        self.dx = dx

    def advance(self, u, dt, n_steps):
        for _ in range(n_steps):
            u = implicit_step(u, dt, self.dx, operator=self.operator)
        return u
