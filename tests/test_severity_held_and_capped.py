"""Bounded repetition that the source shows is a warning (issue 36: an error only when the re-traces
grow with the run; round 26 S1):

- a loop over a parameter that holds a collection, which the function fills with a literal list when
  it is left at None (``sizes: list[int] | None = None``), walks a collection held in memory: a jit
  rebuilt per item is a few traces (a compile-time benchmark per tray count). The same loop over a
  list built from the run's length is an error;
- an array whose sizes a loop changes only to counts every store keeps under a cap (a bond dimension
  grown up to ``max_bond``: ``keep = min(max_bond, len(s))``, then ``chi = keep``) takes a few shapes
  however long the run (an iDMRG sweep). A size that grows without a cap is an error."""

from __future__ import annotations

from pathlib import Path

from test_severity_bounded import _severities

_BENCH = """\
from typing import Optional

import jax
import jax.numpy as jnp


def column_step(state, trays):
    return state * trays


def compile_times(tray_counts: list[int] | None = None) -> dict:
    if tray_counts is None:
        tray_counts = [5, 10, 20]
    out = {}
    for trays in tray_counts:
        step = jax.jit(lambda s: column_step(s, trays))
        out[trays] = step(jnp.ones(4))
    return out


def optional_sizes(sizes: Optional[list] = None) -> list:
    if sizes is None:
        sizes = (8, 16)
    out = []
    for n in sizes:
        out.append(jax.jit(lambda x: x + n)(jnp.ones(4)))
    return out


def sorted_sizes(sizes: list[int] | None = None) -> None:
    if sizes is None:
        sizes = [1, 2]
    sizes = sorted(sizes)
    for n in sizes:
        jax.jit(lambda x: x + n)(jnp.ones(4))


def every_step(steps: int, warmups: list[int] | None = None) -> None:
    if warmups is None:
        warmups = list(range(steps))
    for w in warmups:
        jax.jit(lambda s: s + w)(jnp.ones(3))
"""

_BENCH_MAIN = """\
import sys

from bench import compile_times, every_step, optional_sizes

if __name__ == "__main__":
    compile_times()
    compile_times([5, 10])
    optional_sizes()
    sorted_sizes()
    every_step(int(sys.argv[1]))
"""

_SWEEP = """\
import jax
import jax.numpy as jnp


@jax.jit
def matvec(theta):
    return theta * 2.0


def grow_bond(steps: int, max_bond: int = 16, d: int = 2):
    chi = 1
    for _ in range(steps):
        theta = jnp.zeros((chi, d, d, chi))
        theta = matvec(theta)
        s = jnp.linalg.svd(theta.reshape(chi * d, d * chi), compute_uv=False)
        keep = min(max_bond, len(s))
        chi = keep


def grow_without_cap(steps: int, d: int = 2):
    chi = 1
    for _ in range(steps):
        theta = jnp.zeros((chi, d, d, chi))
        matvec(theta)
        chi = chi * d
"""

_SWEEP_MAIN = """\
import sys

from sweep import grow_bond, grow_without_cap

if __name__ == "__main__":
    grow_bond(int(sys.argv[1]))
    grow_without_cap(int(sys.argv[1]))
"""


def _project(tmp_path: Path, module: str, text: str, main: str) -> Path:
    (tmp_path / f"{module}.py").write_text(text, encoding="utf-8")
    (tmp_path / "main.py").write_text(main, encoding="utf-8")
    return tmp_path


def test_loops_over_optional_collection_parameters_are_bounded(tmp_path: Path) -> None:
    assert _severities(_project(tmp_path, "bench", _BENCH, _BENCH_MAIN)) == {
        ("bench.py", 16, "RTL301"): "warning",
        ("bench.py", 26, "RTL301"): "warning",
        ("bench.py", 35, "RTL301"): "warning",
        ("bench.py", 42, "RTL301"): "error",
    }


def test_sizes_kept_under_a_cap_are_bounded(tmp_path: Path) -> None:
    assert _severities(_project(tmp_path, "sweep", _SWEEP, _SWEEP_MAIN)) == {
        ("sweep.py", 13, "RTL105"): "warning",
        ("sweep.py", 23, "RTL105"): "error",
    }
