"""Class weights are re-estimated every epoch and passed to the loss as a hashable tuple."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("class_weights",))
def weighted_loss(logits, labels, class_weights):
    weights = jnp.asarray(class_weights)[labels]
    log_p = jax.nn.log_softmax(logits)
    return -jnp.mean(weights * jnp.take_along_axis(log_p, labels[:, None], axis=1)[:, 0])


def estimate_weights(labels, n_classes):
    counts = np.bincount(labels, minlength=n_classes) + 1.0
    return counts.sum() / (n_classes * counts)


def train(logits, label_stream, n_classes=3):
    losses = []
    for labels in label_stream:
        weights = estimate_weights(labels, n_classes)
        key = tuple(np.round(weights, 3).tolist())
        losses.append(float(weighted_loss(logits, jnp.asarray(labels), class_weights=key)))  # expect: RTL201
    return losses


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    stream = [rng.integers(0, 3, 6) for _ in range(3)]
    train(jnp.zeros((6, 3)), stream)
