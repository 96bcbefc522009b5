"""Stochastic reconfiguration (natural gradient) for variational Monte Carlo."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("diag_shift", "maxiter"))
def solve_sr(jac, energy_grad, diag_shift, maxiter):
    """Solve (S + shift * I) dtheta = F with conjugate gradients, S = <O^T O>_c."""
    n_samples = jac.shape[0]
    centred = jac - jac.mean(axis=0, keepdims=True)

    def s_matvec(v):
        return centred.T @ (centred @ v) / n_samples + diag_shift * v

    dtheta, _ = jax.scipy.sparse.linalg.cg(s_matvec, energy_grad, maxiter=maxiter)
    return dtheta


def log_amplitude(params, spins):
    """Jastrow-like ansatz: one-body field plus nearest-neighbour coupling."""
    field, coupling = params
    neighbours = jnp.roll(spins, -1, axis=-1)
    return spins @ field + coupling * jnp.sum(spins * neighbours, axis=-1)
