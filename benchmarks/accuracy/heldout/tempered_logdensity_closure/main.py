"""Posterior of a Gaussian mean by tempering from a wide prior."""

import jax
import jax.numpy as jnp
from smc import TemperedSMC

OBSERVATIONS = jnp.array([1.9, 2.3, 2.1, 1.7, 2.4])


def logprior(x):
    return -0.5 * jnp.sum(x**2) / 9.0


def loglikelihood(x):
    return -0.5 * jnp.sum((OBSERVATIONS - x[0]) ** 2) / 0.25


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    key_init, key_run = jax.random.split(key)
    particles = 3.0 * jax.random.normal(key_init, (64, 1))
    sampler = TemperedSMC(logprior, loglikelihood)
    posterior = sampler.run(key_run, particles, schedule=[0.1, 0.3, 0.6, 1.0])
    print(float(posterior.mean()), float(posterior.std()))
