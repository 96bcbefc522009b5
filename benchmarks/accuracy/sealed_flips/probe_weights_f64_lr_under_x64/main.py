"""Fit the probe with a decaying learning rate read from a NumPy schedule."""

import jax
import numpy as np

jax.config.update("jax_enable_x64", True)  # the feature extractor needs double precision

from probe import init_probe, sgd_step  # noqa: E402


def schedule(steps, base=0.5):
    return base * np.exp(-0.1 * np.arange(steps))  # float64 NumPy values


def main(steps=4):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 8)).astype(np.float32)
    labels = rng.integers(0, 3, size=16)
    params = init_probe(jax.random.PRNGKey(0), 8, 3)
    for lr in schedule(steps):
        params = sgd_step(params, x, labels, lr)
    print(params["w"].dtype)


if __name__ == "__main__":
    main()
