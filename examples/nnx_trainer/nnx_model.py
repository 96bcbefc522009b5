"""A small flax NNX classifier and its jitted steps."""

from functools import partial

import jax
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, din: int, dhidden: int, dout: int, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, dhidden, rngs=rngs)
        self.out = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, x):
        return self.out(jax.nn.relu(self.hidden(x)))


def loss_fn(model: MLP, x, y):
    logits = model(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@nnx.jit
def train_step(model: MLP, optimizer: nnx.Optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


@partial(nnx.jit, static_argnames=("temperature",))
def predict_proba(model: MLP, x, temperature):
    return jax.nn.softmax(model(x) / temperature)


@nnx.jit
def accuracy(model: MLP, x, y):
    return (model(x).argmax(-1) == y).mean()
