"""One decoder block. Like an autocast region, the block computes in bfloat16 to save bandwidth."""

import jax
import jax.numpy as jnp

COMPUTE_DTYPE = jnp.bfloat16


def rms_norm(x, scale):
    x32 = x.astype(jnp.float32)
    return (x32 * jax.lax.rsqrt(jnp.mean(x32 * x32, axis=-1, keepdims=True) + 1e-6)) * scale


def init_block(key, d_model):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "norm": jnp.ones((d_model,)),
        "mix": jax.random.normal(k1, (d_model, d_model)) / jnp.sqrt(d_model),
        "up": jax.random.normal(k2, (d_model, 4 * d_model)) / jnp.sqrt(d_model),
        "down": jax.random.normal(k3, (4 * d_model, d_model)) / jnp.sqrt(4 * d_model),
    }


def block_forward(params, h):
    x = rms_norm(h, params["norm"]).astype(COMPUTE_DTYPE)
    w = jax.tree.map(lambda p: p.astype(COMPUTE_DTYPE), params)
    causal = jnp.tril(jnp.ones((h.shape[1], h.shape[1]), COMPUTE_DTYPE))
    mixed = jnp.einsum("ts,bsd->btd", causal / causal.sum(-1, keepdims=True), x @ w["mix"])
    hidden = jax.nn.gelu(mixed @ w["up"]) @ w["down"]
    return h + hidden.astype(h.dtype)
