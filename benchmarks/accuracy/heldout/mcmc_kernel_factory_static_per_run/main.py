"""Tune a random-walk Metropolis step size for a hierarchical rainfall model."""

import jax
import jax.numpy as jnp
import numpy as np

from sampler import RandomWalkSampler

# monthly rainfall anomalies (mm) at four gauges, standardised
OBS = jnp.asarray(np.array([0.4, -1.1, 0.9, 0.2, 1.3, -0.3], dtype=np.float32))


def log_posterior(theta):
    mu, log_sigma = theta[0], theta[1]
    sigma = jnp.exp(log_sigma)
    loglik = -0.5 * jnp.sum(((OBS - mu) / sigma) ** 2) - OBS.shape[0] * log_sigma
    logprior = -0.5 * mu**2 - 0.5 * log_sigma**2
    return loglik + logprior


def tune_step_size(sampler, key, state, rounds=3, steps_per_round=4, target=0.35):
    step_size = 0.5
    for r in range(rounds):
        key, sub = jax.random.split(key)
        state, rate = sampler.run(sub, state, step_size, steps_per_round)
        print(f"round {r}: step {step_size:.3f} acceptance {rate:.2f}")
        step_size *= float(np.exp(rate - target))
    return state, step_size


def main():
    key = jax.random.PRNGKey(0)
    sampler = RandomWalkSampler(log_posterior, num_chains=8)
    key, k_init = jax.random.split(key)
    state = sampler.init_state(k_init, dim=2)
    state, step_size = tune_step_size(sampler, key, state)
    positions, _ = state
    print("tuned step", round(step_size, 3), "posterior mean", np.asarray(positions.mean(0)))


if __name__ == "__main__":
    main()
