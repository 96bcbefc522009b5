"""Online inference: refit the trend every time the sensor reports a new point."""

import jax.numpy as jnp
from model import Observations, fit_posterior_mode


def arrivals():
    for t in range(4, 8):
        yield float(t), 0.5 + 0.3 * t


def run_online(data, stream):
    w = jnp.zeros(2)
    for x, y in stream:
        data.add(x, y)
        w = fit_posterior_mode(data.xs, data.ys, w)
        print(len(data.xs), w)
    return w


if __name__ == "__main__":
    run_online(Observations([0.0, 1.0, 2.0, 3.0], [0.5, 0.8, 1.1, 1.4]), arrivals())
