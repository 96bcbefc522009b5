"""Stochastic reconfiguration for the transverse-field Ising chain: local energies, QGT and the update."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.flatten_util import ravel_pytree

from ansatz import log_psi

J, H_FIELD = 1.0, 0.8


def local_energy(params, s):
    interaction = -J * jnp.sum(s * jnp.roll(s, -1))
    flipped = s[None, :] * (1 - 2 * jnp.eye(s.shape[0], dtype=s.dtype))
    ratios = jnp.exp(jax.vmap(log_psi, in_axes=(None, 0))(params, flipped) - log_psi(params, s))
    return interaction - H_FIELD * jnp.sum(ratios)


def centered_jacobian(params, samples):
    """O_k(s) - <O_k>, scaled by 1/sqrt(N) so that O^T O is the quantum geometric tensor."""
    flat, unravel = ravel_pytree(params)
    grads = jax.vmap(lambda s: jax.grad(lambda p: log_psi(unravel(p), s))(flat))(samples)
    n_samples = samples.shape[0]
    return (grads - grads.mean(axis=0)) / np.sqrt(n_samples), unravel  # expect: RTL402


@jax.jit
def sr_step(params, samples, lr=0.05, diag_shift=0.01):
    e_loc = jax.vmap(local_energy, in_axes=(None, 0))(params, samples)
    o_c, unravel = centered_jacobian(params, samples)
    e_c = (e_loc - e_loc.mean()) * samples.shape[0] ** -0.5
    qgt = o_c.T @ o_c + diag_shift * jnp.eye(o_c.shape[1], dtype=o_c.dtype)
    update = jnp.linalg.solve(qgt, o_c.T @ e_c)
    flat, _ = ravel_pytree(params)
    return unravel(flat - lr * update), e_loc.mean()
