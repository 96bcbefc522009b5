"""A float schedule computed from an unannotated parameter: `base_lr * 0.95**epoch` is still a float."""

import math
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("lr",))
def sgd_update(params, grads, lr):
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


def cosine_lr(step, total, base_lr=0.1):
    return 0.5 * base_lr * (1.0 + math.cos(math.pi * step / total))


def train(params, grads, epochs, base_lr):
    for epoch in range(epochs):
        lr = base_lr * 0.95**epoch
        params = sgd_update(params, grads, lr=lr)  # expect: RTL202
    return params


def train_cosine(params, grads, total):
    for step in range(total):
        params = sgd_update(params, grads, lr=cosine_lr(step, total))  # expect: RTL202
    return params


def main():
    params = {"w": jnp.ones(4)}
    grads = {"w": jnp.ones(4)}
    train(params, grads, 10, 0.1)
    train_cosine(params, grads, 100)


if __name__ == "__main__":
    main()
