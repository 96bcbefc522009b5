"""Gradient accumulation over micro-batches, applied every few micro-batches."""

import jax
import jax.numpy as jnp


@jax.jit
def accumulate(total, grads):
    if total is None:
        return grads
    return jax.tree_util.tree_map(jnp.add, total, grads)


@jax.jit
def micro_grads(params, x, y):
    return jax.grad(lambda p: jnp.mean((x @ p["w"] + p["b"] - y) ** 2))(params)


class GradAccumulator:
    def __init__(self, every):
        self.every = every
        self.reset()

    def reset(self):
        self.total = None  # expect: RTL403
        self.count = 0

    def add(self, grads):
        self.total = accumulate(self.total, grads)
        self.count += 1
        return self.count == self.every


def train(params, micro_batches, every=2, lr=0.1):
    acc = GradAccumulator(every)
    for x, y in micro_batches:
        if acc.add(micro_grads(params, x, y)):
            params = jax.tree_util.tree_map(lambda p, g: p - lr * g / every, params, acc.total)
            acc.reset()
    return params


if __name__ == "__main__":
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    data = [(jnp.ones((4, 3)) * k, jnp.ones(4)) for k in range(6)]
    train(params, data)
