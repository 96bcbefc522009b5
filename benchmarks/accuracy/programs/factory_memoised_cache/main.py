"""Optimise under linear equality constraints; the projector pair is memoised per constraint set."""

import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.cache
def factorize_constraints(a_rows, b_values):
    a, b = jnp.asarray(a_rows), jnp.asarray(b_values)
    particular = jnp.linalg.lstsq(a, b)[0]
    _, _, vt = jnp.linalg.svd(a)
    null_space = vt[a.shape[0] :].T

    @jax.jit
    def project(x):
        return null_space.T @ (x - particular)

    @jax.jit
    def recover(z):
        return particular + null_space @ z

    return project, recover


def solve(a_rows, b_values, target, steps=20):
    project, recover = factorize_constraints(a_rows, b_values)
    z = project(jnp.zeros(len(a_rows[0])))
    for _ in range(steps):
        z = z - 0.2 * project(recover(z) - target + recover(jnp.zeros_like(z)))
    return recover(z)


def sweep(targets):
    a_rows, b_values = ((1.0, 1.0, 1.0),), (1.0,)
    return [solve(a_rows, b_values, t) for t in targets]


if __name__ == "__main__":
    sweep([np.array([1.0, 0.0, 0.0]), np.array([0.0, 2.0, 0.0]), np.array([0.5, 0.5, 0.5])])
