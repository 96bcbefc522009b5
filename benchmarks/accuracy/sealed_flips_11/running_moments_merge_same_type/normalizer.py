"""Input normalizer that keeps running moments while the data pipeline streams batches."""

import jax
import jax.numpy as jnp

import moments


class RunningNormalizer:
    def __init__(self, dim):
        self.stats = moments.empty(dim)
        self._update = jax.jit(self.update_stats)

    @staticmethod
    def update_stats(stats, batch):
        return moments.merge(stats, moments.of_batch(batch))

    def observe(self, batch):
        self.stats = self._update(self.stats, batch)

    def normalize(self, batch):
        count, mean, m2 = self.stats
        return (batch - mean) / jnp.sqrt(m2 / jnp.maximum(count - 1.0, 1.0) + 1e-6)
