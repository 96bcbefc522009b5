"""Gather the pixels above a threshold, padded to a fixed count, and summarise them."""

import jax
import jax.numpy as jnp
import numpy as np

MAX_HITS = 32


@jax.jit
def hit_summary(image, rows, cols, valid):
    values = image[rows, cols] * valid
    return values.sum() / jnp.maximum(valid.sum(), 1.0)


@jax.jit
def bright_pixels(image, threshold):
    rows, cols = jnp.nonzero(image > threshold, size=MAX_HITS, fill_value=0)
    valid = (jnp.arange(MAX_HITS) < jnp.sum(image > threshold)).astype(jnp.float32)
    return rows, cols, valid


def scan_frames(frames, threshold=0.8):
    return [float(hit_summary(f, *bright_pixels(f, threshold))) for f in frames]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    frames = [jnp.asarray(rng.random((10, 10)), jnp.float32) for _ in range(4)]
    print(scan_frames(frames))
