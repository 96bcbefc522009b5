"""A generator and a critic for a 2-D toy distribution; the critic carries its own optimizer."""

from dataclasses import dataclass
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.5, b2=0.9, eps=1e-8):
    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return zeros, zeros, jnp.zeros((), dtype=jnp.int32)

    def update(grads, state):
        m, v, count = state
        count = count + 1
        m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
        c1, c2 = 1 - b1**count, 1 - b2**count
        updates = jax.tree.map(lambda a, b: -lr * (a / c1) / (jnp.sqrt(b / c2) + eps), m, v)
        return updates, (m, v, count)

    return Optimizer(init, update)


def mlp_init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (m, n)) * (1.0 / m) ** 0.5, "b": jnp.zeros(n)}
        for k, m, n in zip(keys, sizes[:-1], sizes[1:])
    ]


def mlp_apply(params, x):
    for layer in params[:-1]:
        x = jax.nn.leaky_relu(x @ layer["w"] + layer["b"], 0.2)
    return x @ params[-1]["w"] + params[-1]["b"]


@dataclass(frozen=True)
class Critic:
    hidden: int
    opt: Optimizer

    def init(self, key, dim=2):
        params = mlp_init(key, [dim, self.hidden, 1])
        return params, self.opt.init(params)
