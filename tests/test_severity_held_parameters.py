"""Loops over a parameter that holds a collection, which the function fills with a literal list when
it is left at None (``sizes: list[int] | None = None``), walk a collection held in memory: a jit
rebuilt per item is a few traces, a warning (round 26 S1, a compile-time benchmark per tray count).
The same loop over a list the function builds from the run's length is an error."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

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


def every_step(steps: int, warmups: list[int] | None = None) -> None:
    if warmups is None:
        warmups = list(range(steps))
    for w in warmups:
        jax.jit(lambda s: s + w)(jnp.ones(3))
"""

_MAIN = """\
import sys

from bench import compile_times, every_step, optional_sizes

if __name__ == "__main__":
    compile_times()
    compile_times([5, 10])
    optional_sizes()
    every_step(int(sys.argv[1]))
"""


def test_loops_over_optional_collection_parameters_are_bounded(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(_BENCH, encoding="utf-8")
    (tmp_path / "main.py").write_text(_MAIN, encoding="utf-8")
    run = analyse([str(tmp_path)], Settings(cache=False))
    found = {
        (Path(f.location.path).name, f.location.line, f.code): f.severity for f in run.findings
    }
    assert found == {
        ("bench.py", 16, "RTL301"): "warning",
        ("bench.py", 26, "RTL301"): "warning",
        ("bench.py", 34, "RTL301"): "error",
    }
