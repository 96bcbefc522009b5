"""Embed a list of prompts with a jitted mean-of-embeddings encoder."""

import jax
import jax.numpy as jnp
from tokenizer import VOCAB, encode


@jax.jit
def encode_prompt(table, ids):
    return jnp.tanh(table[ids].mean(axis=0))


def embed_all(table, prompts):
    return [encode_prompt(table, encode(p)) for p in prompts]


if __name__ == "__main__":
    table = jax.random.normal(jax.random.PRNGKey(0), (len(VOCAB) + 1, 6))
    prompts = ["the cat sat", "the dog ran far away", "a cat sat on the mat", "the dog sat"]
    embed_all(table, prompts)
