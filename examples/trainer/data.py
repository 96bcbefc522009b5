"""Synthetic data and mini-batching, all in numpy."""

import numpy as np

from .config import Config


def make_classification(n: int, cfg: Config, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n points around num_classes Gaussian centres (the same centres for every seed)."""
    centres = np.random.default_rng(cfg.seed).normal(
        scale=1.5, size=(cfg.num_classes, cfg.num_features)
    )
    rng = np.random.default_rng(seed)
    y = rng.integers(0, cfg.num_classes, size=n)
    x = centres[y] + rng.normal(size=(n, cfg.num_features))
    return x.astype(np.float32), y.astype(np.int32)


def shuffle(x: np.ndarray, y: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    perm = np.random.default_rng(seed).permutation(len(x))
    return x[perm], y[perm]


def batches(x: np.ndarray, y: np.ndarray, batch_size: int):
    """Yield consecutive (x, y) mini-batches."""
    for start in range(0, len(x), batch_size):
        # When len(x) is not a multiple of batch_size the last batch is shorter than the others,
        # and the jitted train step traces and compiles once more for that shape.
        yield x[start : start + batch_size], y[start : start + batch_size]  # expect: RTL103


def padded_batches(x: np.ndarray, y: np.ndarray, batch_size: int):
    """Yield (x, y, mask) batches of exactly batch_size rows; mask is 0.0 on the padding rows."""
    n = len(x)
    num_batches = -(-n // batch_size)
    pad = num_batches * batch_size - n
    xp = np.concatenate([x, np.zeros((pad, x.shape[1]), x.dtype)])
    yp = np.concatenate([y, np.zeros(pad, y.dtype)])
    mask = np.concatenate([np.ones(n, np.float32), np.zeros(pad, np.float32)])
    xs = xp.reshape(num_batches, batch_size, x.shape[1])
    ys = yp.reshape(num_batches, batch_size)
    masks = mask.reshape(num_batches, batch_size)
    for b in range(num_batches):
        yield xs[b], ys[b], masks[b]
