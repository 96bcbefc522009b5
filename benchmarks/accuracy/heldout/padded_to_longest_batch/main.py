"""Score sentences with a bag-of-embeddings model, padding each batch of token ids."""

import jax
import jax.numpy as jnp
import numpy as np

VOCAB, DIM, BATCH = 50, 8, 4


@jax.jit
def score(table, ids, mask):
    emb = table[ids] * mask[..., None]
    return jnp.sum(emb, axis=1).sum(axis=-1) / jnp.maximum(mask.sum(axis=1), 1.0)


def pad_batch(sentences):
    longest = max(len(s) for s in sentences)
    ids = np.zeros((len(sentences), longest), np.int32)  # expect: RTL105
    mask = np.zeros((len(sentences), longest), np.float32)  # expect: RTL105
    for row, sentence in enumerate(sentences):
        ids[row, : len(sentence)] = sentence
        mask[row, : len(sentence)] = 1.0
    return ids, mask


def score_corpus(table, corpus):
    scores = []
    for start in range(0, len(corpus), BATCH):
        ids, mask = pad_batch(corpus[start : start + BATCH])
        scores.append(score(table, ids, mask))
    return jnp.concatenate(scores)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    corpus = [list(rng.integers(1, VOCAB, size=rng.integers(3, 12))) for _ in range(16)]
    table = jnp.asarray(rng.normal(size=(VOCAB, DIM)).astype(np.float32))
    print(score_corpus(table, corpus))
