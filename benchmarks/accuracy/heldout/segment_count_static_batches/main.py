"""Evaluate the layer over a stream of padded graph batches."""

import jax.numpy as jnp
from graphs import Graph, collate
from model import message_pass_loss


def ring(n):
    return Graph(n, [(i, (i + 1) % n) for i in range(n)])


def batches():
    yield collate([ring(4), ring(5)])
    yield collate([ring(5), ring(6)])
    yield collate([ring(3), ring(6)])
    yield collate([ring(6), ring(6)])


def evaluate(weights):
    losses = []
    for batch in batches():
        feats, senders, receivers = batch.node_feats, batch.senders, batch.receivers
        loss = message_pass_loss(weights, feats, senders, receivers, num_segments=batch.num_nodes)  # expect: RTL201
        losses.append(float(loss))
    return losses


if __name__ == "__main__":
    print(evaluate(jnp.eye(3) * 0.1))
