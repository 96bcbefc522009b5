"""Logistic regression loss, always called with keyword data arguments."""

import jax
import jax.numpy as jnp


def logistic_loss(params, *, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)


loss = jax.jit(logistic_loss)


@jax.jit
def sgd_step(params, x, y, lr):
    grads = jax.grad(logistic_loss)(params, x=x, y=y)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
