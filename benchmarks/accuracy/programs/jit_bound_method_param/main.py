"""Batch inference with a model object handed to a generic prediction helper."""

import jax
import jax.numpy as jnp


class LinearModel:
    def __init__(self, weights, bias):
        self.weights = weights
        self.bias = bias

    def predict(self, x):
        return x @ self.weights + self.bias


def predict_batches(model, batches):
    outputs = []
    for batch in batches:
        outputs.append(jax.jit(model.predict)(batch))  # expect: RTL301
    return outputs


if __name__ == "__main__":
    model = LinearModel(jnp.ones((3, 2)), jnp.zeros(2))
    predict_batches(model, [jnp.ones((4, 3)) * k for k in range(4)])
