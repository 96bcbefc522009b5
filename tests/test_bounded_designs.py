"""Bounded designs are warnings that tell their bound, and what grows with the run stays an error
(issue 36: an error only when the re-traces grow with the run; rounds 28, 30 and 31 S1-S2).

- A warm-up that compiles a training step once per pair of the widths a configuration lists (a list
  filled only with tuples of the items of loops over them), and decoders run per batch for each
  width and each top-k a configuration lists (a local read once off it, in the function or the one
  around it, walked by a loop or a comprehension): one trace per item, however many batches. A
  static contact band looked up per chunk in a dict table built from thresholds before the loop:
  one trace per value of the table. Their twins stay errors: widths gathered from the batches
  themselves, the exact contact count of each chunk read off a list of data.
- ``range(0, 3 + 1)`` is four values, as ``range(4)`` is; a range up to a parameter is not.
- A detector simulation pads its pixel list to the size a ``pad_size`` helper picks (sizes seen
  before, "to avoid frequent recompilations"): a warning naming the helper. Each batch's valid hits
  are then sliced to their count for another jit: an error. Both are one cause of the fit's batch
  loop, told at the slice, the bucketed pad kept as ``related``. A helper that keeps every size it
  is given (not named as a bucket) leaves its pad an error.
- A forecaster fits each open question's samples with a jitted loss built per fit and run for the
  fit's own steps, closing over the question's normalised samples: an array a jit built once would
  take as an argument, so each question's trace is one a user can remove (held back since session
  13 as "used in a loop that does not rebuild it"), bounded by the listed questions. Where the jit
  closes over the question object itself, or over a model family (another program per point), it
  stays held back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_SETTINGS = """\
from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    d_model: int = 256
    mlp_dims: list = field(default_factory=lambda: [1024, 512, 256])
    top_ks: list = field(default_factory=lambda: [1, 2])
    contact_thresholds: tuple = (0, 4, 16, 64)


config = TrainConfig()
"""

_DECODE = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("mlp_dim", "top_k"))
def greedy(params, tokens, mlp_dim, top_k=1):
    hidden = tokens @ params["w"][:, :mlp_dim]
    return jax.lax.top_k(hidden, top_k)[1]


@partial(jax.jit, static_argnums=(2, 3))
def train_step(params, tokens, width_in, width_out):
    return jax.tree_util.tree_map(lambda p: p - 0.01 * p[:width_in].sum() * width_out, params)


@partial(jax.jit, static_argnames=("max_contacts",))
def contact_energy(coords, max_contacts):
    return jnp.sum(coords[:, :max_contacts] ** 2)
"""

_EVALUATE = """\
from decode import contact_energy, greedy, train_step
from settings import config


def warm_up(params, tokens):
    all_dims = config.mlp_dims
    combinations = []
    for dim_in in all_dims:
        for dim_out in all_dims:
            combinations.append((dim_in, dim_out))
    for dim_in, dim_out in combinations:
        params = train_step(params, tokens, dim_in, dim_out)
    return params


def evaluate(params, loader):
    all_dims = config.mlp_dims
    top_ks = getattr(config, "top_ks", [1, 2])

    def decode_batch(tokens):
        return [greedy(params, tokens, mlp_dim=dim) for dim in all_dims]

    outputs = []
    for tokens in loader:
        outputs.append(decode_batch(tokens))
        for k in top_ks:
            outputs.append(greedy(params, tokens, mlp_dim=1024, top_k=k))
    return outputs


def evaluate_seen_widths(params, loader):
    widths = []
    for tokens in loader:
        widths.append(tokens.shape[1])
    outputs = []
    for tokens in loader:
        for width in widths:
            outputs.append(greedy(params, tokens, mlp_dim=width))
    return outputs


def contact_energies(chunks, thresholds=config.contact_thresholds):
    band_of = {}
    for low, high in zip(thresholds[:-1], thresholds[1:]):
        for n in range(low + 1, high + 1):
            band_of[n] = high
    total = 0.0
    for coords, n_contacts in chunks:
        band = band_of[int(n_contacts)]
        total += contact_energy(coords, band)
    return total


def contact_energies_exact(chunks, counts):
    total = 0.0
    for i, (coords, _) in enumerate(chunks):
        exact = counts[i]
        total += contact_energy(coords, exact)
    return total
"""

_RUN_EVAL = """\
import numpy as np

from evaluate import contact_energies, contact_energies_exact, evaluate, evaluate_seen_widths, warm_up


def main():
    params = {"w": np.ones((8, 1024))}
    loader = [np.ones((4, 8)) for _ in range(100)]
    params = warm_up(params, loader[0])
    evaluate(params, loader)
    evaluate_seen_widths(params, loader)
    chunks = [(np.ones((10, 64, 3)), n) for n in range(1, 60)]
    contact_energies(chunks)
    contact_energies_exact(chunks, [n for _, n in chunks])


if __name__ == "__main__":
    main()
"""

_HARMONICS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def _sh(lmax, x):
    return jnp.stack([x**l for l in range(lmax + 1)])


def sh(lmax, x, normalize=True):
    y = _sh(lmax, x)
    return y / jnp.linalg.norm(y) if normalize else y


def expansion(x, order):
    return [sh(l, x) for l in range(0, order + 1)]
"""

_SH_TEST = """\
import jax.numpy as jnp

from shlib import expansion, sh


def test_orders():
    x = jnp.ones(3)
    ys = [sh(l, x) for l in range(0, 3 + 1)]
    assert len(ys) == 4


def test_expansion(order):
    assert len(expansion(jnp.ones(3), order)) == order + 1
"""

_SIZING = """\
SIZE_HISTORY = {}


def pad_size(n, tag):
    # Round ``n`` up to a size used before, to avoid frequent recompilations.
    seen = SIZE_HISTORY.setdefault(tag, [])
    for size in seen:
        if n <= size <= 1.2 * n:
            return size
    seen.append(n)
    return n


def seen_size(n, tag):
    seen = SIZE_HISTORY.setdefault(tag, [])
    for size in seen:
        if size == n:
            return size
    seen.append(n)
    return n
"""

_SIGNALS = """\
import jax
import jax.numpy as jnp

from detsim.sizing import pad_size, seen_size


@jax.jit
def induce(pixels, charges):
    return jnp.cumsum(charges[:, None] * (pixels[None, :] >= 0), axis=1)


@jax.jit
def to_charge(adcs):
    return adcs * 0.25


def simulate(tracks):
    pixels = jnp.unique(tracks[:, 0].astype(int))
    size = pad_size(pixels.shape[0], "pixels")
    pixels = jnp.pad(pixels, (0, size - pixels.shape[0]), constant_values=-1)
    adcs = induce(pixels, tracks[:, 1])
    n_valid = int(jnp.sum(adcs[-1] > 1.0))
    return adcs[-1][:n_valid]


def simulate_unpadded(tracks):
    pixels = jnp.unique(tracks[:, 0].astype(int))
    size = seen_size(pixels.shape[0], "pixels")
    pixels = jnp.pad(pixels, (0, size - pixels.shape[0]), constant_values=-1)
    return induce(pixels, tracks[:, 1])
"""

_FIT = """\
import numpy as np

from detsim.signals import simulate, simulate_unpadded, to_charge


def fit(batches):
    total = 0.0
    for tracks in batches:
        adcs = simulate(tracks)
        total += float(to_charge(adcs).sum())
        simulate_unpadded(tracks)
    return total


if __name__ == "__main__":
    fit([np.random.rand(200, 2) * 50 for _ in range(10)])
"""

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


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _found(*args: str) -> dict[tuple[str, int], dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, "."])
    assert result.exit_code == 1, result.output
    return {(f["path"], f["line"]): f for f in json.loads(result.stdout)}


@pytest.fixture
def settings_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"settings.py": _SETTINGS, "decode.py": _DECODE, "evaluate.py": _EVALUATE}
    _write(tmp_path, {**files, "run_eval.py": _RUN_EVAL})
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def detector_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"detsim/__init__.py": "", "detsim/sizing.py": _SIZING, "detsim/signals.py": _SIGNALS}
    _write(tmp_path, {**files, "fit.py": _FIT})
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def forecast_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _write(tmp_path, {"fitting.py": _FITTING, "models.py": _MODELS, "forecast.py": _FORECAST})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_values_drawn_from_settings_or_a_table_are_bounded_data_stays_an_error(
    settings_project: Path,
) -> None:
    found = _found()
    told = {key: (f["severity"], f["bound"]) for key, f in found.items() if f["code"] == "RTL201"}
    assert told == {
        # the warm-up over width pairs
        ("evaluate.py", 12): ("warning", "bounded: one per item of `combinations`"),
        # a decoder per listed width (a comprehension in a nested def) and per listed top-k
        ("evaluate.py", 21): ("warning", "bounded: one per item of `all_dims`"),
        ("evaluate.py", 27): ("warning", "bounded: one per item of `top_ks`"),
        # widths gathered from the data
        ("evaluate.py", 38): ("error", None),
        # a band of the thresholds' table, and the exact count of each chunk
        ("evaluate.py", 50): ("warning", "bounded: one per value of the table `band_of`"),
        ("evaluate.py", 58): ("error", None),
    }


def test_the_bound_ends_the_message(settings_project: Path) -> None:
    found = _found()
    band = found["evaluate.py", 50]["message"]
    # ``coords[:, :max_contacts]``: a length, padded and masked, not traced
    assert band.endswith(
        "; pad to a fixed size and mask (bounded: one per value of the table `band_of`)"
    )
    assert "bounded" not in found["evaluate.py", 58]["message"]


def test_a_literal_range_written_as_a_sum_counts_its_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 31 S2: ``range(0, 3 + 1)`` is four values, as ``range(4)`` is; a range up to a
    parameter is not spelled out."""
    init = "from shlib.harmonics import expansion, sh\n"
    files = {"shlib/__init__.py": init, "shlib/harmonics.py": _HARMONICS}
    _write(tmp_path, {**files, "sh_test.py": _SH_TEST})
    monkeypatch.chdir(tmp_path)
    told = {key: (f["severity"], f["bound"]) for key, f in _found().items()}
    assert told == {
        ("sh_test.py", 8): ("warning", "at most 4 traces: one per listed item"),
        ("shlib/harmonics.py", 18): ("error", None),
    }


def test_the_slice_tells_the_cause_and_the_bucketed_pad_is_related(detector_project: Path) -> None:
    found = _found()
    assert sorted(found) == [("detsim/signals.py", 23), ("detsim/signals.py", 29)]
    slice_ = found["detsim/signals.py", 23]
    assert (slice_["code"], slice_["severity"], slice_["bound"]) == ("RTL101", "error", None)
    assert slice_["message"].endswith("; pad or bucket it (and 1 more of this cause: line 20)")
    [pad] = slice_["related"]
    assert (pad["line"], pad["code"]) == (20, "RTL105")
    assert pad["message"].endswith("(bounded: `size` bucketed by `pad_size`)")


def test_a_helper_that_keeps_every_size_leaves_an_error(detector_project: Path) -> None:
    kept = _found()["detsim/signals.py", 29]
    assert (kept["code"], kept["severity"], kept["bound"]) == ("RTL105", "error", None)


def test_a_jit_closing_over_each_questions_samples_is_reported_bounded(
    forecast_project: Path,
) -> None:
    [(key, fit)] = _found().items()
    assert (key, fit["code"], fit["severity"], fit["confidence"]) == (
        ("fitting.py", 11),
        "RTL301",
        "warning",
        "high",
    )
    # one build per call of ``predict``, once per question of the three listed: three in all
    assert fit["bound"] == "at most 3 traces: one per listed item"


def test_a_jit_closing_over_an_object_or_a_model_stays_held_back(forecast_project: Path) -> None:
    held = {
        line: [a["text"] for a in f["assumptions"]]
        for (_, line), f in _found("--confidence", "all").items()
    }
    assert held == {
        11: [],
        26: [
            "`model` makes another computation: one trace per item, each item its own computation"
        ],
        39: ["used in a loop of fit_interval() that does not rebuild it"],
    }
