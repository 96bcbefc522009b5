"""A toy decoder: one attention layer over a paged KV pool."""

import jax
import jax.numpy as jnp


def init_params(key, vocab=64, dim=16, max_pos=64):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    scale = dim**-0.5
    return {
        "embed": jax.random.normal(k1, (vocab, dim)) * scale,
        "pos": jax.random.normal(k2, (max_pos, dim)) * scale,
        "wqkv": jax.random.normal(k3, (dim, 3 * dim)) * scale,
        "unembed": jax.random.normal(k4, (dim, vocab)) * scale,
    }


@jax.jit
def decode_forward(params, batch, k_pool, v_pool, req_to_token):
    h = params["embed"][batch.input_ids] + params["pos"][batch.positions]
    q, k, v = jnp.split(h @ params["wqkv"], 3, axis=-1)
    k_pool = k_pool.at[batch.out_cache_loc].set(k)
    v_pool = v_pool.at[batch.out_cache_loc].set(v)
    slots = req_to_token[batch.req_pool_indices]  # (bs, max_ctx)
    keys, values = k_pool[slots], v_pool[slots]
    mask = jnp.arange(slots.shape[1])[None, :] < batch.seq_lens[:, None]
    scores = jnp.einsum("bd,bcd->bc", q, keys) / jnp.sqrt(q.shape[-1])
    probs = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
    out = h + jnp.einsum("bc,bcd->bd", probs, values)
    if batch.recurrent_indices is not None and "conv_state" in params:
        # hybrid models mix in a per-request recurrent state; plain attention models have none
        out = out + params["conv_state"][batch.recurrent_indices]
    logits = out @ params["unembed"]
    return logits, k_pool, v_pool
