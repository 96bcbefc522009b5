"""Linear constraint handling for the boundary optimisation: null-space projection."""

import numpy as np
import jax.numpy as jnp


def factorize_linear_constraints(A, b):
    """Return (project, recover) for the affine set {x : A x = b}.

    x = xp + Z y, with Z an orthonormal basis of the null space of A.
    """
    A = np.atleast_2d(np.asarray(A, dtype=np.float32))
    xp = np.linalg.lstsq(A, np.asarray(b, dtype=np.float32), rcond=None)[0]
    _, s, vt = np.linalg.svd(A)
    rank = int((s > 1e-6).sum())
    Z = jnp.asarray(vt[rank:].T)
    xp = jnp.asarray(xp)

    def project(x):
        return Z.T @ (x - xp)

    def recover(y):
        return xp + Z @ y

    return project, recover
