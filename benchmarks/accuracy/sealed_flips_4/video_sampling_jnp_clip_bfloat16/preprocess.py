"""Frame scaling for the video tokenizer, which runs in bfloat16."""

import jax.numpy as jnp

DTYPE = jnp.bfloat16


def training_frames(clips):
    return jnp.asarray(clips, dtype=DTYPE) / 255


def sampling_frames(clips):
    # the sampler reads ground-truth prefixes from the same loader and keeps them in [0, 1]
    return jnp.clip(jnp.asarray(clips, dtype=DTYPE) / 255, 0.0, 1.0)
