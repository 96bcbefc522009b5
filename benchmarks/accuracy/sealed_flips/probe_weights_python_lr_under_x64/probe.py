"""A linear probe trained in float32 on top of frozen features."""

import jax
import jax.numpy as jnp
import numpy as np


def init_probe(key, features, classes):
    w = jax.random.normal(key, (features, classes)) * 0.01
    return {"w": w.astype(np.float32), "b": jnp.zeros(classes, np.float32)}


def loss(params, x, labels):
    logits = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))


@jax.jit
def sgd_step(params, x, labels, lr):
    grads = jax.grad(loss)(params, x, labels)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
