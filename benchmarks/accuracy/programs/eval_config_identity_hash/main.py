"""Evaluation rebuilds its settings object on every call and passes it to a jitted metric as static."""

from functools import partial

import jax
import jax.numpy as jnp


class EvalSettings:
    def __init__(self, threshold, top_k):
        self.threshold = threshold
        self.top_k = top_k


@partial(jax.jit, static_argnums=(2,))
def precision_at_k(scores, labels, settings):
    top = jnp.argsort(-scores)[: settings.top_k]
    return jnp.mean((labels[top] > settings.threshold).astype(jnp.float32))


def evaluate(scores, labels):
    settings = EvalSettings(threshold=0.5, top_k=3)
    return float(precision_at_k(scores, labels, settings))  # expect: RTL204


def train(epochs=3):
    scores = jnp.linspace(0.0, 1.0, 8)
    labels = (scores > 0.4).astype(jnp.float32)
    for epoch in range(epochs):
        scores = scores * 0.9
        print(epoch, evaluate(scores, labels))


if __name__ == "__main__":
    train()
