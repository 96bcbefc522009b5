"""Classify a toy data set and keep a running count of correct predictions across batches."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def predict(w, x):
    return jnp.argmax(x @ w, axis=-1)


@jax.jit
def tally(correct, predictions, labels):
    return correct + jnp.sum(predictions == labels)


def batches(x, y, size):
    for start in range(0, len(x) - size + 1, size):
        yield x[start : start + size], y[start : start + size]


def accuracy(w, x, y, size=16):
    correct = 0  # expect: RTL401
    seen = 0
    for xb, yb in batches(x, y, size):
        correct = tally(correct, predict(w, xb), yb)
        seen += len(yb)
    return int(correct) / seen


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 5)).astype(np.float32)
    w = rng.normal(size=(5, 3)).astype(np.float32)
    y = np.argmax(x @ w + 0.3 * rng.normal(size=(64, 3)), axis=-1).astype(np.int32)
    print(f"accuracy {accuracy(jnp.asarray(w), x, y):.3f}")
