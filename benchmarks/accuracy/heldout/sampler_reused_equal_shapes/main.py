"""Bootstrap: rerun the same sampler on resampled datasets of the original size."""

import jax
import jax.numpy as jnp
from inference import MCMC, regression_log_density


def bootstrap(mcmc, x, y, num_resamples=3, seed=0):
    key = jax.random.PRNGKey(seed)
    means = []
    for _ in range(num_resamples):
        key, k_idx, k_run = jax.random.split(key, 3)
        idx = jax.random.randint(k_idx, (x.shape[0],), 0, x.shape[0])
        means.append(mcmc.run(k_run, x[idx], y[idx]).posterior_mean())
    return jnp.stack(means)


if __name__ == "__main__":
    x = jnp.linspace(-1.0, 1.0, 30)
    y = 0.5 + 2.0 * x
    print(bootstrap(MCMC(regression_log_density), x, y))
