"""Evaluation: accuracy, validation loss, true-class probability, per-class and subset accuracy.

Everything goes through padded batches of one fixed shape; subsets are selected with weights.
"""

import jax
import jax.numpy as jnp
import numpy as np

from . import data, model
from .config import Config
from .model import Params

# Jitted once at import; cfg (a frozen dataclass) is static and fixed for the run.
_validation_loss = jax.jit(model.loss_fn, static_argnames=("cfg",))


def nll(logits: jax.Array, labels: jax.Array) -> jax.Array:
    """Per-example negative log-likelihood."""
    return -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1)[:, 0]


def true_class_prob(logits: jax.Array, labels: jax.Array) -> jax.Array:
    return jnp.exp(-nll(logits, labels))


def _weighted_accuracy(
    params: Params, x: np.ndarray, y: np.ndarray, weights: np.ndarray | None, cfg: Config
) -> float:
    correct = total = 0.0
    for xb, yb, mb in data.padded_batches(x, y, cfg.eval_batch_size, weights):
        c, t = model.masked_correct(params, xb, yb, mb)
        correct += float(c)
        total += float(t)
    return correct / total


def accuracy(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> float:
    """Accuracy over the whole set, in padded batches of one fixed shape (one trace for all)."""
    return _weighted_accuracy(params, x, y, None, cfg)


def mean_true_class_prob(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> float:
    """Mean probability the model gives to the true class."""
    total = 0.0
    for xb, yb, mb in data.padded_batches(x, y, cfg.eval_batch_size):
        # A module-level function: the same static value at every call.
        total += float(model.score_batch(params, xb, yb, mb, score_fn=true_class_prob))
    return total / len(x)


def validation_loss(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> float:
    return float(_validation_loss(params, x, y, cfg=cfg))


def subset_accuracy(params: Params, x: np.ndarray, y: np.ndarray, n: int, cfg: Config) -> float:
    """Accuracy on the first n examples: the others get weight 0, the shapes stay the same."""
    weights = (np.arange(len(x)) < n).astype(np.float32)
    return _weighted_accuracy(params, x, y, weights, cfg)


def per_class_accuracy(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> list[float]:
    """Accuracy on the examples of each class, selected by weight, not by boolean indexing."""
    return [
        _weighted_accuracy(params, x, y, (y == c).astype(np.float32), cfg)
        for c in range(cfg.num_classes)
    ]
