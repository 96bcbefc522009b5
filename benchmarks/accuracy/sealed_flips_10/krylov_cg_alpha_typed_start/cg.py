"""Conjugate gradients, one iteration per jitted call so that the driver can log the residual."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class CGState(NamedTuple):
    x: jax.Array
    r: jax.Array
    p: jax.Array
    rs: jax.Array
    alpha: jax.Array  # the last step length, logged by the driver


def init(matvec, b):
    x = jnp.zeros_like(b)
    r = b - matvec(x)
    return CGState(x=x, r=r, p=r, rs=jnp.vdot(r, r), alpha=jnp.zeros((), b.dtype))


def iterate(matvec, state):
    ap = matvec(state.p)
    alpha = state.rs / jnp.vdot(state.p, ap)
    x = state.x + alpha * state.p
    r = state.r - alpha * ap
    rs = jnp.vdot(r, r)
    p = r + (rs / state.rs) * state.p
    return CGState(x=x, r=r, p=p, rs=rs, alpha=alpha)
