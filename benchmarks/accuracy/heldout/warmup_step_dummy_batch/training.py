"""A fit() loop that compiles its step on a throw-away batch before timing the real ones."""

import time

import jax
import jax.numpy as jnp


def mse(params, x, y):
    pred = jnp.tanh(x @ params["w1"] + params["b1"]) @ params["w2"]
    return jnp.mean((pred - y) ** 2)


def _make_step(params, momentum, x, y, lr):
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    momentum = jax.tree.map(lambda m, g: 0.9 * m + g, momentum, grads)
    params = jax.tree.map(lambda p, m: p - lr * m, params, momentum)
    return params, momentum, loss


make_step = jax.jit(_make_step)


def fit(params, loader, lr=jnp.float32(0.05), epochs=2):
    momentum = jax.tree.map(jnp.zeros_like, params)
    first_x, first_y = next(iter(loader))
    # a "wasted" step on zeros of the batch's shape, so that compilation is not timed
    dummy_x, dummy_y = jax.tree.map(jnp.zeros_like, (first_x, first_y))
    make_step(params, momentum, dummy_x, dummy_y, lr)
    start = time.perf_counter()
    for _ in range(epochs):
        for x, y in loader:
            params, momentum, loss = make_step(params, momentum, x, y, lr)
    return params, float(loss), time.perf_counter() - start
