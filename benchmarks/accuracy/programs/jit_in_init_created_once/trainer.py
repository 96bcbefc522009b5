"""A small trainer that compiles its step once, when it is created."""

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, params, lr=0.05):
        self.params = params
        self.lr = lr
        self._loss_and_grad = jax.jit(jax.value_and_grad(self._loss))

    def _loss(self, params, x, y):
        return jnp.mean((jnp.tanh(x @ params["w"]) @ params["v"] - y) ** 2)

    def training_step(self, x, y):
        loss, grads = self._loss_and_grad(self.params, x, y)
        self.params = jax.tree_util.tree_map(lambda p, g: p - self.lr * g, self.params, grads)
        return loss
