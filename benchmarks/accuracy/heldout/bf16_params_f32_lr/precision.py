"""Helpers to run a model in lower precision."""

import jax
import jax.numpy as jnp


def to_precision(params, dtype=jnp.bfloat16):
    return jax.tree_util.tree_map(lambda p: p.astype(dtype), params)  # expect: RTL402
