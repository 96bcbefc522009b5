"""A loop over ``range`` of module constants that count repetitions of a measurement (warm-up and
profiled calls of a profiling script, the players of a match) runs the same number of times in
every run: a re-trace per turn is bounded, a warning. One up to a constant that is the run's length
(``NUM_STEPS``) grows with the run and stays an error (issue 36; round 25 S1: a profiling script's
``N_WARMUP + N_TRACE`` calls, each with a new static function, reported as an error)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_FILTERS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(2,))
def correct(mean, obs, measure):
    return mean + 0.1 * (obs - measure(mean))


def make_measure(gain):
    def measure(x):
        return gain * jnp.tanh(x)

    return measure
"""

_PROFILE = """\
import time

import jax.numpy as jnp
from filters import correct, make_measure

N_WARMUP = 3
N_PROFILED = 20


def main():
    mean, obs = jnp.zeros(3), jnp.ones(3)
    for i in range(N_WARMUP + N_PROFILED):
        start = time.perf_counter()
        mean = correct(mean, obs, make_measure(9.81))
        if i >= N_WARMUP:
            print(time.perf_counter() - start)


if __name__ == "__main__":
    main()
"""

_TRACK = """\
import jax.numpy as jnp
from filters import correct, make_measure

NUM_STEPS = 20


def main():
    mean, obs = jnp.zeros(3), jnp.ones(3)
    for _ in range(NUM_STEPS):
        mean = correct(mean, obs, make_measure(9.81))
    print(mean)


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (("filters.py", _FILTERS), ("profile.py", _PROFILE), ("track.py", _TRACK)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_profiled_repetitions_are_a_warning_run_steps_an_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"], f["code"]): f["severity"] for f in json.loads(result.stdout)}
    assert found == {
        ("profile.py", 14, "RTL204"): "warning",
        ("track.py", 10, "RTL204"): "error",
    }
