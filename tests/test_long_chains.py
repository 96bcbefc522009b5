"""A long operator chain (``a + b + c ...``, generated code, unrolled sums) costs time in proportion
to its length: each step's value joins the one before it with one more term, and what is known of
that one is not read again. The claim is a ratio of CPU times (a chain ten times as long takes about
ten times as long; reading every step again took 35 to 55 times), so a loaded machine cannot break it."""

from __future__ import annotations

from pathlib import Path

import pytest
from limits import cpu_seconds

from retracelint.config import Settings
from retracelint.engine import analyse

JIT = """\
import jax
from functools import partial


@partial(jax.jit, static_argnums=1)
def step(x, n):
    return x * n


def part(x):
    return x[:5]
"""

# Each term changes the shape its own way (a slice of a changing length), or is what a call of its
# own returns (the value depends on every one of them).
TERMS = {
    "slices": "x[:i]",
    "calls": "part(x).T",
}


def _chain(folder: Path, kind: str, terms: int) -> Path:
    chain = " + ".join([TERMS[kind]] * terms)
    source = JIT + f"\n\ndef chained(x):\n    for i in range(10):\n        step({chain}, i)\n"
    folder.mkdir()
    (folder / "chain.py").write_text(source)
    return folder


def _analysed(folder: Path) -> tuple[float, list[tuple[int, str]]]:
    """CPU seconds to analyse ``folder``, and its findings' lines and codes."""
    started = cpu_seconds()
    found = analyse([str(folder)], Settings(cache=False, select=("RTL",), jobs=1)).findings
    return cpu_seconds() - started, sorted((f.location.line, f.code) for f in found)


@pytest.mark.parametrize("kind", sorted(TERMS))
def test_a_chain_ten_times_as_long_takes_about_ten_times_as_long(tmp_path: Path, kind: str) -> None:
    _analysed(_chain(tmp_path / "first", kind, 20))  # what the first analysis of a process loads
    short = [_analysed(_chain(tmp_path / f"short{n}", kind, 200)) for n in range(3)]
    long_cpu, long_found = _analysed(_chain(tmp_path / "long", kind, 2_000))
    # The static argument i changes at each turn: found at the call, however long its argument.
    assert (JIT.count("\n") + 5, "RTL201") in long_found
    assert all(found == long_found for _, found in short)
    median = sorted(cpu for cpu, _ in short)[1]
    assert long_cpu < 25 * median
