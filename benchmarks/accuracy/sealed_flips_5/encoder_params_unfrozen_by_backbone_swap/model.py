"""A two-stage encoder: a backbone that embeds sensor windows and a linear head that classifies them."""

import jax
import jax.numpy as jnp

from frozen import freeze, unfreeze

N_FEATURES, N_HIDDEN, N_CLASSES = 12, 16, 3


def init_params(key):
    k1, k2 = jax.random.split(key)
    return freeze(  # expect: RTL403
        {
            "backbone": {
                "kernel": 0.3 * jax.random.normal(k1, (N_FEATURES, N_HIDDEN)),
                "bias": jnp.zeros(N_HIDDEN),
            },
            "head": {"kernel": 0.3 * jax.random.normal(k2, (N_HIDDEN, N_CLASSES))},
        }
    )


def apply(params, x):
    h = jnp.tanh(x @ params["backbone"]["kernel"] + params["backbone"]["bias"])
    return h @ params["head"]["kernel"]


def with_pretrained_backbone(params, backbone):
    """Transfer learning: keep the trained head, put the pretrained backbone weights under it."""
    params = unfreeze(params)  # expect: RTL403
    params["backbone"] = {"kernel": backbone["kernel"], "bias": backbone["bias"]}
    return params  # expect: RTL403
