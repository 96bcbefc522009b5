"""One finding per cause across rules (issue 36, cause 8): one change that a driver's loop passes
through one call into a library, met there at several lines under several rules (an ``arange``,
a slice and a boolean mask of one size), is one finding at the line nearest the loop, the others
its ``related``; so are the nested bodies of one eager function a step loop calls (round 29 S2).
Another loop of the same function, through another call, is another cause and stays apart
(session 12's fold keyed without the driver merged them)."""

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


_INTEGRALS = """\
import jax.numpy as jnp
from jax import lax


def surface_eval(points, n):
    def outer(i, acc):
        return acc + jnp.sin(points * i)

    total = lax.fori_loop(0, n, outer, jnp.zeros_like(points))

    def smooth(carry, x):
        return carry * 0.5 + x, None

    total, _ = lax.scan(smooth, total, points)

    def refine(i, acc):
        return acc * 1.01

    return lax.fori_loop(0, 3, refine, total)
"""

_DRIVER = """\
import jax.numpy as jnp

from integrals import surface_eval


def run(steps):
    points = jnp.linspace(0.0, 1.0, 32)
    for step in range(steps):
        points = points + surface_eval(points, 4)
    return points


if __name__ == "__main__":
    run(100)
"""


def test_an_eager_function_with_three_nested_bodies_is_one_finding(tmp_path: Path) -> None:
    """A library function that runs three ``lax`` loops over nested defs eagerly, called per step
    of a driver in another module, traces all three at every call: one cause (round 29 S2), told
    at the first body, the other two related, each still fixed by ``--fix``."""
    (tmp_path / "integrals.py").write_text(_INTEGRALS, encoding="utf-8")
    (tmp_path / "driver.py").write_text(_DRIVER, encoding="utf-8")
    run = analyse([str(tmp_path)], Settings(cache=False))
    [finding] = run.findings
    assert (Path(finding.location.path).name, finding.location.line) == ("integrals.py", 9)
    assert finding.severity == "error"
    assert finding.message.endswith("(and 2 more of this cause: line 14, line 19)")
    assert [(r.code, r.location.line) for r in finding.related] == [("RTL301", 14), ("RTL301", 19)]
