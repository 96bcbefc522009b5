"""The user-facing model object: train() runs gradient descent on the cores."""

import jax
import jax.numpy as jnp
from network import init_cores, logits


class MPSModel:
    def __init__(self, key, sites=6):
        self.params = init_cores(key, sites)

    def train(self, x, y, epochs=1, lr=0.05):
        def foo(params, xb, yb):
            log_p = jax.nn.log_softmax(logits(params, xb))
            return -jnp.take_along_axis(log_p, yb[:, None], axis=1).mean()

        loss_and_grad = jax.jit(jax.value_and_grad(foo))  # expect: RTL301
        history = []
        for _ in range(epochs):
            loss, grads = loss_and_grad(self.params, x, y)
            self.params = jax.tree.map(lambda p, g: p - lr * g, self.params, grads)
            history.append(float(loss))
        return history
