"""Fit y = sin(x) with mini-batches for a few epochs."""

import jax
import numpy as np
from data import Loader
from train import init, make_step


def fit(epochs=3, batch_size=4):
    x = np.linspace(-3.0, 3.0, 10, dtype=np.float32)[:, None]
    y = np.sin(x[:, 0])
    params = init(jax.random.PRNGKey(0), [1, 8, 1])
    loader = Loader(x, y, batch_size)
    for epoch in range(epochs):
        for xb, yb in loader:
            params, loss = make_step(params, xb, yb, 0.05)
        print(epoch, float(loss))
    return params


if __name__ == "__main__":
    fit()
