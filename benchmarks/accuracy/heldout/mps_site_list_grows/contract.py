"""Contractions of a matrix product state given as a list of site tensors."""

import jax
import jax.numpy as jnp


@jax.jit
def norm_squared(sites):
    left = jnp.ones((1, 1))
    for a in sites:
        left = jnp.einsum("ab,asc,bsd->cd", left, a, a.conj())
    return jnp.trace(left).real


@jax.jit
def local_magnetization(sites, spin_z):
    total = 0.0
    for k in range(len(sites)):
        left = jnp.ones((1, 1))
        for j, a in enumerate(sites):
            op = spin_z if j == k else jnp.eye(2)
            left = jnp.einsum("ab,asc,st,btd->cd", left, a, op, a.conj())
        total = total + jnp.trace(left).real
    return total
