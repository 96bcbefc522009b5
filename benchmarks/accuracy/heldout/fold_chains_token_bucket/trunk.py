"""A tiny stand-in for the trunk: pairwise logits from per-token embeddings, masked."""

import jax
import jax.numpy as jnp


@jax.jit
def trunk(params, one_hot, mask):
    h = jax.nn.gelu(one_hot @ params["embed"])
    pair = jnp.einsum("ic,jc->ij", h, h) * mask[:, None] * mask[None, :]
    contacts = jax.nn.sigmoid(pair @ params["proj"])
    return jnp.sum(contacts * mask) / jnp.sum(mask)
