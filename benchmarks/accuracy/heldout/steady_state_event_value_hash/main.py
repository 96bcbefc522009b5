"""Fit production rates: every optimizer iteration re-simulates all conditions."""

import jax.numpy as jnp
from model import run_simulations

CONDITIONS = [jnp.array([1.0, 0.5, 0.3]), jnp.array([2.0, 0.5, 0.3]), jnp.array([1.0, 0.8, 0.1])]
OBSERVED_B = jnp.array([0.55, 1.1, 0.12])


def loss(scale, y0):
    steady = run_simulations([k * jnp.array([scale, 1.0, 1.0]) for k in CONDITIONS], y0)
    return float(jnp.sum((jnp.stack([y[1] for y in steady]) - OBSERVED_B) ** 2))


if __name__ == "__main__":
    y0 = jnp.zeros(2)
    scale = 1.0
    for iteration in range(4):
        step = 0.05
        gradient = (loss(scale + step, y0) - loss(scale - step, y0)) / (2 * step)
        scale = scale - 0.1 * gradient
        print(iteration, scale, loss(scale, y0))
