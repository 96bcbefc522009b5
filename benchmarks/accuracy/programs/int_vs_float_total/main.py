"""Estimate a table's total from noisy marginals and normalise each marginal by it."""

import jax
import jax.numpy as jnp
import numpy as np


def estimated_total(measurements):
    estimates = [m.sum() / scale**2 for m, scale in measurements]
    weights = [1.0 / scale**2 for _, scale in measurements]
    total = float(np.dot(estimates, weights) / np.sum(weights))
    return max(1, total)  # expect: RTL402


@jax.jit
def normalise(marginal, total):
    return jnp.clip(marginal, 0.0) / total


def fit(groups):
    return [
        [normalise(jnp.asarray(m), estimated_total(group)) for m, _ in group] for group in groups
    ]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    big = [(rng.random(4) * 10.0, 1.0), (rng.random(4) * 12.0, 2.0)]
    tiny = [(rng.random(4) * 0.01, 1.0)]
    fit([big, tiny])
