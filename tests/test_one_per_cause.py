"""One finding per cause across rules (issue 36, cause 8): one change that a driver's loop passes
through one call into a library, met there at several lines under several rules (an ``arange``,
a slice and a boolean mask of one size), is one finding at the line nearest the loop, the others
its ``related``. Another loop of the same function, through another call, is another cause and
stays apart (session 12's fold keyed without the driver merged them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import with_related

_SOLVER = """\
import jax
import jax.numpy as jnp


@jax.jit
def winners(idx):
    return idx * 2


@jax.jit
def diagonal(block):
    return block.sum(axis=1)


@jax.jit
def finalize(kept):
    return kept.mean()


def solve(n, matrix):
    idx = jnp.arange(n)
    w = winners(idx)
    block = matrix[:n, :]
    d = diagonal(block)
    kept = w[w > n // 2]
    return finalize(kept) + d.sum()


def score(k, matrix):
    rows = matrix[: 4 * k]
    return diagonal(rows).sum()
"""

_BENCH = """\
import jax.numpy as jnp

from solver import score, solve


def run(steps):
    matrix = jnp.ones((4096, 4))
    total = 0.0
    for step in range(steps):
        total += solve(16 + step, matrix)
    for k in range(1, steps):
        total += score(k, matrix)
    return total


if __name__ == "__main__":
    print(run(100))
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "solver.py").write_text(_SOLVER, encoding="utf-8")
    (tmp_path / "bench.py").write_text(_BENCH, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _json(*args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, "."])
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)


def test_one_cause_at_three_lines_under_three_rules_is_one_finding(project: Path) -> None:
    found = _json()
    assert [(f["path"], f["line"], f["code"]) for f in found] == [
        ("solver.py", 21, "RTL105"),
        ("solver.py", 30, "RTL101"),
    ]
    size, rows = found
    assert size["severity"] == "error"
    assert size["message"].endswith("(and 2 more of this cause: line 23, line 25)")
    assert [(r["line"], r["code"]) for r in size["related"]] == [(23, "RTL101"), (25, "RTL104")]
    told = [d for d in size["details"] if d.startswith("same cause: ")]
    assert [d.split(": ")[1] for d in told] == ["line 23", "line 25"]
    # the other loop of run(), through score(k): a cause of its own
    assert rows["related"] == [] and "bench.py:11" in rows["message"]


def test_a_selection_shows_what_the_fold_told(project: Path) -> None:
    """Selected alone, a rule's finding that another told is shown: the fold comes after
    selection and noqa."""
    masks = _json("--select", "RTL104")
    assert [(f["line"], f["code"]) for f in masks] == [(25, "RTL104")]


def test_every_line_of_the_cause_stays_found(project: Path) -> None:
    """``--fix`` and the language server read the findings a finding tells (``with_related``):
    each line of the cause is still there, with its own rule."""
    run = analyse([str(project)], Settings(cache=False))
    lines = sorted(
        (Path(f.location.path).name, f.location.line, f.code) for f in with_related(run.findings)
    )
    assert lines == [
        ("solver.py", 21, "RTL105"),
        ("solver.py", 23, "RTL101"),
        ("solver.py", 25, "RTL104"),
        ("solver.py", 30, "RTL101"),
    ]
