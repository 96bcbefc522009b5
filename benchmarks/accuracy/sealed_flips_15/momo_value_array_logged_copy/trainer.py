"""A logistic-regression trainer with MoMo; the loss is logged every few steps."""

import jax
import jax.numpy as jnp

from momo import Momo


def logistic_loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)


def loss_and_grad(params, x, y):
    return jax.value_and_grad(logistic_loss)(params, x, y)


class Trainer:
    def __init__(self, features, log_every=3):
        self.params = {"w": jnp.zeros((features,)), "b": jnp.zeros(())}
        self.optimizer = Momo(learning_rate=2.0)
        self.opt_state = self.optimizer.init(self.params)
        self.log_every = log_every
        self.history = []
        self._loss_and_grad = jax.jit(loss_and_grad)
        self._apply = jax.jit(self.momo_step)

    def momo_step(self, params, opt_state, grads, value):
        updates, opt_state = self.optimizer.update(grads, opt_state, params, value)
        return jax.tree.map(lambda p, u: p + u, params, updates), opt_state

    def fit(self, batches):
        for step, (x, y) in enumerate(batches):
            loss, grads = self._loss_and_grad(self.params, x, y)
            if step % self.log_every == 0:
                self.history.append((step, float(loss)))
            self.params, self.opt_state = self._apply(self.params, self.opt_state, grads, loss)
        return self.history
