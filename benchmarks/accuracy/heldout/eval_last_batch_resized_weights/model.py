"""A linear classifier and its jitted evaluation step."""

import jax
import jax.numpy as jnp


def init(key, n_features, n_classes):
    return {"w": 0.01 * jax.random.normal(key, (n_features, n_classes)), "b": jnp.zeros(n_classes)}


@jax.jit
def eval_step(params, images, labels, weights):
    logits = images.reshape(images.shape[0], -1) @ params["w"] + params["b"]
    correct = (jnp.argmax(logits, -1) == labels).astype(jnp.float32)
    nll = -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=-1)[:, 0]
    return {"correct": jnp.sum(correct * weights), "nll": jnp.sum(nll * weights), "count": jnp.sum(weights)}
