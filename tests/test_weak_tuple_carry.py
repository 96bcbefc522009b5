"""A weakly typed time (``jnp.asarray(0.0)``, a Python float made an array without a dtype) carried
with a strong state through a ``lax.fori_loop`` tuple carry inside a jitted step: each item of the
carry is as weak as what the caller passes at that position, so ``t + DT`` comes back weak and
the step traces once (round 23, F7). An item made strong inside (``t + jnp.float32(DT)``) comes
back strong: a second trace. The static verdicts are checked against jax itself."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from project_runs import checked, written

STEPPER = """import jax
import jax.numpy as jnp

DT = 0.01


@jax.jit
def advance(t, y):
    def body(i, carry):
        time, state = carry
        return time + DT, state * 0.99

    return jax.lax.fori_loop(0, 10, body, (t, y))
"""

DRIVER = """import jax.numpy as jnp

from solver.stepper import advance


def simulate(steps):
    t = jnp.asarray(0.0)
    y = jnp.ones(8)
    for _ in range(steps):
        t, y = advance(t, y)
    print(advance._cache_size())
    return t, y


if __name__ == "__main__":
    simulate(5)
"""


def _project(tmp_path: Path, stepper: str) -> Path:
    files = {"solver/__init__.py": "", "solver/stepper.py": stepper, "drive.py": DRIVER}
    return written(tmp_path / "sim", files)


STRONG = STEPPER.replace("time + DT", "time + jnp.float32(DT)")


def test_a_weak_time_in_a_tuple_carry_stays_weak(tmp_path: Path) -> None:
    assert checked(_project(tmp_path, STEPPER)) == (0, "")


def test_a_time_made_strong_in_the_carry_is_reported(tmp_path: Path) -> None:
    code, out = checked(_project(tmp_path, STRONG))
    assert code == 1
    assert (
        "drive.py:7:9: RTL401 [warning] t starts as a weakly typed scalar here and is a strongly"
        " typed array once advance() returns it" in out
    ), out


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
@pytest.mark.parametrize(("stepper", "traces"), [(STEPPER, "1"), (STRONG, "2")])
def test_jax_traces_as_the_verdicts_say(tmp_path: Path, stepper: str, traces: str) -> None:
    folder = _project(tmp_path, stepper)
    env = {"JAX_PLATFORMS": "cpu", "PYTHONPATH": str(folder)}
    run = subprocess.run(
        [sys.executable, str(folder / "drive.py")], capture_output=True, text=True, env=env
    )
    assert run.stdout.strip() == traces, run.stderr
