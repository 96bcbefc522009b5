"""A bag-of-embeddings classifier."""

import jax
import jax.numpy as jnp


def init(key, vocab, dim):
    return {"embed": jax.random.normal(key, (vocab, dim)) * 0.1, "out": jnp.zeros(dim)}


@jax.jit
def forward(params, batch):
    emb = params["embed"][batch["tokens"]]
    mask = batch.get("mask")
    if mask is None:
        pooled = emb.mean(axis=1)
    else:
        pooled = (emb * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    return pooled @ params["out"]
