"""The training loop: one jitted step per batch, the optimizer state carried between steps."""

import jax
import jax.numpy as jnp


def mse(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


class TrainLoop:
    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.step = jax.jit(self.batch_step)

    def batch_step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(mse)(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state)
        params = jax.tree.map(lambda p, u: p + u, params, updates)
        return params, opt_state, loss

    def run(self, params, batches):
        opt_state = self.optimizer.init(params)
        history = []
        for x, y in batches:
            params, opt_state, loss = self.step(params, opt_state, x, y)
            history.append(loss)
        return params, history
