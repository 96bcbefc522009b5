"""A generator and a critic for a 2-D toy distribution; the critic carries its own optimizer."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
from optim import Optimizer


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
