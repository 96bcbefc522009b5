"""A two-layer classifier: a feature backbone and a linear head."""

import jax
import jax.numpy as jnp

from params import freeze


def init(key, n_in=8, n_hidden=16, n_classes=3):
    k1, k2 = jax.random.split(key)
    return freeze(
        {
            "backbone": {"w": jax.random.normal(k1, (n_in, n_hidden)) * 0.3, "b": jnp.zeros(n_hidden)},
            "head": {"w": jax.random.normal(k2, (n_hidden, n_classes)) * 0.3, "b": jnp.zeros(n_classes)},
        }
    )


def apply(params, x):
    h = jnp.tanh(x @ params["backbone"]["w"] + params["backbone"]["b"])
    return h @ params["head"]["w"] + params["head"]["b"]


def cross_entropy(params, x, labels):
    logits = apply(params, x)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))
