"""A streaming tagger: feeds one frame at a time through the GRU and scores it."""

import jax
import jax.numpy as jnp


class StreamingTagger:
    def __init__(self, cell, num_tags, key):
        self.cell = cell
        self.readout = (jax.random.normal(key, (cell.hidden, num_tags)) * 0.1).astype(cell.dtype)
        self._step = jax.jit(self.step)

    def step(self, params, readout, h, frame):
        h = self.cell.apply(params, h, frame)
        return h, jnp.argmax(h @ readout, axis=-1)

    def tag(self, frames):
        h = self.cell.initialize_carry(frames.shape[1])
        tags = []
        for frame in frames:
            h, tag = self._step(self.cell.params, self.readout, h, frame)
            tags.append(tag)
        return jnp.stack(tags)
