"""Which jitted calls run with jax's 64-bit types (issue 39): x64 turned on by a ``with
jax.enable_x64(True):`` block around the run (for what every call inside it reaches,
``Propagation._in_x64_block``), or by a helper of another module that the script imports and calls,
reaches the jitted step the simulation calls two modules away. There a float32 clock
advanced by a NumPy float64 time step comes back float64 and the step traces again; without x64 (no
block, ``enable_x64(False)``) both are float32, and a step that casts the time step to the clock's
dtype keeps it (and the particles' too). The same reach decides whether NumPy's int64 indices and jax's int32 ones are two
dtypes. The context-manager positive and its cast-back twin are run under jax (one subprocess: the
block scopes x64 to each program)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from dynamic_support import count_retraces_many

from retracelint.config import Settings
from retracelint.engine import analyse

needs_jax = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)

PARTICLES = {
    "integrator.py": '''\
"""Leapfrog steps for a cloud of particles in a harmonic trap."""

import jax


@jax.jit
def leapfrog(positions, velocities, clock, dt):
    half = velocities - 0.5 * dt * positions
    positions = positions + dt * half
    return positions, half - 0.5 * dt * positions, clock + dt
''',
    "simulation.py": '''\
"""Run the integrator with a time step from the experiment's sampling grid (NumPy)."""

import jax.numpy as jnp
import numpy as np

from integrator import leapfrog


def time_step(config):
    times = np.linspace(0.0, config["duration"], config["steps"] + 1)
    return times[1] - times[0]


def simulate(config):
    positions = jnp.linspace(-1.0, 1.0, config["particles"], dtype=jnp.float32)
    velocities = jnp.zeros_like(positions)
    clock = jnp.zeros((), jnp.float32)
    dt = time_step(config)
    for _ in range(config["steps"]):
        positions, velocities, clock = leapfrog(positions, velocities, clock, dt)
    return clock
''',
    "main.py": '''\
"""Simulate the trap in double precision."""

import jax

from simulation import simulate

CONFIG = {"duration": 0.01, "steps": 4, "particles": 64}


def main():
    with jax.enable_x64(True):
        print(simulate(CONFIG))


if __name__ == "__main__":
    main()
''',
}
CLOCK = ("simulation.py", 17, "RTL402")
CAST_BACK = ("    half =", "    dt = dt.astype(clock.dtype)\n    half =")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")


def _found(root: Path) -> list[tuple[str, int, str]]:
    findings = analyse([str(root)], Settings(cache=False, select=("RTL",))).findings
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def _particles(root: Path, **changes: tuple[str, str]) -> None:
    files = dict(PARTICLES)
    for name, (old, new) in changes.items():
        assert old in files[f"{name}.py"]
        files[f"{name}.py"] = files[f"{name}.py"].replace(old, new)
    _write(root, files)


def test_a_with_enable_x64_block_around_the_run_widens_the_clock(tmp_path: Path) -> None:
    _particles(tmp_path)
    findings = analyse([str(tmp_path)], Settings(cache=False, select=("RTL",))).findings
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in findings] == [CLOCK]
    assert "clock starts as float32 here and is float64 once leapfrog() returns it" in (
        findings[0].message
    )


@pytest.mark.parametrize(
    "change",
    [
        ("    with jax.enable_x64(True):\n        print", "    if True:\n        print"),
        ("jax.enable_x64(True)", "jax.enable_x64(False)"),
    ],
    ids=["no-block", "enable_x64-False"],
)
def test_without_x64_the_numpy_time_step_is_float32_too(tmp_path: Path, change) -> None:
    _particles(tmp_path, main=change)
    assert _found(tmp_path) == []


def test_a_time_step_cast_to_the_clocks_dtype_keeps_it(tmp_path: Path) -> None:
    _particles(tmp_path, integrator=CAST_BACK)
    assert _found(tmp_path) == []


# x64 turned on by a helper of another module that the script calls before it runs.
PRECISION = '''\
"""Numerical settings shared by the experiment scripts."""

import jax


def use_double_precision():
    jax.config.update("jax_enable_x64", True)
'''
CALLED = (
    "    with jax.enable_x64(True):\n        print(simulate(CONFIG))",
    "    use_double_precision()\n    print(simulate(CONFIG))",
)


def test_x64_turned_on_by_a_helper_the_script_calls(tmp_path: Path) -> None:
    _particles(tmp_path, main=CALLED)
    main = (tmp_path / "main.py").read_text(encoding="utf-8")
    main = main.replace("import jax\n", "from precision import use_double_precision\n")
    _write(tmp_path, {"main.py": main, "precision.py": PRECISION})
    assert _found(tmp_path) == [CLOCK]
    # A script that does not import the helper's module runs the same simulation in float32.
    (tmp_path / "main.py").write_text(
        "from simulation import simulate\n\nprint(simulate({'duration': 0.01, 'steps': 4,"
        " 'particles': 8}))\n",
        encoding="utf-8",
    )
    assert _found(tmp_path) == []


# Nearest-neighbour lookups: NumPy's argmin (int64) in the offline pass, jax's searchsorted (int32
# even under x64) in the online one, both into one jitted gather.
LOOKUP = {
    "lookup.py": """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def gather(table, idx):
    return table[idx]


def offline(table, queries, codebook):
    return gather(table, np.argmin(np.abs(queries[:, None] - codebook[None]), axis=1))


def online(table, queries, edges):
    return gather(table, jnp.searchsorted(edges, queries))
""",
    "evaluate.py": """\
import jax
import numpy as np

from lookup import offline, online


def main():
    table, edges = np.arange(8.0), np.linspace(0.0, 1.0, 8)
    queries = np.random.default_rng(0).random(16)
    with jax.enable_x64(True):
        print(offline(table, queries, edges), online(table, queries, edges))
""",
}


def test_int64_and_int32_indices_are_two_dtypes_only_in_the_x64_block(tmp_path: Path) -> None:
    _write(tmp_path, LOOKUP)
    assert _found(tmp_path) == [("lookup.py", 16, "RTL402")]
    evaluate = LOOKUP["evaluate.py"].replace(
        "    with jax.enable_x64(True):\n        print", "    print"
    )
    _write(tmp_path, {"evaluate.py": evaluate})
    assert _found(tmp_path) == []  # both int32 without x64


@needs_jax
def test_jax_traces_the_block_twice_and_the_cast_back_once(tmp_path: Path) -> None:
    positive, fixed = tmp_path / "positive", tmp_path / "fixed"
    for root, changes in ((positive, {}), (fixed, {"integrator": CAST_BACK})):
        root.mkdir()
        _particles(root, **changes)
    # Each program imports its own modules: one subprocess, run from each folder in turn.
    reports = count_retraces_many([positive / "main.py", fixed / "main.py"], tmp_path)
    traces = [sum(r.function.name == "leapfrog" for r in report.records) for report in reports]
    assert traces == [2, 1]
