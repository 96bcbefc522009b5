"""Least-squares regression trained with a compiled step: parameters and optimizer state in, updated
parameters and state out."""

import jax
import jax.numpy as jnp

from optim import Adam


class Regression:
    def __init__(self, features, key):
        self.params = {"w": jax.random.normal(key, (features,)) * 0.1, "b": jnp.zeros(())}
        self.optimizer = Adam()
        self.opt_state = self.optimizer.init(self.params)
        self._train_step = jax.jit(self.train_step)

    @staticmethod
    def loss(params, x, y):
        return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)

    def train_step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(self.loss)(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state)
        params = jax.tree.map(lambda p, u: p + u, params, updates)
        return params, opt_state, loss

    def fit(self, x, y, steps):
        losses = []
        for _ in range(steps):
            self.params, self.opt_state, loss = self._train_step(self.params, self.opt_state, x, y)
            losses.append(float(loss))
        return losses
