"""Evaluate a model cube against several exposures taken in the same bands and box."""

import jax
import jax.numpy as jnp
from observation import Observation

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    model_cube = jax.random.uniform(key, (5, 20, 20))
    psf = jnp.outer(jnp.hanning(5), jnp.hanning(5))
    exposures = [
        Observation(jax.random.uniform(jax.random.PRNGKey(k + 1), (3, 12, 12)), 1, 4, 4, 16)
        for k in range(3)
    ]
    for k, obs in enumerate(exposures):
        print(k, round(obs.chi2(model_cube, psf), 3))
