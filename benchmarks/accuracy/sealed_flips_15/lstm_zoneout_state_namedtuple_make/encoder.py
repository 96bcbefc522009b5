"""Encode a sequence one step at a time, as a streaming recogniser does."""

import jax
import jax.numpy as jnp


class StreamingEncoder:
    def __init__(self, cell):
        self.cell = cell
        self._step = jax.jit(self.encode_step)

    def encode_step(self, params, state, x, key):
        return self.cell(params, state, x, key)

    def encode(self, frames, key):
        state = self.cell.initial_state(frames.shape[1])
        outputs = []
        for frame, k in zip(frames, jax.random.split(key, frames.shape[0])):
            h, state = self._step(self.cell.params, state, frame, k)
            outputs.append(h)
        return jnp.stack(outputs)
