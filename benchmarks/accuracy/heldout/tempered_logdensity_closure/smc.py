"""Tempered sequential Monte Carlo: move particles from the prior to the posterior."""

import jax
from kernels import rmh_move


def tempered(logprior_fn, loglikelihood_fn, lmbda):
    def logdensity(x):
        return logprior_fn(x) + lmbda * loglikelihood_fn(x)

    return logdensity


class TemperedSMC:
    def __init__(self, logprior_fn, loglikelihood_fn, step_size=0.3, num_mcmc_steps=2):
        self.logprior_fn = logprior_fn
        self.loglikelihood_fn = loglikelihood_fn
        self.step_size = step_size
        self.num_mcmc_steps = num_mcmc_steps

    def reweight_and_resample(self, key, particles, delta):
        log_weights = delta * jax.vmap(self.loglikelihood_fn)(particles)
        idx = jax.random.categorical(key, log_weights, shape=(particles.shape[0],))
        return particles[idx]

    def mutate(self, key, particles, lmbda):
        target = tempered(self.logprior_fn, self.loglikelihood_fn, lmbda)  # expect: RTL204
        for _ in range(self.num_mcmc_steps):
            key, sub = jax.random.split(key)
            keys = jax.random.split(sub, particles.shape[0])
            particles = rmh_move(keys, particles, logdensity_fn=target, step_size=self.step_size)  # expect: RTL204
        return particles

    def run(self, key, particles, schedule):
        previous = 0.0
        for lmbda in schedule:
            key, key_resample, key_move = jax.random.split(key, 3)
            particles = self.reweight_and_resample(key_resample, particles, lmbda - previous)
            particles = self.mutate(key_move, particles, lmbda)
            previous = lmbda
        return particles
