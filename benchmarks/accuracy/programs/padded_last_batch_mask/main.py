"""Per-block loudness of an audio clip; the last block is zero-padded to the block size and masked."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def block_loudness(block, valid):
    rms = jnp.sqrt(jnp.mean(block**2, axis=-1))
    return jnp.sum(rms * valid) / jnp.maximum(jnp.sum(valid), 1.0)


def padded_blocks(samples, size):
    for start in range(0, len(samples), size):
        block = samples[start : start + size]
        missing = size - len(block)
        valid = np.concatenate([np.ones(len(block)), np.zeros(missing)]).astype(np.float32)
        yield np.pad(block, ((0, missing), (0, 0))), valid


def loudness(samples, size=16):
    return [float(block_loudness(b, v)) for b, v in padded_blocks(samples, size)]


if __name__ == "__main__":
    samples = np.random.default_rng(0).normal(size=(40, 2)).astype(np.float32)
    print(loudness(samples))
