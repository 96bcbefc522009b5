"""Greedy and temperature sampling that feed the model the whole context so far."""

import jax
import jax.numpy as jnp
from transformer import next_token_logits


class Sampler:
    def __init__(self, params, temperature=0.0):
        self.params = params
        self.temperature = temperature

    def pick(self, logits, key):
        if self.temperature == 0.0:
            return int(jnp.argmax(logits))
        return int(jax.random.categorical(key, logits / self.temperature))

    def generate(self, prompt, new_tokens, key):
        context = list(prompt)
        for _ in range(new_tokens):
            key, sub = jax.random.split(key)
            logits = next_token_logits(self.params, jnp.array(context))
            context.append(self.pick(logits, sub))  # expect: RTL102
        return context
