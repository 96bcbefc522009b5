"""Picard iteration for steady unconfined groundwater flow (nonlinear transmissivity)."""

from typing import NamedTuple

import numpy as np
import jax
import jax.numpy as jnp


class PicardState(NamedTuple):
    iter_num: np.ndarray
    error: np.ndarray
    relaxation: np.ndarray


class PicardSolver:
    def __init__(self, conductivity, recharge, dx, relaxation=0.7, tol=1e-4):
        self.conductivity = conductivity
        self.recharge = recharge
        self.dx = dx
        self.relaxation = relaxation
        self.tol = tol

    def init_state(self):
        # host-side scalars with explicit dtypes so init and update agree exactly
        return PicardState(
            iter_num=np.asarray(0, dtype=np.int32),
            error=np.asarray(np.inf, dtype=np.float32),
            relaxation=np.asarray(self.relaxation, dtype=np.float32),
        )

    def _linear_solve(self, head, left, right):
        n = head.shape[0]
        trans = self.conductivity * 0.5 * (head[1:] + head[:-1])
        diag = jnp.zeros(n).at[:-1].add(trans).at[1:].add(trans)
        mat = jnp.diag(diag) - jnp.diag(trans, 1) - jnp.diag(trans, -1)
        rhs = self.recharge * self.dx**2 * jnp.ones(n)
        mat = mat.at[0].set(0.0).at[0, 0].set(1.0).at[-1].set(0.0).at[-1, -1].set(1.0)
        rhs = rhs.at[0].set(left).at[-1].set(right)
        return jnp.linalg.solve(mat, rhs)

    def update(self, head, state, left, right):
        new_head = self._linear_solve(head, left, right)
        blended = state.relaxation * new_head + (1.0 - state.relaxation) * head
        error = jnp.max(jnp.abs(blended - head))
        next_state = PicardState(
            iter_num=state.iter_num + 1,
            error=error.astype(jnp.float32),
            relaxation=state.relaxation,
        )
        return blended, next_state


def make_step(solver):
    return jax.jit(solver.update)
