"""Top eigenvalues of a loss Hessian, one deflated power iteration per eigenpair."""

import jax
import jax.numpy as jnp
from deflation import deflate
from iterate import power_iterate

N_EIGS = 3


def loss(w, X, y):
    return jnp.mean((X @ w - y) ** 2)


if __name__ == "__main__":
    kx, ky, kv = jax.random.split(jax.random.PRNGKey(0), 3)
    X = jax.random.normal(kx, (32, 6))
    y = jax.random.normal(ky, (32,))
    w = jnp.zeros(6)
    hvp = lambda v: jax.jvp(jax.grad(lambda p: loss(p, X, y)), (w,), (v,))[1]

    found = []
    v0 = jax.random.normal(kv, (6,))
    for k in range(N_EIGS):
        operator = deflate(hvp, found)  # expect: RTL204
        lam, u = power_iterate(operator, v0)  # expect: RTL204
        found.append((lam, u))
        print(k, round(float(lam), 4))
