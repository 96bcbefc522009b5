"""Sentence embeddings for a small hard-coded evaluation set of token id lists."""

import jax
import jax.numpy as jnp

EVAL_SENTENCES = [
    [3, 7, 1, 4],
    [4, 2],
    [9, 9, 1, 5, 2, 6],
    [8, 1, 1, 3],
]


@jax.jit
def sentence_embedding(table, ids):
    vectors = table[ids]
    weights = jax.nn.softmax(vectors @ vectors.mean(axis=0))
    return weights @ vectors


def embed_eval_set(table):
    return [sentence_embedding(table, jnp.array(ids)) for ids in EVAL_SENTENCES]  # expect: RTL105


if __name__ == "__main__":
    embed_eval_set(jax.random.normal(jax.random.PRNGKey(0), (10, 4)))
