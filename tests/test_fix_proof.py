"""fix_proof.py's verdicts (issue 41): a padding front whose guard runs the body unjitted
(``f.__wrapped__``) is not a program that "traces once", however few traces JAX logged for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_scripts import load_script

pytest.importorskip("jax")

proof = load_script("accuracy/fix_proof.py", "fix_proof")

SCORES_BEFORE = '''\
"""Scores of a growing list of readings."""

import jax
import jax.numpy as jnp


@jax.jit
def spread(readings):
    return jnp.max(readings) - jnp.min(readings)
'''

# As masked_rows writes it: the jitted body renamed, a front that pads the rows it was proved for
# and runs the body unjitted on any other rank.
SCORES_AFTER = '''\
"""Scores of a growing list of readings."""

import jax
import jax.numpy as jnp


def padded_rows(rows, size=None, bucket=16):
    rows = jnp.asarray(rows)
    if size is None:
        size = max(bucket, 1 << max(len(rows) - 1, 0).bit_length())
    return jnp.zeros((size, *rows.shape[1:]), rows.dtype).at[: len(rows)].set(rows)


@jax.jit
def spread_padded(readings, *, valid):
    keep = jnp.arange(readings.shape[0]).reshape((-1,) + (1,) * (readings.ndim - 1)) < valid
    real = jnp.where(keep, readings, readings[:1])
    return jnp.max(real) - jnp.min(real)


def spread(readings):
    """spread of readings padded to a bucket of rows: one trace per bucket."""
    valid = len(readings)
    if jnp.ndim(readings) != 1:
        return spread_padded.__wrapped__(readings, valid=valid)
    return spread_padded(padded_rows(readings), valid=valid)
'''


def _main(shape: str) -> str:
    return f"""\
import jax.numpy as jnp
from scores import spread

for n in range(3, 6):
    print(round(float(spread(jnp.arange(float(n * 2)).reshape({shape}))), 4))
"""


def _program(tmp_path: Path, shape: str) -> Path:
    for copy, scores in (("before", SCORES_BEFORE), ("after", SCORES_AFTER)):
        (tmp_path / copy).mkdir()
        (tmp_path / copy / "scores.py").write_text(scores, encoding="utf-8")
        (tmp_path / copy / "main.py").write_text(_main(shape), encoding="utf-8")
    return tmp_path


def test_a_front_that_pads_every_call_traces_once(tmp_path: Path) -> None:
    where = _program(tmp_path, "(-1,)")
    assert proof._prove({"id": "spread"}, where)["verdict"] == "traces once"


def test_a_front_that_runs_its_body_unjitted_is_not_counted_as_fixed(tmp_path: Path) -> None:
    # rows of rank 2: the guard falls back at every call, so the jitted body never traces
    where = _program(tmp_path, "(n, 2)")
    assert proof._prove({"id": "spread"}, where)["verdict"] == "runs unjitted"


def _report(folder: Path, *traces: tuple[str, int, int]) -> dict:
    """The counter's report of functions of ``folder`` (name, traces, of them re-traces)."""
    where = str(folder.resolve() / "model.py")
    return {
        "traces": [
            {"name": name, "file": where, "line": 3, "traces": n, "retraces": again}
            for name, n, again in traces
        ]
    }


def test_a_value_and_a_gradient_jit_of_one_function_tracing_once_each_is_no_retrace(
    tmp_path: Path,
) -> None:
    # jax.jit(self._nll) and jax.jit(jax.grad(self._nll)) both built once: JAX saw two new functions
    assert not proof._retraced(tmp_path, _report(tmp_path, ("_nll", 2, 0)))
    # the gradient's jit built per call: the second one is a re-trace of a function seen on its line
    assert proof._retraced(tmp_path, _report(tmp_path, ("_nll", 3, 1)))
    # a nested function's first trace inside its jit, which the counter calls a re-trace: one trace
    assert not proof._retraced(tmp_path, _report(tmp_path, ("one_step", 1, 1)))


def test_numbers_the_original_prints_differently_twice_are_not_compared() -> None:
    first, again = "0.5 0.3576 ms\n1.0 0.2436 ms\n", "0.5 0.3611 ms\n1.0 0.2502 ms\n"
    fixed = "0.5 2.56e-05 ms\n1.0 1.88e-05 ms\n"
    unsteady = frozenset(proof._differing(first, again))
    assert unsteady == {1, 3}  # the times, not the lengthscales beside them
    assert proof._same_output(first, fixed, unsteady)
    assert not proof._same_output(first, "0.7 2.56e-05 ms\n1.0 1.88e-05 ms\n", unsteady)
    assert not proof._same_output(first, fixed)


def test_an_array_printed_with_its_columns_aligned_otherwise_prints_the_same() -> None:
    """numpy pads an array's columns to its widest number: a last digit rounded otherwise moves
    the spaces between them, which are no result."""
    before = "[ 0.8416435   0.06651112 -1.830115  ]\n[-0.596041   -1.2498854 ]\n"
    after = "[ 0.84164363  0.06651113 -1.830115  ]\n[-0.59604114 -1.2498857 ]\n"
    assert proof._same_output(before, after)
    assert not proof._same_output(before, after.replace("-1.2498857", "-1.3498857"))
    assert not proof._same_output(before, after.replace("]\n[", "]\n\n["))
