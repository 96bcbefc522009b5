"""Matrix-free operators passed into the solver as jax.tree_util.Partial objects."""

import jax.numpy as jnp
from jax.tree_util import Partial


def diffusion_apply(absorption, v):
    """1-D diffusion with a spatially varying absorption term and Dirichlet ends."""
    left = jnp.concatenate([jnp.zeros(1), v[:-1]])
    right = jnp.concatenate([v[1:], jnp.zeros(1)])
    return 2 * v - left - right + absorption * v


def jacobi_apply(inv_diag, r):
    return inv_diag * r


def build_system(absorption):
    """The operator and its Jacobi preconditioner for one absorption field."""
    operator = Partial(diffusion_apply, absorption)
    preconditioner = Partial(jacobi_apply, 1.0 / (2 + absorption))
    return operator, preconditioner
