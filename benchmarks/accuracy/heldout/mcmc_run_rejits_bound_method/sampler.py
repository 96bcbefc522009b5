"""A small random-walk Metropolis sampler with a run() method, in the style of an MCMC class."""

import jax
import jax.numpy as jnp


class RandomWalkMCMC:
    def __init__(self, log_density, num_samples=50, step_size=0.05):
        self.log_density = log_density
        self.num_samples = num_samples
        self.step_size = step_size
        self.samples = None

    def _sample_chain(self, key, init, data):
        def step(carry, key):
            x, lp = carry
            k1, k2 = jax.random.split(key)
            proposal = x + self.step_size * jax.random.normal(k1, x.shape)
            lp_proposal = self.log_density(proposal, data)
            accept = jnp.log(jax.random.uniform(k2)) < lp_proposal - lp
            x = jnp.where(accept, proposal, x)
            lp = jnp.where(accept, lp_proposal, lp)
            return (x, lp), x

        keys = jax.random.split(key, self.num_samples)
        _, xs = jax.lax.scan(step, (init, self.log_density(init, data)), keys)
        return xs

    def run(self, key, init, data):
        sample_fn = jax.jit(self._sample_chain)  # expect: RTL301
        self.samples = sample_fn(key, init, data)
        return self.samples

    def posterior_mean(self):
        return jnp.mean(self.samples[self.num_samples // 2 :], axis=0)
