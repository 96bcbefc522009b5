"""Keep the k best-scoring valid detections of each image, where k is the number of valid boxes."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("k",))
def top_detections(scores, valid, k):
    masked = jnp.where(valid, scores, -jnp.inf)
    return jax.lax.top_k(masked, k)[0].mean()


def summarise(scores, valid):
    return float(top_detections(scores, valid, k=int(valid.sum())))  # expect: RTL201


def evaluate(images):
    return [summarise(scores, valid) for scores, valid in images]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    images = [(rng.random(8), rng.random(8) > p) for p in (0.3, 0.5, 0.7, 0.5)]
    print(evaluate(images))
