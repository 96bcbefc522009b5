"""Fit half-precision weights with a line search; the loss is computed in float32."""

import jax
import jax.numpy as jnp

from linesearch import init_state, update


def loss(params):
    return jnp.mean((params.astype(jnp.float32) - 3.0) ** 2)


def fit(steps=5):
    params = jnp.zeros(8, jnp.bfloat16)
    state = init_state(params)
    grad_fn = jax.value_and_grad(loss)
    for _ in range(steps):
        value, grad = grad_fn(params)
        params, state = update(params, grad.astype(params.dtype), state, value)
    return params


if __name__ == "__main__":
    print(fit())
