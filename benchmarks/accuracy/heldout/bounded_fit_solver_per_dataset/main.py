"""Fit every assay plate separately, each with a freshly configured solver."""

import jax.numpy as jnp
import numpy as np
from likelihood import neg_log_likelihood
from solver import BoundedMinimize


def fit_plate(dose, response):
    solver = BoundedMinimize(neg_log_likelihood, lower=jnp.array([0.0, 0.01]), upper=jnp.array([10.0, 5.0]))
    return solver.run(jnp.array([1.0, 1.0]), dose, response)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    dose = jnp.linspace(0.1, 4.0, 16)
    for plate in range(3):
        response = 3.0 * dose / (0.8 + dose) + 0.05 * jnp.asarray(rng.standard_normal(16), jnp.float32)
        theta, value = fit_plate(dose, response)
        print(plate, np.round(np.asarray(theta), 3), round(float(value), 4))
