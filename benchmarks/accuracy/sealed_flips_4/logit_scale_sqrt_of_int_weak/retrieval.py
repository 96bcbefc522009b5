"""A dual-encoder retrieval head: projected queries and keys, a logit scale kept at unit score spread."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class RetrievalState(NamedTuple):
    query_proj: jax.Array
    key_proj: jax.Array
    logit_scale: jax.Array


def init_state(key, in_dim, embed_dim):
    kq, kk = jax.random.split(key)
    return RetrievalState(
        query_proj=jax.random.normal(kq, (in_dim, embed_dim)) / jnp.sqrt(in_dim),
        key_proj=jax.random.normal(kk, (in_dim, embed_dim)) / jnp.sqrt(in_dim),
        logit_scale=1.0 / jnp.sqrt(embed_dim),  # expect: RTL401
    )


def scores(state, queries, keys):
    q = queries @ state.query_proj
    k = keys @ state.key_proj
    return state.logit_scale * (q @ k.T)


def recalibrate(state, queries, keys, momentum=0.9):
    """Move the logit scale towards the value that gives the raw scores unit standard deviation."""
    raw = (queries @ state.query_proj) @ (keys @ state.key_proj).T
    target = 1.0 / (jnp.std(raw) + 1e-6)
    return state._replace(logit_scale=momentum * state.logit_scale + (1 - momentum) * target)
