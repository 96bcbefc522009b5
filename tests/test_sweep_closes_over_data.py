"""A sweep that rebuilds a jit closing over new data per point is reported (issue 36, held-out
recall: held back since session 13 as "used in a loop that does not rebuild it").

A forecaster fits each open question's samples with a jitted loss built per fit and run for the
fit's own steps: the loss closes over the question's normalised samples, an array a jit built once
would take as an argument, so each question's trace is one a user can remove. It is bounded by the
listed questions: a warning that says so. Where the jit closes over the question object itself, or
over a model family (another program per point), it stays held back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_FITTING = """\
import jax
import jax.numpy as jnp


def fit_curve(samples, key, steps=25, lr=0.05):
    # Least-squares fit of one question's samples.

    def loss(params):
        return jnp.mean((params["a"] * samples + params["b"]) ** 2)

    loss_and_grad = jax.jit(jax.value_and_grad(loss))
    params = {"a": jax.random.normal(key, ()), "b": jnp.zeros(())}
    value = None
    for _ in range(steps):
        value, grads = loss_and_grad(params)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, float(value)


def train_model(model, data, steps=10):
    # Fit one model family: each family is another program.

    def loss(params):
        return jnp.mean(model.residual(params, data) ** 2)

    grad = jax.jit(jax.grad(loss))
    params = model.init()
    for _ in range(steps):
        params = params - 0.1 * grad(params)
    return params


def fit_interval(question, steps=25):
    # Fit a point inside one question's interval: the jit closes over the question itself.

    def loss(x):
        return (x - question.low) ** 2 + (question.high - x) ** 2

    grad = jax.jit(jax.grad(loss))
    x = jnp.zeros(())
    for _ in range(steps):
        x = x - 0.1 * grad(x)
    return x
"""

_MODELS = """\
import jax.numpy as jnp


class Linear:
    def init(self):
        return jnp.zeros(2)

    def residual(self, params, x):
        return params[0] * x + params[1]


class Quadratic:
    def init(self):
        return jnp.zeros(3)

    def residual(self, params, x):
        return params[0] * x**2 + params[1] * x + params[2]
"""

_FORECAST = """\
from dataclasses import dataclass

import jax
import numpy as np

from fitting import fit_curve, fit_interval, train_model
from models import Linear, Quadratic


@dataclass
class Question:
    qid: int
    low: float
    high: float

    def samples(self, rng):
        spread = 0.1 * (self.high - self.low)
        return np.asarray(rng.normal(0.5 * (self.low + self.high), spread, 200), np.float32)


class Forecaster:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.key = jax.random.PRNGKey(seed)

    def predict(self, question):
        norm = (question.samples(self.rng) - question.low) / (question.high - question.low)
        self.key, sub = jax.random.split(self.key)
        return fit_curve(norm, sub)

    def center(self, question):
        return fit_interval(question)


def open_questions():
    return [Question(101, 200.0, 1800.0), Question(102, 180.0, 420.0), Question(103, 5.0, 30.0)]


def compare_families(data):
    return [train_model(model, data) for model in (Linear(), Quadratic())]


if __name__ == "__main__":
    forecaster = Forecaster()
    for q in open_questions():
        print(forecaster.predict(q), forecaster.center(q))
    print(compare_families(np.linspace(0.0, 1.0, 50)))
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (
        ("fitting.py", _FITTING),
        ("models.py", _MODELS),
        ("forecast.py", _FORECAST),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _found(*args: str) -> dict[int, dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, "."])
    assert result.exit_code == 1, result.output
    return {f["line"]: f for f in json.loads(result.stdout)}


def test_a_jit_closing_over_each_questions_samples_is_reported_bounded(project: Path) -> None:
    [(line, fit)] = _found().items()
    assert (line, fit["code"], fit["severity"], fit["confidence"]) == (
        11,
        "RTL301",
        "warning",
        "high",
    )
    assert fit["bound"] == "bounded: one per listed item"


def test_a_jit_closing_over_an_object_or_a_model_stays_held_back(project: Path) -> None:
    held = {
        line: [a["text"] for a in f["assumptions"]]
        for line, f in _found("--confidence", "all").items()
    }
    assert held == {
        11: [],
        26: ["`model` makes another computation at each iteration: each trace is needed"],
        39: ["used in a loop of fit_interval() that does not rebuild it"],
    }
