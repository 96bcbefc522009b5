"""Greedy decoding with the toy language model of model.py."""

import jax.numpy as jnp
import numpy as np

from . import model
from .config import Config
from .model import Params


def greedy_decode(lm: Params, prompt: list[int], max_new_tokens: int, cfg: Config) -> list[int]:
    if len(prompt) + max_new_tokens > cfg.max_len:
        raise ValueError(f"prompt plus new tokens exceed max_len={cfg.max_len}")
    tokens = list(prompt)
    for _ in range(max_new_tokens):
        logits = model.next_token_logits(lm, jnp.array(tokens))
        # The token list grows by one each step, so the array built from it has a new length at
        # every call: next_token_logits traces and compiles once per generated token.
        tokens.append(int(jnp.argmax(logits)))  # expect: RTL102
    return tokens


def greedy_decode_buffered(
    lm: Params, prompt: list[int], max_new_tokens: int, cfg: Config
) -> list[int]:
    """The same decoder writing into a preallocated buffer of cfg.max_len tokens."""
    if len(prompt) + max_new_tokens > cfg.max_len:
        raise ValueError(f"prompt plus new tokens exceed max_len={cfg.max_len}")
    buffer = np.zeros(cfg.max_len, np.int32)
    buffer[: len(prompt)] = prompt
    end = len(prompt) + max_new_tokens
    for t in range(len(prompt), end):
        # The buffer has a fixed size, but the positions array has t entries: its length grows
        # with t, so the call below traces and compiles again at every step.
        positions = jnp.arange(t)  # expect: RTL105
        logits = model.gathered_next_token_logits(lm, jnp.asarray(buffer), positions)
        buffer[t] = int(jnp.argmax(logits))
    return buffer[:end].tolist()
