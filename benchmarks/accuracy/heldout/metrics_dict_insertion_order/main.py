"""Aggregate per-batch metrics; train and eval build the metrics dict in different orders."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def merge_metrics(running, new):
    return {name: running[name] + new[name] for name in running}


@jax.jit
def step(w, x, y):
    err = x @ w - y
    grad = x.T @ err / len(y)
    return w - 0.1 * grad, jnp.mean(err**2), jnp.mean(jnp.abs(err))


def train(w, data):
    totals = {"loss": jnp.zeros(()), "mae": jnp.zeros(())}
    for x, y in data:
        w, loss, mae = step(w, x, y)
        totals = merge_metrics(totals, {"loss": loss, "mae": mae})
    return w, totals


def evaluate(w, data):
    totals = {"mae": jnp.zeros(()), "loss": jnp.zeros(())}
    for x, y in data:
        err = x @ w - y
        batch = {}
        batch["mae"] = jnp.mean(jnp.abs(err))
        batch["loss"] = jnp.mean(err**2)
        totals = merge_metrics(totals, batch)
    return totals


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    data = []
    for _ in range(4):
        x = rng.normal(size=(8, 3)).astype(np.float32)
        data.append((x, x @ np.array([0.5, -1.0, 2.0], np.float32)))
    w, train_totals = train(jnp.zeros(3), data)
    print(train_totals, evaluate(w, data))
