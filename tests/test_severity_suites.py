"""A re-trace repeated only by a loop over a suite the source writes out is a warning, however the
script picks the cases it runs; one repeated by the steps of a training run stays an error (issue 36:
error only when the re-traces grow with the run). Fresh round 15: an eager scan of a nested def per
case of an eight-case validation suite, run over the suite or a subset of it named on the command
line, was an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_CASES = """\
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    name: str
    duration: float
    gain: float
"""

_SIM = """\
import jax
import jax.numpy as jnp


def simulate(case, dt):
    steps = int(round(case.duration / dt))
    inputs = jnp.full((steps, 3), case.gain)

    def step_fn(state, u):
        nxt = state + dt * u
        return nxt, nxt

    _, trajectory = jax.lax.scan(step_fn, jnp.zeros(3), inputs)
    return trajectory
"""

_VALIDATE = """\
import sys

from cases import Case
from sim import simulate

SUITE: list[Case] = [
    Case("trim_hold", 3.0, 0.0),
    Case("doublet", 2.5, 0.1),
    Case("step", 1.5, 0.2),
]


def main(argv):
    if argv:
        wanted = set(argv)
        cases = [c for c in SUITE if c.name in wanted]
    else:
        cases = SUITE
    for case in cases:
        print(case.name, simulate(case, 0.01)[-1])


if __name__ == "__main__":
    main(sys.argv[1:])
"""

_TRAIN = """\
import sys

import jax
import jax.numpy as jnp


def rollout(params, horizon):
    def step_fn(state, _):
        nxt = jnp.tanh(params @ state)
        return nxt, nxt

    _, states = jax.lax.scan(step_fn, jnp.ones(3), None, length=horizon)
    return states


def train(num_steps):
    params = jnp.eye(3)
    for step in range(num_steps):
        states = rollout(params, 16)
        params = params - 0.01 * jnp.outer(states[-1], states[0])
    return params


if __name__ == "__main__":
    print(train(int(sys.argv[1])))
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (
        ("cases.py", _CASES),
        ("sim.py", _SIM),
        ("validate.py", _VALIDATE),
        ("train.py", _TRAIN),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_suite_or_a_subset_of_it_is_a_warning_a_step_loop_an_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["--no-cache", "."])
    assert result.exit_code == 1  # the training loop's error
    assert result.stdout.splitlines() == [
        "sim.py:13:34: RTL301 [warning] lax.scan(...) traces a new nested def each call of "
        "simulate(), so every call re-traces; define step_fn once",
        "train.py:12:30: RTL301 lax.scan(...) traces a new nested def each call of rollout(), "
        "so every call re-traces; define step_fn once",
    ]


def test_json_carries_the_severity_and_what_repeats(project: Path) -> None:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"]): f for f in json.loads(result.stdout)}
    assert {key: f["severity"] for key, f in found.items()} == {
        ("sim.py", 13): "warning",
        ("train.py", 12): "error",
    }
    assert "the loop at validate.py:20" in found["sim.py", 13]["details"][-1]
    assert "the loop at train.py:19" in found["train.py", 12]["details"][-1]


def test_a_list_the_loop_appends_to_is_no_suite(project: Path) -> None:
    """A local bound to the suite on one branch and grown in the loop walks more than the suite."""
    grown = _VALIDATE.replace(
        "        print(case.name, simulate(case, 0.01)[-1])",
        "        print(case.name, simulate(case, 0.01)[-1])\n"
        "        cases.append(Case(case.name, case.duration * 2, case.gain))",
    )
    (project / "validate.py").write_text(grown, encoding="utf-8")
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"]): f["severity"] for f in json.loads(result.stdout)}
    assert found[("sim.py", 13)] == "error"
