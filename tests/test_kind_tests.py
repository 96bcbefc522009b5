"""A test of a value's kind (``x is None``, ``isinstance(x, list)``, a flag set from one) takes the
same branch at every call that passes the same kind of value: a float at each turn of a loop over
floats is a float every time (fresh round 16, multifil_jax ``simulation.py:993``). Two kinds passed
by turns (None while warming up, then a float) still pick two branches, two traces (checked with
JAX 0.10.2: the sweep's jit holds one cache entry, the warm-up's two)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_KERNEL = """\
import jax
import jax.numpy as jnp


@jax.jit
def relax(positions, stiffness):
    force = -stiffness * (positions - jnp.mean(positions))
    return positions + 0.01 * force
"""

_SIMULATION = """\
import jax.numpy as jnp

from lattice.kernel import relax


def run(positions, stiffness=None, steps=100):
    # stiffness: a float, a list of floats (one per site) or None (rigid)
    dynamic = stiffness is not None
    n = positions.shape[0]
    if isinstance(stiffness, list):
        k_site = jnp.asarray(stiffness, jnp.float32)
    elif dynamic:
        k_site = jnp.full(n, float(stiffness))
    else:
        k_site = jnp.zeros(n)
    for _ in range(steps):
        positions = relax(positions, k_site)
    return positions
"""

_SWEEP = """\
import jax.numpy as jnp

from lattice.simulation import run

STIFFNESSES = [1.0, 2.0, 5.0, 10.0, 50.0]

start = jnp.linspace(0.0, 1.0, 16)
spreads = []
for k in STIFFNESSES:
    final = run(start, stiffness=k)
    spreads.append(float(jnp.std(final)))
print(spreads)
"""

_WARM_UP = """\
import jax.numpy as jnp

from lattice.simulation import run

positions = jnp.linspace(0.0, 1.0, 16)
for epoch in range(200):
    # rigid while warming up, then a stiffness: two kinds of value
    positions = run(positions, stiffness=None if epoch < 10 else 2.0, steps=10)
"""


def _project(folder: Path, warm_up: bool = True) -> None:
    texts = {
        "pyproject.toml": "",
        "lattice/__init__.py": "",
        "lattice/kernel.py": _KERNEL,
        "lattice/simulation.py": _SIMULATION,
        "examples/stiffness_sweep.py": _SWEEP,
    }
    if warm_up:
        texts["examples/warm.py"] = _WARM_UP
    for name, text in texts.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def _check(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["check", ".", "--no-cache", "--confidence", "all"])
    return result.exit_code, result.output


def test_a_loop_over_floats_takes_one_kind_branch_a_warm_up_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path)
    code, out = _check(tmp_path, monkeypatch)
    assert code == 1
    assert [line for line in out.splitlines() if ": RTL" in line] == [
        "lattice/simulation.py:13:18: RTL401 [warning] k_site is a weakly typed array in one"
        " branch and a strongly typed array in another, the branch chosen anew at each iteration"
        " of the loop at examples/warm.py:6, so jitted 'relax' re-traces; pass one kind of value"
    ]


def test_without_the_warm_up_the_sweep_is_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stiffness sweep alone: the list branch is never taken, and dynamic (stiffness
    is not None) is True at every call."""
    _project(tmp_path, warm_up=False)
    assert _check(tmp_path, monkeypatch) == (0, "")
