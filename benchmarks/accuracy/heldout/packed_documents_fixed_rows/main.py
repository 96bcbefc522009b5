"""Train on a corpus of documents of 3 to 12 tokens, packed into 4 x 16 batches."""

import jax
import numpy as np
from model import init, train_step
from packing import DocumentPacker


def corpus(n_docs=40, vocab=32, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.integers(1, vocab, size=rng.integers(3, 13)) for _ in range(n_docs)]


if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0))
    packer = DocumentPacker()
    for epoch in range(2):
        losses = []
        for tokens, mask in packer.batches(corpus(seed=epoch)):
            params, loss = train_step(params, tokens, mask, 2.0)
            losses.append(float(loss))
        print(epoch, len(losses), round(sum(losses) / len(losses), 3))
