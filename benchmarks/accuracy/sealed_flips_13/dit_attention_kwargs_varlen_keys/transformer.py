"""A tiny diffusion transformer block over a packed [text; image] token sequence."""

import jax
import jax.numpy as jnp


def init_params(key, dim=32, text_vocab=100):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    return {
        "embed": 0.02 * jax.random.normal(k1, (text_vocab, dim)),
        "qkv": 0.1 * jax.random.normal(k2, (dim, 3 * dim)),
        "out": 0.1 * jax.random.normal(k3, (dim, dim)),
        "time": 0.1 * jax.random.normal(k4, (dim,)),
    }


def attention(q, k, v, attention_kwargs):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    if "pad_mask" in attention_kwargs:
        keep = attention_kwargs["pad_mask"]
        scores = jnp.where(keep[None, :], scores, -1e9)
    return jax.nn.softmax(scores, axis=-1) @ v


def denoise_block(params, latents, text_ids, t, attention_kwargs):
    text = params["embed"][text_ids]
    tokens = jnp.concatenate([text, latents], axis=0) + t * params["time"]
    q, k, v = jnp.split(tokens @ params["qkv"], 3, axis=-1)
    mixed = attention(q, k, v, attention_kwargs) @ params["out"]
    return latents - 0.1 * mixed[text.shape[0] :]
