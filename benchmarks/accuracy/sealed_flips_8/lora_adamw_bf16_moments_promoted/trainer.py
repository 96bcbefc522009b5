"""A low-rank adapter on a frozen linear layer, trained with the hand-written AdamW."""

import jax
import jax.numpy as jnp

from optim import adamw_update, init_state

RANK = 4


def init_adapter(key, d_in, d_out):
    ka, _ = jax.random.split(key)
    return {
        "a": 0.01 * jax.random.normal(ka, (d_in, RANK), jnp.float32),
        "b": jnp.zeros((RANK, d_out), jnp.float32),
    }


def predict(frozen_w, adapter, x):
    return x @ frozen_w + (x @ adapter["a"]) @ adapter["b"]


def loss_fn(adapter, frozen_w, x, y):
    return jnp.mean(jnp.square(predict(frozen_w, adapter, x) - y))


@jax.jit
def train_step(adapter, opt_state, frozen_w, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(adapter, frozen_w, x, y)
    adapter, opt_state = adamw_update(grads, opt_state, adapter)
    return adapter, opt_state, loss


@jax.jit
def eval_loss(adapter, frozen_w, x, y):
    return loss_fn(adapter, frozen_w, x, y)


class Finetuner:
    def __init__(self, frozen_w, key):
        d_in, d_out = frozen_w.shape
        self.frozen_w = frozen_w
        self.adapter = init_adapter(key, d_in, d_out)
        self.opt_state = init_state(self.adapter, learning_rate=1e-2)

    def fit(self, batches):
        losses = []
        for x, y in batches:
            self.adapter, self.opt_state, loss = train_step(self.adapter, self.opt_state, self.frozen_w, x, y)
            losses.append(float(loss))
        return losses
