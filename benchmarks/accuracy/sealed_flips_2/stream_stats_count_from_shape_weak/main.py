"""Running mean and variance of a sensor stream whose batches carry a validity mask."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class RunningStats(NamedTuple):
    count: jax.Array
    mean: jax.Array
    m2: jax.Array


def start_stats(first_batch):
    """Seed the statistics with a first batch that is known to be all valid."""
    count = jnp.array(first_batch.shape[0])  # expect: RTL401
    mean = first_batch.mean(axis=0)
    m2 = ((first_batch - mean) ** 2).sum(axis=0)
    return RunningStats(count, mean, m2)


@jax.jit
def merge_batch(stats, batch, valid):
    """Chan et al.'s parallel update, counting only the valid rows."""
    n = valid.sum()
    w = valid[:, None].astype(batch.dtype)
    batch_mean = (w * batch).sum(axis=0) / jnp.maximum(n, 1)
    batch_m2 = (w * (batch - batch_mean) ** 2).sum(axis=0)
    total = stats.count + n
    delta = batch_mean - stats.mean
    mean = stats.mean + delta * n / total
    m2 = stats.m2 + batch_m2 + delta**2 * stats.count * n / total
    return RunningStats(total, mean, m2)


def sensor_batches(n_batches=6, size=32, channels=3, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_batches):
        batch = rng.normal(loc=2.0, size=(size, channels)).astype(np.float32)
        valid = rng.random(size) > 0.1  # dropped samples
        yield jnp.asarray(batch), jnp.asarray(valid)


def main():
    batches = sensor_batches()
    first, _ = next(batches)
    stats = start_stats(first)
    for batch, valid in batches:
        stats = merge_batch(stats, batch, valid)
    print("samples", int(stats.count), "mean", stats.mean, "var", stats.m2 / (stats.count - 1))


if __name__ == "__main__":
    main()
