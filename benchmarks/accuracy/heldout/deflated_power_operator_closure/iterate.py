"""Power iteration on a matrix-free operator, compiled once per operator."""

from functools import partial

import jax
import jax.numpy as jnp

N_ITER = 30


@partial(jax.jit, static_argnums=0)
def power_iterate(matvec, v0):
    v = v0 / jnp.linalg.norm(v0)
    for _ in range(N_ITER):
        w = matvec(v)
        v = w / jnp.linalg.norm(w)
    return v @ matvec(v), v
