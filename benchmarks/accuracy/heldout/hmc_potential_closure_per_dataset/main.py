"""Bayesian linear regression of reaction rate on temperature, refit for every lab batch.

Each batch of measurements gets its own log-posterior, built as a closure over that batch's
data, and the closure is handed to the HMC sampler.
"""

import jax
import jax.numpy as jnp
import numpy as np

from sampler import HMC

PRIOR_SCALE = 5.0
NOISE = 0.3


def make_potential(temps, rates):
    """Negative log posterior of (intercept, slope) for one batch."""

    def potential(theta):
        intercept, slope = theta[0], theta[1]
        pred = intercept + slope * temps
        loglik = -0.5 * jnp.sum(((rates - pred) / NOISE) ** 2)
        logprior = -0.5 * jnp.sum((theta / PRIOR_SCALE) ** 2)
        return -(loglik + logprior)

    return potential


def lab_batches(n_batches, n_points, seed=0):
    rng = np.random.default_rng(seed)
    for b in range(n_batches):
        temps = np.linspace(0.0, 1.0, n_points).astype(np.float32)
        rates = (0.5 + 0.2 * b) + 1.5 * temps + rng.normal(0, NOISE, n_points)
        yield jnp.asarray(temps), jnp.asarray(rates, dtype=jnp.float32)


def summarise(draws, burn=3):
    kept = draws[burn:]
    return kept.mean(axis=0), kept.std(axis=0)


def main():
    sampler = HMC(step_size=0.05, n_leapfrog=4)
    key = jax.random.PRNGKey(42)
    init = jnp.zeros(2, dtype=jnp.float32)
    for b, (temps, rates) in enumerate(lab_batches(n_batches=4, n_points=16)):
        key, sub = jax.random.split(key)
        potential = make_potential(temps, rates)
        draws, acc_rate = sampler.run(potential, init, sub, num_samples=8)  # expect: RTL204
        mean, std = summarise(draws)
        print(f"batch {b}: intercept={float(mean[0]):.2f} slope={float(mean[1]):.2f} "
              f"acc={acc_rate:.2f}")


if __name__ == "__main__":
    main()
