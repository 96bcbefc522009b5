"""An int argument that arithmetic makes a float before it reaches a jit (issue 36 cause 4, round
31's e3nn-jax test): jax promotes a Python int with a float (``r / r_cut``, ``r * 1.0``, a
``jnp.where`` with a float branch) and ``/`` of ints to a weakly typed float, so a test that calls
an envelope with ``0`` and its gradient with ``0.25`` hands the jitted polynomial one dtype, even
where a third call passes a strong array (one more trace, by its shape, not its dtype). The same
envelope passing ``r`` as it came, or through a ``jnp.where`` whose other branch is an int
(``r + 1`` too), hands it an int and a float: two traces, found where the int is passed.

Each reading was run under jax 0.10.2 with x64 on when written (negatives: one scalar trace, weak
float64; positives: an int64 and a float64 trace)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_promoted_results import _found, _write

CUTOFF = {
    "cutoffs/__init__.py": """\
from cutoffs.smooth import smooth_cutoff

__all__ = ["smooth_cutoff"]
""",
    "cutoffs/smooth.py": '''\
"""Smooth radial cutoffs for pair potentials: a polynomial from 1 down to 0 at the cutoff."""

from functools import lru_cache

import jax
import jax.numpy as jnp
import numpy as np


@lru_cache(maxsize=None)
def fitted_polynomial(flat_at_zero: int, flat_at_cut: int):
    degree = 2 + flat_at_zero + flat_at_cut
    grid = np.linspace(-0.5, 0.5, degree)
    coeffs = np.polyfit(grid, 0.5 - grid, degree - 1)

    def evaluate(r):
        return jnp.polyval(jnp.asarray(coeffs, r.dtype), r)

    return jax.jit(evaluate)


def smooth_cutoff(flat_at_zero: int, flat_at_cut: int, r_cut: float = 1.0):
    poly = fitted_polynomial(flat_at_zero, flat_at_cut)

    def envelope(r):
        r_inside = jnp.where(r < r_cut, r, r_cut)
        return jnp.where(r < r_cut, poly(@ARG@), 0.0)

    return envelope
''',
    "tests/test_cutoff.py": """\
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cutoffs


@pytest.mark.parametrize("flat_at_zero", [0, 1, 2])
def test_cutoff_ends(flat_at_zero):
    jax.config.update("jax_enable_x64", True)
    envelope = cutoffs.smooth_cutoff(flat_at_zero, 1)

    assert envelope(0) > envelope(0.5)
    assert envelope(1) == 0.0

    slope = jax.grad(envelope)
    assert np.isfinite(slope(0.25))

    far = jnp.linspace(1.0, 10.0, 16)
    np.testing.assert_allclose(envelope(far), 0.0, atol=1e-6)
    jax.config.update("jax_enable_x64", False)
""",
}


def _project(tmp_path: Path, arg: str) -> Path:
    (tmp_path / "cutoffs").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    return _write(tmp_path, CUTOFF, ARG=arg)


@pytest.mark.parametrize(
    "arg", ["r_inside / r_cut - 0.5", "r * 1.0", "r / 2", "jnp.where(r < 0.5, r, 0.5)"]
)
def test_float_made_before_the_jit_is_one_dtype(tmp_path: Path, arg: str) -> None:
    assert _found(_project(tmp_path, arg)) == []


@pytest.mark.parametrize("arg", ["r", "jnp.where(r < 1, r, 0)"])
def test_int_reaching_the_jit_is_found_where_passed(tmp_path: Path, arg: str) -> None:
    assert _found(_project(tmp_path, arg)) == [("test_cutoff.py", 14, "RTL402")]
