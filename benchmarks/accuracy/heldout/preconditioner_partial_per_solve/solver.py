"""Preconditioned conjugate gradients with the operators as (traced) pytree arguments."""

import jax
import jax.numpy as jnp

N_ITER = 25


@jax.jit
def pcg(operator, preconditioner, b):
    x = jnp.zeros_like(b)
    r = b - operator(x)
    z = preconditioner(r)
    p = z
    for _ in range(N_ITER):
        Ap = operator(p)
        alpha = (r @ z) / (p @ Ap)
        x = x + alpha * p
        r_new = r - alpha * Ap
        z_new = preconditioner(r_new)
        beta = (r_new @ z_new) / (r @ z)
        p = z_new + beta * p
        r, z = r_new, z_new
    return x, jnp.linalg.norm(r)
