"""Fit a small MLP with gradient accumulation over 4 mini-batches."""

from functools import partial

import jax
import jax.numpy as jnp

import accumulate

EVERY_K = 4


def init_mlp(key, sizes=(3, 32, 1)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (a, b)) / jnp.sqrt(a), "b": jnp.zeros((b,))}
        for k, a, b in zip(keys, sizes[:-1], sizes[1:])
    ]


def mlp(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss_fn(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


@partial(jax.jit, static_argnames="every_k")
def train_step(params, opt_state, x, y, every_k):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = accumulate.multi_steps_update(grads, opt_state, every_k)
    params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss


def batches(key, n_batches, batch_size=16):
    for k in jax.random.split(key, n_batches):
        x = jax.random.normal(k, (batch_size, 3))
        yield x, jnp.sin(x.sum(axis=1, keepdims=True))


def main():
    k_init, k_data = jax.random.split(jax.random.PRNGKey(0))
    params = init_mlp(k_init)
    opt_state = accumulate.multi_steps_init(params)
    for x, y in batches(k_data, 12):
        params, opt_state, loss = train_step(params, opt_state, x, y, EVERY_K)
    print(f"loss {float(loss):.4f} after {int(opt_state.gradient_step)} optimizer steps")


if __name__ == "__main__":
    main()
