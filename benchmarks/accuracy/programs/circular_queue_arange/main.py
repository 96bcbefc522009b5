"""Contrastive training with negatives drawn in order from a circular queue of past embeddings."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def contrastive_loss(anchor, positive, negatives):
    pos = jnp.exp(anchor @ positive)
    neg = jnp.exp(negatives @ anchor).sum()
    return -jnp.log(pos / (pos + neg))


class NegativeQueue:
    def __init__(self, embeddings, per_step):
        self.embeddings = embeddings
        self.per_step = per_step
        self.cursor = 0

    def next_negatives(self):
        total = len(self.embeddings)
        index = np.arange(self.cursor, self.cursor + self.per_step) % total
        self.cursor = (self.cursor + self.per_step) % total
        return self.embeddings[index]


def train(anchors, positives, queue):
    return [
        float(contrastive_loss(a, p, queue.next_negatives())) for a, p in zip(anchors, positives)
    ]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    bank = rng.normal(size=(30, 4)).astype(np.float32) / 2.0
    anchors = rng.normal(size=(6, 4)).astype(np.float32) / 2.0
    train(anchors, anchors + 0.1, NegativeQueue(bank, per_step=8))
