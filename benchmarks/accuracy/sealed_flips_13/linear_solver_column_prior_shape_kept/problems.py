"""Test problems: symmetric positive definite systems with a right-hand side stored as a column."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class LinearSystem:
    A: jax.Array
    b: jax.Array

    def prior_mean(self):
        return jnp.zeros_like(self.b)


def random_spd_system(key, n=12):
    k1, k2 = jax.random.split(key)
    m = jax.random.normal(k1, (n, n))
    A = m @ m.T / n + jnp.eye(n)
    x_true = jax.random.normal(k2, (n,))
    return LinearSystem(A=A, b=(A @ x_true)[:, None])
