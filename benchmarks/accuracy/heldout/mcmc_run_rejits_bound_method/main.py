"""Refit the model every day on that day's counts (same number of observations each day)."""

import jax
import jax.numpy as jnp
import numpy as np
from model import log_density
from sampler import RandomWalkMCMC


def day_of_counts(day, n=30):
    rng = np.random.default_rng(day)
    x = rng.normal(size=n).astype(np.float32)
    counts = rng.poisson(np.exp(0.5 + 0.3 * x)).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(counts)


if __name__ == "__main__":
    mcmc = RandomWalkMCMC(log_density)
    init = jnp.zeros(2, dtype=jnp.float32)
    for day in range(3):
        mcmc.run(jax.random.PRNGKey(day), init, day_of_counts(day))
        print(day, np.round(np.asarray(mcmc.posterior_mean()), 3))
