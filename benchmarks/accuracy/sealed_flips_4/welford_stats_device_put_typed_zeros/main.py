"""Streaming mean and variance of sensor readings (Welford's update merged over chunks), kept on device."""

import jax
import jax.numpy as jnp
import numpy as np


def initial_stats():
    # count, mean, sum of squared deviations: placed on the device once, then carried between chunks
    return jax.device_put((np.int32(0), np.float32(0.0), np.float32(0.0)))


@jax.jit
def merge_chunk(stats, chunk):
    count, mean, m2 = stats
    n = chunk.shape[0]
    chunk_mean = jnp.mean(chunk)
    chunk_m2 = jnp.sum((chunk - chunk_mean) ** 2)
    total = count + n
    delta = chunk_mean - mean
    mean = mean + delta * n / total
    m2 = m2 + chunk_m2 + delta**2 * count * n / total
    return total, mean, m2


def read_chunks(rng, n_chunks, size):
    drift = np.linspace(0.0, 0.5, n_chunks, dtype=np.float32)
    for i in range(n_chunks):
        yield (20.0 + drift[i] + rng.standard_normal(size)).astype(np.float32)


def main(n_chunks=16, size=128, seed=0):
    stats = initial_stats()
    for chunk in read_chunks(np.random.default_rng(seed), n_chunks, size):
        stats = merge_chunk(stats, chunk)
    count, mean, m2 = stats
    print(f"{int(count)} readings, mean {float(mean):.3f}, std {float(jnp.sqrt(m2 / count)):.3f}")


if __name__ == "__main__":
    main()
