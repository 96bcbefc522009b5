"""Encode variable-length token sequences padded up to the next length bucket."""

import jax
import jax.numpy as jnp
import numpy as np

BUCKETS = (8, 16, 32)


def bucket_for(length):
    return next(b for b in BUCKETS if b >= length)


def pad_to_bucket(tokens):
    size = bucket_for(len(tokens))
    padded = np.zeros(size, np.int32)
    padded[: len(tokens)] = tokens
    return padded, np.int32(len(tokens))


@jax.jit
def encode(table, tokens, length):
    mask = jnp.arange(tokens.shape[0]) < length
    return jnp.sum(table[tokens] * mask[:, None], axis=0) / length


def encode_all(table, sequences):
    return [encode(table, *pad_to_bucket(seq)) for seq in sequences]


if __name__ == "__main__":
    table = jax.random.normal(jax.random.PRNGKey(0), (50, 4))
    sequences = [[1, 2, 3], [4, 5, 6, 7, 8], [9, 10], [11, 12, 13, 14, 15, 16, 17]]
    encode_all(table, sequences)
