"""Train the NNX classifier on synthetic clusters, evaluate it and print a summary.

    python examples/nnx_trainer/train.py

Each line that makes a jitted function re-trace ends with `# expect: RTLxxx`;
examples_fixed/nnx_trainer/ is the same program fixed.
"""

import json

import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx
from nnx_model import MLP, accuracy, predict_proba, train_step


def make_data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    centers = np.array([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.5]], np.float32)
    x = centers[y] + rng.normal(0.0, 0.6, (n, 2)).astype(np.float32)
    return x, y.astype(np.int32)


def batches(x, y, batch_size: int):
    for start in range(0, len(x), batch_size):
        # 90 rows in batches of 32: the last batch has 26 rows, a new shape for train_step.
        yield x[start : start + batch_size], y[start : start + batch_size]  # expect: RTL103


def fit(model, optimizer, x, y, epochs: int):
    history = []
    for _ in range(epochs):
        losses = [float(train_step(model, optimizer, xb, yb)) for xb, yb in batches(x, y, 32)]
        history.append(sum(losses) / len(losses))
    return history


def calibration(model, x):
    out = []
    for step in range(1, 4):
        # A new Python float each time: temperature is static, so every value traces anew.
        temperature = 1.0 / step
        proba = predict_proba(model, x, temperature=temperature)  # expect: RTL202
        out.append(float(proba.max(-1).mean()))
    return out


def class_accuracy(model, x, y):
    # Each class has its own number of rows: accuracy traces once per class.
    return [float(accuracy(model, x[y == c], y[y == c])) for c in range(3)]  # expect: RTL104


def main():
    x, y = make_data(90)
    model = MLP(2, 16, 3, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.05), wrt=nnx.Param)
    history = fit(model, optimizer, x, y, epochs=3)
    summary = {
        "history": history,
        "calibration": calibration(model, jnp.asarray(x)),
        "class_accuracy": class_accuracy(model, x, y),
    }
    print("summary " + json.dumps(summary))


if __name__ == "__main__":
    main()
