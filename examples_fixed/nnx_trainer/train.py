"""Train the NNX classifier on synthetic clusters, evaluate it and print a summary.

    python examples/nnx_trainer/train.py

The program of examples/nnx_trainer/ with its re-trace bugs fixed: every jitted function traces
once.
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
    # Full batches only: the 26 rows left over are dropped.
    full = len(x) // batch_size * batch_size
    xs = x[:full].reshape(-1, batch_size, *x.shape[1:])
    ys = y[:full].reshape(-1, batch_size)
    yield from zip(xs, ys, strict=True)


def fit(model, optimizer, x, y, epochs: int):
    history = []
    for _ in range(epochs):
        losses = [float(train_step(model, optimizer, xb, yb)) for xb, yb in batches(x, y, 32)]
        history.append(sum(losses) / len(losses))
    return history


def calibration(model, x):
    out = []
    for step in range(1, 4):
        # A traced scalar of one dtype: one trace for every temperature.
        temperature = jnp.asarray(1.0 / step, jnp.float32)
        proba = predict_proba(model, x, temperature=temperature)
        out.append(float(proba.max(-1).mean()))
    return out


def class_accuracy(model, x, y):
    # Every row, weighted by class membership: one shape for all classes.
    return [float(accuracy(model, x, y, (y == c).astype(np.float32))) for c in range(3)]


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
