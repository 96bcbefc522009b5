"""Train a linear probe with plain SGD; the step takes the weights and hands back updated ones."""

import jax
import jax.numpy as jnp

from nn import logits, unwrap


def cross_entropy(weights, x, labels):
    logp = jax.nn.log_softmax(logits(weights, x))
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


@jax.jit
def sgd_step(weights, x, labels, lr):
    raw = {name: unwrap(w) for name, w in weights.items()}
    loss, grads = jax.value_and_grad(cross_entropy)(raw, x, labels)
    return {name: raw[name] - lr * grads[name] for name in raw}, loss  # expect: RTL403


class ProbeTrainer:
    def __init__(self, probe, lr=0.5):
        self.weights = probe.parameters()  # expect: RTL403
        self.lr = lr

    def fit(self, batches):
        losses = []
        for x, labels in batches:
            self.weights, loss = sgd_step(self.weights, x, labels, self.lr)
            losses.append(float(loss))
        return losses
