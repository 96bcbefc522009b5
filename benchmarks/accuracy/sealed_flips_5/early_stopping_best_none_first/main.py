"""Fit a small autoregressive forecaster of a noisy seasonal series and stop when validation stops improving."""

import jax
import jax.numpy as jnp
import numpy as np

from monitor import EarlyStopping

LAGS = 8


def windows(series):
    x = np.stack([series[i : len(series) - LAGS + i] for i in range(LAGS)], axis=1)
    return jnp.asarray(x), jnp.asarray(series[LAGS:])


def mse(weights, x, y):
    return jnp.mean((x @ weights - y) ** 2)


@jax.jit
def epoch(weights, x, y):
    grads = jax.grad(mse)(weights, x, y)
    return weights - 0.05 * grads


def main(n_epochs=200, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(600)
    series = (np.sin(2 * np.pi * t / 24) + 0.3 * rng.standard_normal(t.size)).astype(np.float32)
    x_train, y_train = windows(series[:450])
    x_val, y_val = windows(series[450:])
    weights = jnp.zeros(LAGS)
    stopper = EarlyStopping(patience=5)
    for i in range(n_epochs):
        weights = epoch(weights, x_train, y_train)
        if stopper.update(mse(weights, x_val, y_val)):
            break
    print(f"stopped after {i + 1} epochs, best validation mse {float(stopper.best):.4f}")


if __name__ == "__main__":
    main()
