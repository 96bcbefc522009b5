"""RTL201's fix (issue 41) for a static count the jitted body needs concrete only as the bound of a
``for`` loop over ``range``: the count is made traced and the loop a ``jax.lax.fori_loop`` over a def of its
body and the values it carries, so JAX traces it once for every count. A loop whose body branches on its
index is left static with the line. A project over two modules, as a user runs it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from dynamic_support import run_fixed_and_original

from retracelint.cli import main

INTEGRATE = '"""Explicit sub-stepping of a damped oscillator; the caller picks the sub-step count from a CFL-like\nbound, so it changes from one output interval to the next."""\n\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\ndef acceleration(x, v, k):\n    return -k * x - 0.1 * v\n\n\n@partial(jax.jit, static_argnames=("n_sub",))\ndef advance(state, k, dt, n_sub):\n    x, v = state[0], state[1]\n    h = dt / n_sub  # the step: arithmetic works on a traced count\n    for i in range(n_sub):\n        # semi-implicit Euler, a little damping on the later sub-steps\n        v = v + h * acceleration(x, v, k) * (1.0 - 0.01 * i / n_sub)\n        x = x + h * v\n    return jnp.stack([x, v])\n\n\n@partial(jax.jit, static_argnames=("n_sub",))\ndef energy_trace(state, k, n_sub):\n    total = 0.0\n    for i in range(n_sub):\n        if i % 2:\n            total = total + k * state[0] ** 2\n    return total\n'

MAIN = 'import jax.numpy as jnp\n\nfrom integrate import advance, energy_trace\n\n\ndef substeps(k, dt):\n    return max(1, int(dt * k**0.5 / 0.05))\n\n\ndef run(k=4.0, intervals=(0.1, 0.2, 0.3)):\n    state = jnp.array([1.0, 0.0], jnp.float32)\n    for dt in intervals:\n        n = substeps(k, dt)\n        state = advance(state, k, dt, n_sub=n)\n        print(f"dt={dt} n_sub={n} x={float(state[0]):.5f} v={float(state[1]):.5f}")\n        print(f"energy={float(energy_trace(state, k, n_sub=n)):.5f}")\n\n\nrun()\n'

LOOP = """\
    for i in range(n_sub):
        # semi-implicit Euler, a little damping on the later sub-steps
        v = v + h * acceleration(x, v, k) * (1.0 - 0.01 * i / n_sub)
        x = x + h * v
"""

FORI = """\
    def loop_body(i, carry):
        (v, x) = carry
        # semi-implicit Euler, a little damping on the later sub-steps
        v = v + h * acceleration(x, v, k) * (1.0 - 0.01 * i / n_sub)
        x = x + h * v
        return (v, x)

    (v, x) = jax.lax.fori_loop(0, n_sub, loop_body, (v, x))
"""


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "integrate.py").write_text(INTEGRATE, encoding="utf-8")
    (tmp_path / "main.py").write_text(MAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fixed() -> str:
    return INTEGRATE.replace(LOOP, FORI).replace(
        '@partial(jax.jit, static_argnames=("n_sub",))\ndef advance', "@jax.jit\ndef advance"
    )


def test_a_loop_count_is_traced_with_the_loop_a_fori_loop(project: Path) -> None:
    assert lint("--fix", ".").stderr.splitlines()[-1] == (
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    )
    assert (project / "integrate.py").read_text() == INTEGRATE

    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.stderr.splitlines() == [
        "retracelint: main.py:16:60: RTL201 not fixed: n_sub must stay static: line 32 bounds a loop"
        " whose line 33 is not an assignment (If)",
        "Found 2 errors (1 fixed, 1 remaining).",
    ]
    assert result.exit_code == 1
    assert (project / "integrate.py").read_text() == fixed()  # comments and the rest as they were
    assert (project / "main.py").read_text() == MAIN
    lint("--fix", "--unsafe-fixes", ".")
    assert (project / "integrate.py").read_text() == fixed()


def test_a_loop_that_may_leave_early_is_left_alone(project: Path) -> None:
    early = INTEGRATE.replace(
        "        x = x + h * v\n",
        "        x = x + h * v\n        if x < 0:\n            break\n",
        1,
    )
    (project / "integrate.py").write_text(early, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (
        "retracelint: main.py:14:45: RTL201 not fixed: n_sub must stay static: line 18 bounds a loop"
        " whose line 22 is not an assignment (If)"
    ) in result.stderr.splitlines()
    assert (project / "integrate.py").read_text() == early


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fixed_loop_once_and_it_prints_the_same(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    report, original = run_fixed_and_original(
        project, lambda: lint("--fix", "--unsafe-fixes", "."), tmp_path_factory.mktemp("before")
    )
    assert not report.raised, report.summary()
    traces = {function.name: n for function, n in report.traces.items()}
    assert traces["advance"] == 1, report.summary()
    assert traces["energy_trace"] == 3  # its loop branches on the index: not fixed
    assert not original.raised, original.summary()
    assert original.stdout, "the program must print what the fix has to keep"
    assert report.stdout == original.stdout
