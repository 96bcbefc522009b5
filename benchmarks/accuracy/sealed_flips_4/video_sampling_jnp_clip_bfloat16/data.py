"""Synthetic game-play clips as a data loader would deliver them: uint8 frames, (batch, time, H, W, C)."""

import numpy as np


def load_clips(rng, batch, frames, height=16, width=16, channels=3):
    base = rng.integers(0, 256, size=(batch, 1, height, width, channels))
    motion = rng.integers(-8, 9, size=(batch, frames, 1, 1, channels))
    return np.clip(base + np.cumsum(motion, axis=1), 0, 255).astype(np.uint8)
