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
    """Yield consecutive full (x, y) mini-batches.

    The remainder (fewer than batch_size rows) is dropped, so every batch has the same shape; the
    data is reshuffled every epoch, so no example is left out for good.
    """
    num_batches = len(x) // batch_size
    keep = num_batches * batch_size
    xs = x[:keep].reshape(num_batches, batch_size, x.shape[1])
    ys = y[:keep].reshape(num_batches, batch_size)
    for b in range(num_batches):
        yield xs[b], ys[b]


def padded_batches(
    x: np.ndarray, y: np.ndarray, batch_size: int, weights: np.ndarray | None = None
):
    """Yield (x, y, mask) batches of exactly batch_size rows.

    mask is 0.0 on padding rows and weights (default 1.0) on real rows, so a subset of the examples
    can be selected with weights instead of by slicing, keeping the shapes fixed.
    """
    n = len(x)
    if weights is None:
        weights = np.ones(n, np.float32)
    num_batches = -(-n // batch_size)
    pad = num_batches * batch_size - n
    xp = np.concatenate([x, np.zeros((pad, x.shape[1]), x.dtype)])
    yp = np.concatenate([y, np.zeros(pad, y.dtype)])
    mask = np.concatenate([weights.astype(np.float32), np.zeros(pad, np.float32)])
    xs = xp.reshape(num_batches, batch_size, x.shape[1])
    ys = yp.reshape(num_batches, batch_size)
    masks = mask.reshape(num_batches, batch_size)
    for b in range(num_batches):
        yield xs[b], ys[b], masks[b]
