"""A one-layer causal attention model over token embeddings."""

import jax
import jax.numpy as jnp


def init(key, vocab=16, dim=8):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "embed": jax.random.normal(k1, (vocab, dim)) * 0.5,
        "qkv": jax.random.normal(k2, (dim, 3 * dim)) * 0.3,
        "out": jax.random.normal(k3, (dim, vocab)) * 0.3,
    }


@jax.jit
def next_token_logits(params, tokens):
    h = params["embed"][tokens]
    q, k, v = jnp.split(h @ params["qkv"], 3, axis=-1)
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    causal = jnp.tril(jnp.ones((tokens.shape[0], tokens.shape[0]), dtype=bool))
    attn = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
    return (attn @ v)[-1] @ params["out"]
