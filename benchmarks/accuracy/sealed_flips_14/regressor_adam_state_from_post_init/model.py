"""A linear regressor that carries its own optimizer state, initialised in __post_init__."""

from typing import Any

import jax
import jax.numpy as jnp

from nn import Module
from optim import adam_init, adam_update


class Regressor(Module):
    w: jax.Array
    b: jax.Array
    opt_state: Any

    def __init__(self, key, features):
        self.w = jax.random.normal(key, (features,)) * 0.1
        self.b = jnp.zeros(())
        self.opt_state = None

    def __post_init__(self):
        self.opt_state = adam_init(self.trainable())  # expect: RTL403

    def trainable(self):
        return self.replace(opt_state=None)

    def __call__(self, x):
        return x @ self.w + self.b


def mse(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@jax.jit
def train_step(model, x, y):
    params = model.trainable()
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    updates, opt_state = adam_update(grads, model.opt_state)
    params = jax.tree.map(lambda p, u: p + u, params, updates)
    return params.replace(opt_state=opt_state), loss
