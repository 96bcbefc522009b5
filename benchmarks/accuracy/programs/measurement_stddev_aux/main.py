"""Estimate a distribution from noisy linear measurements, each with its own noise level."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class LinearMeasurement:
    values: jax.Array
    stddev: float


jax.tree_util.register_dataclass(LinearMeasurement, data_fields=["values"], meta_fields=["stddev"])


@jax.jit
def measurement_loss(estimate, measurement):
    return jnp.sum((estimate - measurement.values) ** 2) / (2.0 * measurement.stddev**2)


def fit(measurements, steps=10, lr=0.1):
    estimate = jnp.zeros(4)
    grad = jax.grad(lambda e, m: measurement_loss(e, m))
    for _ in range(steps):
        for m in measurements:
            estimate = estimate - lr * grad(estimate, m)
    return estimate


def measure(truth, noise_levels, key):
    keys = jax.random.split(key, len(noise_levels))
    return [
        LinearMeasurement(truth + s * jax.random.normal(k, truth.shape), stddev=s)  # expect: RTL202
        for k, s in zip(keys, noise_levels)
    ]


if __name__ == "__main__":
    truth = jnp.array([0.1, 0.2, 0.3, 0.4])
    data = measure(truth, [1.0, 2.0, 0.5], jax.random.PRNGKey(0))
    print(fit(data))
    print([float(measurement_loss(truth, m)) for m in data])
