"""Sizes a project rounds to buckets are bounded, and the fold of one cause keeps the finding that
tells the truth (issue 36; round 28 S1 and S2, round 30 S1).

A detector simulation pads its pixel list to the size a ``pad_size`` helper picks (sizes seen before,
"to avoid frequent recompilations"): the pad traces once per bucket, a warning that names the helper.
Each batch's valid hits are then sliced to their count and converted by another jit: one trace per
new count, an error. Both are one cause of the fit's batch loop, told at the slice, the bucketed
pad kept as ``related``. A helper that keeps every size it is given (not named as a bucket) leaves
its pad an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

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


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "detsim").mkdir()
    (tmp_path / "detsim" / "__init__.py").write_text("", encoding="utf-8")
    for name, text in (
        ("detsim/sizing.py", _SIZING),
        ("detsim/signals.py", _SIGNALS),
        ("fit.py", _FIT),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _found() -> dict[tuple[str, int], dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    assert result.exit_code == 1, result.output
    return {(f["path"], f["line"]): f for f in json.loads(result.stdout)}


def test_the_slice_tells_the_cause_and_the_bucketed_pad_is_related(project: Path) -> None:
    found = _found()
    assert sorted(found) == [("detsim/signals.py", 23), ("detsim/signals.py", 29)]
    slice_ = found["detsim/signals.py", 23]
    assert (slice_["code"], slice_["severity"], slice_["bound"]) == ("RTL101", "error", None)
    assert slice_["message"].endswith("; pad or bucket it (and 1 more of this cause: line 20)")
    [pad] = slice_["related"]
    assert (pad["line"], pad["code"]) == (20, "RTL105")
    assert pad["message"].endswith("(bounded: `size` bucketed by `pad_size`)")


def test_a_helper_that_keeps_every_size_leaves_an_error(project: Path) -> None:
    kept = _found()["detsim/signals.py", 29]
    assert (kept["code"], kept["severity"], kept["bound"]) == ("RTL105", "error", None)
