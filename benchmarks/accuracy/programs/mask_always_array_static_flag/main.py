"""Self-attention over padded batches; unpadded batches pass an all-ones mask, never None."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("causal",))
def attention(q, k, v, mask, causal):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    if causal:
        scores = jnp.where(jnp.tril(jnp.ones(scores.shape, bool)), scores, -jnp.inf)
    scores = jnp.where(mask[None, :] > 0, scores, -jnp.inf)
    return jax.nn.softmax(scores) @ v


def make_mask(length, valid=None):
    mask = jnp.ones(length)
    if valid is not None:
        mask = jnp.where(jnp.arange(length) < valid, mask, 0.0)
    return mask


def encode(batches, causal=True):
    outputs = []
    for x, valid in batches:
        outputs.append(attention(x, x, x, make_mask(x.shape[0], valid), causal=causal))
    return outputs


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 24).reshape(6, 4)
    encode([(x, None), (x, 4), (x, None), (x, 5)])
