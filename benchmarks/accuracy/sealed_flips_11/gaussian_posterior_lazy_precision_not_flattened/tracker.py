"""A Kalman-style tracker of a drifting 2-D position from noisy fixes."""

import jax
import jax.numpy as jnp

from belief import GaussianBelief


class Tracker:
    def __init__(self, process_noise=0.05, obs_noise=0.2):
        self.q = process_noise * jnp.eye(2)
        self.r = obs_noise * jnp.eye(2)
        self.update = jax.jit(self.assimilate)

    def prior(self):
        return GaussianBelief(jnp.zeros(2), jnp.eye(2))

    def assimilate(self, belief, fix):
        cov = belief.cov + self.q
        gain = cov @ jnp.linalg.inv(cov + self.r)
        posterior = GaussianBelief(belief.loc + gain @ (fix - belief.loc), (jnp.eye(2) - gain) @ cov)
        score = posterior.log_prob(fix)  # reads (and caches) posterior.precision
        return posterior, score
