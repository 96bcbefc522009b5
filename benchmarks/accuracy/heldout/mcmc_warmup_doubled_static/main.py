"""Random-walk Metropolis for the mean and scale of a set of measurements, re-run
with a longer warmup until the split R-hat looks converged."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

NUM_CHAINS = 4


def log_density(theta, y):
    mu, log_sigma = theta[..., 0:1], theta[..., 1:2]
    prior = -0.5 * mu[..., 0] ** 2 / 10.0**2 - 0.5 * log_sigma[..., 0] ** 2
    lik = jnp.sum(-0.5 * ((y - mu) * jnp.exp(-log_sigma)) ** 2 - log_sigma, axis=-1)
    return prior + lik


@partial(jax.jit, static_argnames=("num_warmup", "num_samples"))
def run_chains(key, init, y, step_size, num_warmup, num_samples):
    def mh_step(carry, inputs):
        theta, lp, scale = carry
        i, k = inputs
        k_prop, k_acc = jax.random.split(k)
        proposal = theta + scale[:, None] * jax.random.normal(k_prop, theta.shape)
        lp_prop = log_density(proposal, y)
        accept = jnp.log(jax.random.uniform(k_acc, lp.shape)) < lp_prop - lp
        theta = jnp.where(accept[:, None], proposal, theta)
        lp = jnp.where(accept, lp_prop, lp)
        adapt = jnp.exp(0.05 * (accept.astype(jnp.float32) - 0.3))
        scale = jnp.where(i < num_warmup, scale * adapt, scale)
        return (theta, lp, scale), (theta, accept)

    total = num_warmup + num_samples
    scale0 = jnp.full(init.shape[:1], step_size)
    steps = (jnp.arange(total), jax.random.split(key, total))
    _, (draws, accepts) = jax.lax.scan(mh_step, (init, log_density(init, y), scale0), steps)
    draws = jnp.swapaxes(draws[num_warmup:], 0, 1)
    return draws, accepts[num_warmup:].mean(axis=0)


def split_rhat(draws):
    draws = np.asarray(draws)
    half = draws.shape[1] // 2
    chains = np.concatenate([draws[:, :half], draws[:, half : 2 * half]], axis=0)
    n = chains.shape[1]
    within = chains.var(axis=1, ddof=1).mean(axis=0)
    between = n * chains.mean(axis=1).var(axis=0, ddof=1)
    return np.sqrt(((n - 1) / n * within + between / n) / within)


class AdaptiveRunner:
    def __init__(self, y, num_warmup=50, num_samples=100, target_rhat=1.001):
        self.y = jnp.asarray(y)
        self.num_warmup = num_warmup
        self.num_samples = num_samples
        self.target_rhat = target_rhat

    def sample(self, key):
        init = jnp.tile(jnp.array([5.0, 1.0]), (NUM_CHAINS, 1))
        return run_chains(key, init, self.y, jnp.float32(0.5), num_warmup=self.num_warmup, num_samples=self.num_samples)  # expect: RTL201

    def run_until_converged(self, key, max_tries=3):
        for attempt in range(max_tries):
            key, sub = jax.random.split(key)
            draws, acc = self.sample(sub)
            rhat = split_rhat(draws).max()
            print(f"warmup={self.num_warmup}: max R-hat {rhat:.4f}, acceptance {float(acc.mean()):.2f}")
            if rhat < self.target_rhat:
                break
            self.num_warmup *= 2
        return draws


if __name__ == "__main__":
    y = np.random.default_rng(3).normal(2.0, 0.7, size=40).astype(np.float32)
    AdaptiveRunner(y).run_until_converged(jax.random.PRNGKey(0))
