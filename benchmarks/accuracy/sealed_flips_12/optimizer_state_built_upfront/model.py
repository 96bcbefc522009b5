"""Softmax regression."""

import jax
import jax.numpy as jnp


def init_params(key, d, classes):
    return {"w": 0.01 * jax.random.normal(key, (d, classes)), "b": jnp.zeros((classes,))}


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))
