"""Posterior of a Gaussian mean and log-scale with a hand-rolled HMC warmup and sampling loop."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from sampler import DualAveraging, adapt, as_param, make_kernel

DATA = jnp.asarray(np.random.default_rng(0).normal(1.5, 0.7, size=32), dtype=jnp.float32)


def potential(theta):
    mu, log_sigma = theta[0], theta[1]
    sigma = jnp.exp(log_sigma)
    loglik = jnp.sum(-0.5 * ((DATA - mu) / sigma) ** 2 - log_sigma)
    logprior = -0.5 * mu**2 / 10.0 - 0.5 * log_sigma**2
    return -(loglik + logprior)


def warmup(init, hmc_step, key, num_warmup, step_size=0.1):
    state = init([0.0, 0.0])
    da = DualAveraging(math.log(step_size), 0.0, 0.0, 0)
    for _ in range(num_warmup):
        key, sub = jax.random.split(key)
        state, accept_prob = hmc_step(state, sub, as_param(math.exp(da.log_step)))
        da = adapt(da, accept_prob, mu=math.log(10 * step_size))
    return state, math.exp(da.log_step_avg), key


def sample(hmc_step, state, key, step_size, num_samples):
    eps = as_param(step_size)
    draws = []
    for _ in range(num_samples):
        key, sub = jax.random.split(key)
        state, _ = hmc_step(state, sub, eps)
        draws.append(state.position)
    return jnp.stack(draws)


def main():
    init, hmc_step = make_kernel(potential)
    state, eps, key = warmup(init, hmc_step, jax.random.key(1), num_warmup=5)
    draws = sample(hmc_step, state, key, eps, num_samples=4)
    mu_hat, sigma_hat = float(draws[:, 0].mean()), float(jnp.exp(draws[:, 1]).mean())
    print(f"adapted step {eps:.3f}; posterior mean mu={mu_hat:.2f}, sigma={sigma_hat:.2f}")


if __name__ == "__main__":
    main()
