"""Image loading for training and evaluation."""

import numpy as np


def _decode(seed, side):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (side, side, 3))


def load_train_images(count, side=8):
    images = np.stack([_decode(i, side) for i in range(count)])
    return (images / 255.0).astype(np.float32)


def load_eval_images(count, side=8):
    # Evaluation keeps the raw pixels; the model normalises them itself.
    return np.stack([_decode(1000 + i, side) for i in range(count)]).astype(np.uint8)  # expect: RTL402
