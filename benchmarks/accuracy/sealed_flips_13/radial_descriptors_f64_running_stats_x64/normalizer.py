"""Running per-feature mean and variance of descriptors (Welford), for standardizing model inputs."""

import jax
import jax.numpy as jnp


def update_stats(stats, batch):
    count = stats["count"] + batch.shape[0]
    delta = batch - stats["mean"]
    mean = stats["mean"] + jnp.sum(delta, axis=0) / count
    m2 = stats["m2"] + jnp.sum(delta * (batch - mean), axis=0)
    return {"count": count, "mean": mean, "m2": m2}


class RunningStandardizer:
    def __init__(self, n_features, dtype=jnp.float32):
        self.stats = {
            "count": jnp.int32(0),
            "mean": jnp.zeros(n_features, dtype),  # expect: RTL402
            "m2": jnp.zeros(n_features, dtype),
        }
        self._update = jax.jit(update_stats)

    def update(self, batch):
        self.stats = self._update(self.stats, batch)

    def variance(self):
        return self.stats["m2"] / jnp.maximum(self.stats["count"] - 1, 1)
