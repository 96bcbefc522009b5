"""Greedy decoding with the toy language model of model.py."""

import jax.numpy as jnp
import numpy as np

from . import model
from .config import Config
from .model import Params


def greedy_decode(lm: Params, prompt: list[int], max_new_tokens: int, cfg: Config) -> list[int]:
    """Greedy decoding into a preallocated buffer of cfg.max_len tokens.

    The buffer and its mask keep one shape for the whole decode, so the model traces once.
    """
    if len(prompt) + max_new_tokens > cfg.max_len:
        raise ValueError(f"prompt plus new tokens exceed max_len={cfg.max_len}")
    buffer = np.zeros(cfg.max_len, np.int32)
    buffer[: len(prompt)] = prompt
    end = len(prompt) + max_new_tokens
    for t in range(len(prompt), end):
        mask = (np.arange(cfg.max_len) < t).astype(np.float32)
        logits = model.masked_next_token_logits(lm, jnp.asarray(buffer), jnp.asarray(mask))
        buffer[t] = int(jnp.argmax(logits))
    return buffer[:end].tolist()


def greedy_decode_buffered(
    lm: Params, prompt: list[int], max_new_tokens: int, cfg: Config
) -> list[int]:
    """greedy_decode already decodes into a fixed-size buffer; this name is kept for callers."""
    return greedy_decode(lm, prompt, max_new_tokens, cfg)
