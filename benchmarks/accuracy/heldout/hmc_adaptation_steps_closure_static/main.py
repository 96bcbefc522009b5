"""Posterior of a radioactive-decay model, sampled with jittered-trajectory HMC.

Warm-up runs in rounds: after each round the step size and the average number of
leapfrog steps are tuned from the acceptance rate, then the chain samples.
"""

import jax
import jax.numpy as jnp
import numpy as np

from sampler import hmc_kernel


def make_posterior(times, counts):
    """Log-posterior of (log amplitude, log decay rate) given Poisson counts."""

    def logdensity(theta):
        log_amp, log_rate = theta[0], theta[1]
        expected = jnp.exp(log_amp - jnp.exp(log_rate) * times)
        loglik = jnp.sum(counts * jnp.log(expected) - expected)
        logprior = -0.5 * jnp.sum(theta**2) / 4.0
        return loglik + logprior

    return logdensity


def make_jitter_steps(avg_steps):
    """Uniform number of leapfrog steps in [1, 2 * avg_steps)."""

    def steps_fn(key):
        return jax.random.randint(key, (), 1, 2 * avg_steps)

    return steps_fn


class JitteredHMC:
    def __init__(self, logdensity_fn, step_size=0.05, avg_steps=3):
        self.logdensity_fn = logdensity_fn
        self.step_size = step_size
        self.avg_steps = avg_steps

    def run_block(self, key, position, num_draws):
        steps_fn = make_jitter_steps(self.avg_steps)  # expect: RTL204
        draws, accepts = [], []
        for _ in range(num_draws):
            key, sub = jax.random.split(key)
            position, acc = hmc_kernel(sub, position, self.step_size, self.logdensity_fn, steps_fn)  # expect: RTL204
            draws.append(position)
            accepts.append(float(acc))
        return key, position, np.stack(draws), float(np.mean(accepts))

    def tune(self, acceptance):
        # Crude dual-averaging stand-in: grow the step when accepting too often.
        self.step_size = float(self.step_size * (1.2 if acceptance > 0.75 else 0.8))
        if acceptance > 0.9:
            self.avg_steps = self.avg_steps + 1


def main():
    rng = np.random.default_rng(0)
    times = jnp.linspace(0.0, 5.0, 20)
    counts = jnp.asarray(rng.poisson(30.0 * np.exp(-0.7 * np.asarray(times))), dtype=jnp.float32)
    sampler = JitteredHMC(make_posterior(times, counts))

    key = jax.random.PRNGKey(1)
    position = jnp.array([3.0, -0.5])
    for round_idx in range(3):
        key, position, _, acc = sampler.run_block(key, position, num_draws=4)
        sampler.tune(acc)
        print(f"warm-up round {round_idx}: accept={acc:.2f} step={sampler.step_size:.3f} L={sampler.avg_steps}")

    key, position, draws, acc = sampler.run_block(key, position, num_draws=6)
    print("posterior mean (log A, log k):", draws.mean(axis=0), "accept:", round(acc, 2))


if __name__ == "__main__":
    main()
