"""A record kept by beating it from infinity (``best = None; best_loss = float("inf")`` before the
epochs, ``if val_loss < best_loss: best_loss = val_loss; best = model`` in them) is set by the first
epoch: the ``None`` never reaches the jitted evaluation after the loop. Fresh round 30, rgcn-jax's
``entity_classification.py:129`` (RTL403). Kept: a record over a collection of batches, which may be
empty, and one that starts from a finite value, which the first epoch need not beat (the ``None``
then reaches the call: checked with JAX 0.10.2, ``jit`` of a dict, then of None, traces twice)."""

from __future__ import annotations

from pathlib import Path

from project_runs import findings_in

_TRAIN = """\
import math

import jax
import jax.numpy as jnp
import numpy as np
from tqdm import trange


@jax.jit
def evaluate(params, x, y):
    return jnp.mean((x @ params["w"] - y) ** 2)


@jax.jit
def grad_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(params)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


class Trainer:
    def __init__(self, epochs=20):
        self.epochs = epochs

    def fit(self, params, x, y, xv, yv):
        best_params = None
        min_val_loss = float("inf")
        pbar = trange(self.epochs)
        for _ in pbar:
            params = grad_step(params, x, y)
            val_loss = evaluate(params, xv, yv)
            if val_loss < min_val_loss:
                min_val_loss = val_loss
                best_params = params
            pbar.set_description(f"val_loss {val_loss:.4f}")
        return evaluate(best_params, xv, yv)


def fit_scored(params, x, y, xv, yv, epochs=20):
    best, best_score = None, -np.inf
    for _ in range(epochs):
        params = grad_step(params, x, y)
        score = -evaluate(params, xv, yv)
        if score > best_score:
            best_score = score
            best = params
    return evaluate(best, xv, yv)


def fit_first(params, x, y, xv, yv, epochs=20):
    best = best_loss = None
    for _ in range(epochs):
        params = grad_step(params, x, y)
        loss = evaluate(params, xv, yv)
        if best_loss is None or loss < best_loss:
            best_loss = loss
            best = params
    return evaluate(best, xv, yv)


def fit_batches(params, batches, xv, yv):
    best = None
    best_loss = math.inf
    for x, y in batches:
        params = grad_step(params, x, y)
        loss = evaluate(params, xv, yv)
        if loss < best_loss:
            best_loss = loss
            best = params
    return evaluate(best, xv, yv)


def fit_below(params, x, y, xv, yv, epochs=20, target=0.5):
    best = None
    best_loss = target
    for _ in range(epochs):
        params = grad_step(params, x, y)
        loss = evaluate(params, xv, yv)
        if loss < best_loss:
            best_loss = loss
            best = params
    return evaluate(best, xv, yv)
"""

_RUN = """\
import jax.numpy as jnp

from experiments.train import Trainer, fit_batches, fit_below, fit_first, fit_scored

params = {"w": jnp.zeros((3,))}
x, y = jnp.ones((8, 3)), jnp.ones(8)
Trainer(epochs=5).fit(params, x, y, x, y)
fit_scored(params, x, y, x, y)
fit_first(params, x, y, x, y)
fit_batches(params, [(x, y), (x, y)], x, y)
fit_below(params, x, y, x, y)
"""


def test_a_record_the_first_epoch_beats_never_passes_its_none(tmp_path: Path) -> None:
    texts = {
        "pyproject.toml": "",
        "experiments/__init__.py": "",
        "experiments/train.py": _TRAIN,
        "run.py": _RUN,
    }
    found = findings_in(tmp_path, texts)
    assert [(f["path"], f["line"], f["code"], f["message"]) for f in found] == [
        (
            "experiments/train.py",
            69,
            "RTL403",
            "'params' gets None here but not None at line 65, so jitted 'evaluate' traces twice;"
            " keep one pytree structure",
        ),
        (
            "experiments/train.py",
            81,
            "RTL403",
            "'params' gets None here but not None at line 77, so jitted 'evaluate' traces twice;"
            " keep one pytree structure",
        ),
    ]
