"""Block subspace iteration for the lowest eigenpairs of a Hermitian matrix, one jitted sweep per call."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SolverState(NamedTuple):
    basis: jax.Array  # (n, k) orthonormal block
    theta: jax.Array  # (k,) Ritz values
    residual: jax.Array


def start(key, n, k, dtype):
    re, im = jax.random.normal(key, (2, n, k))
    basis, _ = jnp.linalg.qr((re + 1j * im).astype(dtype))
    return SolverState(basis, jnp.zeros(k, dtype=jnp.float32), jnp.array(jnp.inf, dtype=jnp.float32))  # expect: RTL402


@jax.jit
def sweep(state, hamiltonian, shift):
    """One shifted-inverse-free sweep: apply (shift - H), re-orthonormalise, Rayleigh-Ritz."""
    block = shift * state.basis - hamiltonian @ state.basis
    basis, _ = jnp.linalg.qr(block)
    projected = basis.conj().T @ hamiltonian @ basis
    evals, evecs = jnp.linalg.eigh(projected)
    basis = basis @ evecs
    theta = jnp.diagonal(basis.conj().T @ hamiltonian @ basis)  # expect: RTL402
    residual = jnp.linalg.norm(hamiltonian @ basis - basis * theta[None, :])
    return SolverState(basis, theta, residual.astype(jnp.float32))
