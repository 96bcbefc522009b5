"""Optimise under linear equality constraints by working in the constraints' null space."""

import jax
import jax.numpy as jnp


def factorize_constraints(a, b):
    particular = jnp.linalg.lstsq(a, b)[0]
    _, _, vt = jnp.linalg.svd(a)
    null_space = vt[a.shape[0] :].T

    @jax.jit  # expect: RTL301
    def project(x):
        return null_space.T @ (x - particular)

    @jax.jit  # expect: RTL301
    def recover(z):
        return particular + null_space @ z

    return project, recover


def solve(a, b, target, steps=20):
    project, recover = factorize_constraints(a, b)
    z = project(jnp.zeros(a.shape[1]))
    for _ in range(steps):
        z = z - 0.2 * project(recover(z) - target + recover(jnp.zeros_like(z)))
    return recover(z)


def sweep(targets):
    a = jnp.array([[1.0, 1.0, 1.0]])
    return [solve(a, jnp.array([1.0]), t) for t in targets]


if __name__ == "__main__":
    sweep([jnp.array([1.0, 0.0, 0.0]), jnp.array([0.0, 2.0, 0.0]), jnp.array([0.5, 0.5, 0.5])])
