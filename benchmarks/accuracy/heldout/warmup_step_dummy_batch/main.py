"""Fit a small ensemble of networks with the same architecture, one fit() each."""

import jax
from data import Loader, regression_data
from training import fit


def init(key, hidden=8):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (2, hidden)) * 0.5,
        "b1": jax.numpy.zeros(hidden),
        "w2": jax.random.normal(k2, (hidden, 1)) * 0.5,
    }


if __name__ == "__main__":
    loader = Loader(*regression_data())
    for member in range(2):
        params, loss, seconds = fit(init(jax.random.PRNGKey(member)), loader)
        print(member, round(loss, 4), seconds > 0)
