"""Fit a linear model in float32, then check the fit in float64 inside jax.enable_x64()."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def residual_norm(a, b, x):
    return jnp.linalg.norm(a @ x - b)


def fit_step(a, b, x, lr=0.1):
    return x - lr * a.T @ (a @ x - b)


def check_in_double(a, b, x):
    with jax.enable_x64():  # expect: RTL405
        return float(residual_norm(a, b, x))


def fit(a, b, epochs=4):
    x = jnp.zeros(a.shape[1])
    for _ in range(epochs):
        x = fit_step(a, b, x)
        print(float(residual_norm(a, b, x)), check_in_double(a, b, x))
    return x


if __name__ == "__main__":
    a = jnp.asarray(np.random.default_rng(0).normal(size=(8, 3)), jnp.float32)
    fit(a, a @ jnp.ones(3))
