"""The decoder: an embedding table, a stack of blocks sharing one jitted block function, an unembedding."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp

from layers import block_forward, init_block


@dataclass(frozen=True)
class DecoderConfig:
    vocab: int
    d_model: int
    n_layers: int


class Decoder:
    def __init__(self, cfg, key):
        keys = jax.random.split(key, cfg.n_layers + 1)
        self.embedding = jax.random.normal(keys[0], (cfg.vocab, cfg.d_model)) * 0.02
        self.blocks = [init_block(k, cfg.d_model) for k in keys[1:]]
        self._block = jax.jit(block_forward)

    def embed(self, tokens):
        return jnp.take(self.embedding, tokens, axis=0)  # expect: RTL402

    def __call__(self, tokens):
        h = self.embed(tokens)
        for params in self.blocks:
            h = self._block(params, h)
        return h.astype(jnp.float32) @ self.embedding.T
