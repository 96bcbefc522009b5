"""Reversible-jump MCMC over polynomial degree: each proposal may add or drop a coefficient."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def log_likelihood(coeffs, x, y):
    return -0.5 * jnp.sum((jnp.polyval(coeffs, x) - y) ** 2)


def propose(rng, n_coeffs):
    return rng.normal(0.0, 1.0, size=n_coeffs)  # expect: RTL105


def rjmcmc(x, y, iterations=12, seed=0):
    rng = np.random.default_rng(seed)
    n_coeffs = 2
    current = float(log_likelihood(propose(rng, n_coeffs), x, y))
    for _ in range(iterations):
        candidate_n = int(np.clip(n_coeffs + rng.choice([-1, 1]), 1, 4))
        candidate = float(log_likelihood(propose(rng, candidate_n), x, y))
        if np.log(rng.uniform()) < candidate - current:
            n_coeffs, current = candidate_n, candidate
    return n_coeffs


if __name__ == "__main__":
    x = np.linspace(-1.0, 1.0, 20)
    print(rjmcmc(x, 1.0 - 2.0 * x**2))
