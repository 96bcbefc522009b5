"""Designs whose static values come from a few values are bounded (issue 36: an error only when the
re-traces grow with the run; round 30 S1): a warning that tells its bound, while a value drawn
from data stays an error.

- a warm-up that compiles a training step once per pair of the widths a configuration lists (a list
  filled only with tuples of the items of loops over them), and decoders run per batch for each
  width and each top-k a configuration lists (a local read once off it, in the function or the one
  around it, walked by a loop or a comprehension): one trace per item, however many batches;
- a static contact band looked up per chunk in a dict table built from thresholds before the loop:
  one trace per value of the table, however many chunks;
- their twins stay errors: widths gathered from the batches themselves, and the exact contact
  count of each chunk read off a list of data."""

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


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (
        ("settings.py", _SETTINGS),
        ("decode.py", _DECODE),
        ("evaluate.py", _EVALUATE),
        ("run_eval.py", _RUN_EVAL),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _found() -> dict[tuple[str, int], dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    assert result.exit_code == 1, result.output
    return {(f["path"], f["line"]): f for f in json.loads(result.stdout) if f["code"] == "RTL201"}


def test_values_drawn_from_settings_or_a_table_are_bounded_data_stays_an_error(
    project: Path,
) -> None:
    told = {key: (f["severity"], f["bound"]) for key, f in _found().items()}
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


def test_the_bound_ends_the_message(project: Path) -> None:
    found = _found()
    band = found["evaluate.py", 50]["message"]
    assert band.endswith("; make it traced (bounded: one per value of the table `band_of`)")
    assert "bounded" not in found["evaluate.py", 58]["message"]


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


def test_a_literal_range_written_as_a_sum_counts_its_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 31 S2: ``range(0, 3 + 1)`` is four values, as ``range(4)`` is; a range up to a
    parameter is not spelled out."""
    (tmp_path / "shlib").mkdir()
    (tmp_path / "shlib" / "__init__.py").write_text(
        "from shlib.harmonics import expansion, sh\n", encoding="utf-8"
    )
    (tmp_path / "shlib" / "harmonics.py").write_text(_HARMONICS, encoding="utf-8")
    (tmp_path / "sh_test.py").write_text(_SH_TEST, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    told = {key: (f["severity"], f["bound"]) for key, f in _found().items()}
    assert told == {
        ("sh_test.py", 8): ("warning", "at most 4 traces: one per listed item"),
        ("shlib/harmonics.py", 18): ("error", None),
    }
