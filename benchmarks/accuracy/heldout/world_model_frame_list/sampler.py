"""Autoregressive rollout of the world model, one frame of patch tokens per action."""

import jax
import jax.numpy as jnp
from dynamics import predict_next_frame


class WorldModelSampler:
    def __init__(self, params, temperature=1.0):
        self.params = params
        self.temperature = temperature

    def _sample(self, logits, key):
        return jax.random.categorical(key, logits / self.temperature, axis=-1)

    def rollout(self, first_frame, actions, key):
        frames = [first_frame]
        for action in actions:
            key, sub = jax.random.split(key)
            logits = predict_next_frame(self.params, frames, action)
            frames.append(self._sample(logits, sub))  # expect: RTL102
        return jnp.stack(frames)
