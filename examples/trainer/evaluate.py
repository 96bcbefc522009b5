"""Evaluation: accuracy, validation loss, true-class probability, per-class and subset accuracy."""

import jax
import jax.numpy as jnp
import numpy as np

from . import data, model
from .config import Config
from .model import Params


def nll(logits: jax.Array, labels: jax.Array) -> jax.Array:
    """Per-example negative log-likelihood."""
    return -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1)[:, 0]


def accuracy(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> float:
    """Accuracy over the whole set, in padded batches of one fixed shape (one trace for all)."""
    correct = total = 0.0
    for xb, yb, mb in data.padded_batches(x, y, cfg.eval_batch_size):
        c, t = model.masked_correct(params, xb, yb, mb)
        correct += float(c)
        total += float(t)
    return correct / total


def mean_true_class_prob(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> float:
    """Mean probability the model gives to the true class."""
    total = 0.0
    for xb, yb, mb in data.padded_batches(x, y, cfg.eval_batch_size):
        # score_fn is static, and a lambda is compared by identity: a fresh lambda per batch is a
        # new static value, so every batch traces and compiles score_batch again.
        s = model.score_batch(
            params,
            xb,
            yb,
            mb,
            score_fn=lambda lg, lb: jnp.exp(-nll(lg, lb)),  # expect: RTL204
        )
        total += float(s)
    return total / len(x)


def validation_loss(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> float:
    # jax.jit of a fresh lambda on every call: a new function object with an empty trace cache,
    # so each validation traces and compiles the loss again.
    loss = jax.jit(lambda p, xv, yv: model.loss_fn(p, xv, yv, cfg))(params, x, y)  # expect: RTL301
    return float(loss)


def subset_accuracy(params: Params, x: np.ndarray, y: np.ndarray, n: int, cfg: Config) -> float:
    """Accuracy on the first n examples."""
    # x[:n] has n rows: every new n is a new input shape and a new trace of accuracy_on.
    return float(model.accuracy_on(params, x[:n], y[:n]))  # expect: RTL101


def per_class_accuracy(params: Params, x: np.ndarray, y: np.ndarray, cfg: Config) -> list[float]:
    accuracies = []
    for c in range(cfg.num_classes):
        # Boolean-mask indexing keeps as many rows as there are examples of class c: the shape
        # depends on the data, so predict_logits traces once per distinct class count.
        logits = model.predict_logits(params, x[y == c])  # expect: RTL104
        accuracies.append(float(np.mean(np.argmax(np.asarray(logits), axis=-1) == c)))
    return accuracies
