"""A tiny MCMC driver that compiles its chain once and reuses it for new data of the same size."""

from functools import partial

import jax
import jax.numpy as jnp


def regression_log_density(theta, x, y):
    prior = -0.5 * jnp.sum(theta**2)
    residual = y - (theta[0] + theta[1] * x)
    return prior - 0.5 * jnp.sum(residual**2)


def sample_chain(key, init, x, y, log_density, num_samples, step_size):
    def body(carry, k):
        theta, logp = carry
        k_prop, k_acc = jax.random.split(k)
        proposal = theta + step_size * jax.random.normal(k_prop, theta.shape)
        logp_prop = log_density(proposal, x, y)
        accept = jnp.log(jax.random.uniform(k_acc)) < logp_prop - logp
        theta = jnp.where(accept, proposal, theta)
        logp = jnp.where(accept, logp_prop, logp)
        return (theta, logp), theta

    _, samples = jax.lax.scan(body, (init, log_density(init, x, y)), jax.random.split(key, num_samples))
    return samples


class MCMC:
    def __init__(self, log_density, num_samples=200, step_size=0.2):
        self.num_samples = num_samples
        self._run_chain = jax.jit(
            partial(sample_chain, log_density=log_density, num_samples=num_samples, step_size=step_size)
        )

    def run(self, key, x, y):
        init = jnp.zeros(2)
        self.samples = self._run_chain(key, init, x, y)
        return self

    def posterior_mean(self):
        return self.samples[self.num_samples // 2 :].mean(axis=0)
