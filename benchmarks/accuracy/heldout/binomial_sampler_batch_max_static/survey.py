"""A sero-prevalence survey simulator: each clinic tests a different number of people."""

import jax.numpy as jnp
import numpy as np
from sampler import binomial


class SeroSurvey:
    def __init__(self, prevalence):
        self.prevalence = prevalence

    def simulate(self, key, batch):
        tested = jnp.asarray(batch["tested"])
        p = jnp.full(tested.shape, self.prevalence, dtype=jnp.float32)
        n_max = int(np.max(batch["tested"]))
        return binomial(key, tested, p, n_max=n_max)  # expect: RTL201


def clinic_batches(n_batches, clinics_per_batch, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_batches):
        yield {"tested": rng.integers(5, 40, size=clinics_per_batch)}
