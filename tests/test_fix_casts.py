"""RTL402's cast at the boundary (issue 41): a value whose dtype differs from the one another call
passes is cast, where it is made, to that dtype when the cast keeps every value; an int-or-float value
becomes a float. Both only with ``--unsafe-fixes``; a narrowing that may lose values is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


MODEL = """\
import jax
import jax.numpy as jnp


@jax.jit
def gather(table, idx):
    return table[idx].sum(axis=-1)
"""

BINS = """\
import numpy as np


def best_bins(scores):
    return np.argmax(scores, axis=1).astype(np.uint8)  # the winning bin of each row
"""

RUN = """\
import jax.numpy as jnp
import numpy as np

from bins import best_bins
from model import gather

table = jnp.arange(12.0).reshape(6, 2)
for step in range(3):
    print(gather(table, jnp.arange(3, dtype=jnp.int32)))
    print(gather(table, best_bins(np.ones((3, 6)) * step)))
"""


def test_a_value_of_another_dtype_is_cast_where_it_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, text in {"model.py": MODEL, "bins.py": BINS, "run.py": RUN}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    safe = lint("--fix", ".")
    assert (tmp_path / "bins.py").read_text() == BINS
    assert "1 hidden fix can be enabled" in safe.stderr
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "bins.py").read_text()
    assert fixed == "import jax.numpy as jnp\n" + BINS.replace(
        "return np.argmax(scores, axis=1).astype(np.uint8)",
        "return jnp.asarray(np.argmax(scores, axis=1).astype(np.uint8), jnp.int32)",
    )
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (tmp_path / "bins.py").read_text() == fixed


def test_a_cast_that_may_lose_values_or_an_int_or_float_is_handled_as_it_must_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lossy = BINS.replace(".astype(np.uint8)", ".astype(np.float64)")
    scaled = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef normalise(x, total):\n"
        "    return x / total\n\n\ndef total_of(xs):\n    return max(1, float(sum(xs)) / 4)\n\n\n"
        "for n in range(3):\n    print(normalise(jnp.ones(2), total_of([0.5 * n, 1.0])))\n"
    )
    files = {"model.py": MODEL, "bins.py": lossy, "run.py": RUN, "scale.py": scaled}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "bins.py").read_text() == lossy
    assert "RTL402 not fixed: a cast from float32 to int32 may change values" in result.stderr, (
        result.stderr
    )
    assert "    return float(max(1, float(sum(xs)) / 4))\n" in (tmp_path / "scale.py").read_text()


# A time carried by a loop starts as a Python int (a parameter's default, or what a caller passes)
# and is a float after the first step: the jitted right-hand side traces for the int, then again for
# the float. The start is written as the float it becomes.
DYNAMICS = """\
import jax
import jax.numpy as jnp


@jax.jit
def rhs(t, state):
    x, v = state
    return jnp.stack([v, jnp.cos(2.0 * t) - 0.3 * v - x])
"""

INTEGRATE = """\
from dynamics import rhs


def euler(state, dt, n_steps, t0=0):
    t = t0
    for _ in range(n_steps):
        state = state + dt * rhs(t, state)
        t = t + dt  # a float after the first step
    return t, state
"""

STEPPER = """\
import jax.numpy as jnp

from integrate import euler

t, state = euler(jnp.array([1.0, 0.0]), 0.05, 40)
print(round(t, 3), [round(float(s), 5) for s in state])
"""


@pytest.fixture
def oscillator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"dynamics.py": DYNAMICS, "integrate.py": INTEGRATE, "main.py": STEPPER}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_carried_int_start_at_a_default_becomes_a_float_with_unsafe_fixes(
    oscillator: Path,
) -> None:
    assert "RTL402" in lint(".").output
    assert "1 hidden fix can be enabled" in lint("--fix", ".").stderr
    assert (oscillator / "integrate.py").read_text() == INTEGRATE
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    fixed = INTEGRATE.replace("t0=0):", "t0=0.0):")
    assert (oscillator / "integrate.py").read_text() == fixed
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (oscillator / "integrate.py").read_text() == fixed


def test_a_carried_state_that_is_the_parameter_or_a_callers_int_starts_as_a_float(
    oscillator: Path,
) -> None:
    own = INTEGRATE.replace("t0=0):", "t=0):").replace("    t = t0\n", "")
    (oscillator / "integrate.py").write_text(own, encoding="utf-8")
    passed = STEPPER.replace("0.05, 40)", "0.05, 40, t=0)")
    (oscillator / "main.py").write_text(passed, encoding="utf-8")
    lint("--fix", "--unsafe-fixes", ".")
    assert (oscillator / "main.py").read_text() == passed.replace("t=0)", "t=0.0)")
    assert "RTL402" not in lint(".").output


def test_a_carried_start_that_is_not_an_int_literal_is_left_with_the_reason(
    oscillator: Path,
) -> None:
    counted = STEPPER.replace("0.05, 40)", "0.05, 40, t0=len([]))")
    (oscillator / "main.py").write_text(counted, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "RTL402 not fixed: t does not start as an int literal here" in result.stderr, (
        result.stderr
    )
    assert (oscillator / "main.py").read_text() == counted
    assert (oscillator / "integrate.py").read_text() == INTEGRATE
