"""A one-layer causal language model with a greedy `generate` method."""
import dataclasses
import math

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class LMConfig:
    vocab_size: int = 64
    d_model: int = 16
    max_len: int = 16


def init_params(cfg, seed):
    rng = np.random.default_rng(seed)
    d = cfg.d_model
    shapes = {"embed": (cfg.vocab_size, d), "pos": (cfg.max_len, d),
              "w_qkv": (d, 3 * d), "w_out": (d, cfg.vocab_size)}
    return {name: jnp.asarray(rng.standard_normal(shape) / math.sqrt(d), dtype=jnp.float32)
            for name, shape in shapes.items()}


def forward(params, input_ids, attention_mask, positions):
    x = params["embed"][input_ids] + params["pos"][positions]
    q, k, v = jnp.split(x @ params["w_qkv"], 3, axis=-1)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(x.shape[-1])
    causal = jnp.tril(jnp.ones((input_ids.shape[1],) * 2, dtype=bool))
    mask = causal[None] & attention_mask[:, None, :].astype(bool)
    scores = jnp.where(mask, scores, -1e9)
    h = x + jax.nn.softmax(scores, axis=-1) @ v
    return h @ params["w_out"]


def positions_from_mask(mask):
    return jnp.maximum(jnp.cumsum(mask, axis=1) - 1, 0)


@jax.jit
def decode_step(params, tokens, mask, cur, repetition_penalty):
    logits = forward(params, tokens, mask, positions_from_mask(mask))
    last = jnp.take(logits, cur - 1, axis=1)
    seen = jax.nn.one_hot(tokens, last.shape[-1]).max(axis=1) * mask.max(axis=1, keepdims=True)
    nxt = jnp.argmax(last - repetition_penalty * seen, axis=-1).astype(jnp.int32)
    return tokens.at[:, cur].set(nxt), mask.at[:, cur].set(1)


class TinyLM:
    def __init__(self, cfg, params):
        self.cfg = cfg
        self.params = params

    def __call__(self, input_ids, attention_mask, positions):
        return forward(self.params, input_ids, attention_mask, positions)

    def generate(self, input_ids, attention_mask, max_new_tokens, repetition_penalty=0.0):
        batch, prompt_len = input_ids.shape
        positions = positions_from_mask(attention_mask)

        # Prefill: process the full (left-padded) prompt in one pass
        @jax.jit  # expect: RTL301
        def prefill_fn(input_ids, attention_mask, positions):
            logits = self(input_ids, attention_mask=attention_mask, positions=positions)
            return jnp.argmax(logits[:, -1], axis=-1).astype(jnp.int32)

        first = prefill_fn(input_ids, attention_mask, positions)

        total = self.cfg.max_len
        tokens = np.zeros((batch, total), np.int32)
        mask = np.zeros((batch, total), np.int32)
        tokens[:, :prompt_len], tokens[:, prompt_len] = input_ids, first
        mask[:, :prompt_len], mask[:, prompt_len] = attention_mask, 1
        for cur in range(prompt_len + 1, prompt_len + max_new_tokens):
            tokens, mask = decode_step(self.params, tokens, mask, cur, repetition_penalty)
        return np.asarray(tokens)[:, prompt_len:prompt_len + max_new_tokens]
