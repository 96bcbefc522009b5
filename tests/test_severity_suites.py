"""A re-trace repeated only by a loop over a suite the source writes out, or over the settings a
command-line option lists, is a warning; one repeated by the steps of a training run stays an error
(issue 36: error only when the re-traces grow with the run). Fresh round 15 had both as errors: an
eager scan of a nested def per case of an eight-case validation suite (the suite, or the subset of it
named on the command line), and a jit rebuilt per batch size of a benchmark's ``--batch-sizes``."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main
from retracelint.summarise.points import spelled_points, unbound

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

_ROLLOUTS = """\
import jax
import jax.numpy as jnp


def make_rollout(horizon):
    @jax.jit
    def rollout(state):
        def body(s, _):
            return jnp.tanh(s), None

        final, _ = jax.lax.scan(body, state, None, length=horizon)
        return final

    return jax.vmap(rollout)
"""

_BENCH = """\
import argparse
import time

import jax
import jax.numpy as jnp
from rollouts import make_rollout


def benchmark(batch_size, horizon):
    rollout = make_rollout(horizon)
    states = jnp.ones((batch_size, 3))
    jax.block_until_ready(rollout(states))  # warm-up: compiles
    start = time.perf_counter()
    jax.block_until_ready(rollout(states))
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-sizes", default="1,16,64")
    parser.add_argument("--horizon", type=int, default=100)
    args = parser.parse_args()
    for batch_size in [int(x) for x in args.batch_sizes.split(",")]:
        print(batch_size, benchmark(batch_size, args.horizon))


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (
        ("cases.py", _CASES),
        ("sim.py", _SIM),
        ("validate.py", _VALIDATE),
        ("train.py", _TRAIN),
        ("rollouts.py", _ROLLOUTS),
        ("bench.py", _BENCH),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_suite_or_a_benchmark_grid_is_a_warning_a_step_loop_an_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["--no-cache", "."])
    assert result.exit_code == 1  # the training loop's error
    assert result.stdout.splitlines() == [
        "rollouts.py:6:6: RTL301 [warning] @jax.jit rebuilds rollout() each call of "
        "make_rollout(), so every call re-traces; build the jit once "
        '(bounded: one per item of `args.batch_sizes.split(",")`)',
        "sim.py:13:34: RTL301 [warning] lax.scan(...) traces a new nested def each call of "
        "simulate(), so every call re-traces; define step_fn once (bounded: one per item of `cases`)",
        "train.py:12:30: RTL301 lax.scan(...) traces a new nested def each call of rollout(), "
        "so every call re-traces; define step_fn once",
    ]


def test_json_carries_the_severity_and_what_repeats(project: Path) -> None:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"]): f for f in json.loads(result.stdout)}
    assert {key: f["severity"] for key, f in found.items()} == {
        ("rollouts.py", 6): "warning",
        ("sim.py", 13): "warning",
        ("train.py", 12): "error",
    }
    assert "the loop at validate.py:20" in found["sim.py", 13]["details"][-1]
    assert "the loop at train.py:19" in found["train.py", 12]["details"][-1]
    assert "the loop at bench.py:24" in found["rollouts.py", 6]["details"][-1]


_LISTED = _BENCH.replace('default="1,16,64"', 'nargs="+", type=int, default=[1, 16, 64]').replace(
    '[int(x) for x in args.batch_sizes.split(",")]', "args.batch_sizes"
)
_GIVEN = (
    _BENCH.replace("def main():", "def main(args):")
    .replace("    args = parser.parse_args()\n", "")
    .replace("    main()", "    main(argparse.Namespace(batch_sizes=input()))")
)


@pytest.mark.parametrize(
    ("bench", "severity"),
    [(_LISTED, "warning"), (_GIVEN, "error")],
    ids=["nargs-list", "namespace-of-no-parser"],
)
def test_an_option_given_as_a_list_is_a_grid_a_namespace_of_no_parser_is_not(
    project: Path, bench: str, severity: str
) -> None:
    """``nargs="+"`` hands the loop the option's list itself: a grid; the same loop over an
    attribute of a namespace the function is given (no parser seen) may walk anything."""
    (project / "bench.py").write_text(bench, encoding="utf-8")
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"]): f["severity"] for f in json.loads(result.stdout)}
    assert found[("rollouts.py", 6)] == severity


_RUNS = """\
import jax
import jax.numpy as jnp
from rollouts import make_rollout


def timed(batch_size):
    rollout = make_rollout(100)
    return rollout(jnp.ones((batch_size, 3)))


def fit(params):
    return jax.jit(lambda p: p * 0.9)(params)


if __name__ == "__main__":
    num_runs = 3
    for run in range(num_runs):
        timed(64)
    num_steps = 1000
    params = jnp.ones(3)
    for step in range(num_steps):
        params = fit(params)
"""


def test_a_range_over_a_name_bound_to_a_few_counts_as_that_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``num_runs = 3`` then ``range(num_runs)``: three runs of a benchmark, a warning; ``range``
    of a thousand steps bound the same way grows with the run: an error."""
    (tmp_path / "rollouts.py").write_text(_ROLLOUTS, encoding="utf-8")
    (tmp_path / "runs.py").write_text(_RUNS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"]): f["severity"] for f in json.loads(result.stdout)}
    assert found == {("rollouts.py", 6): "warning", ("runs.py", 12): "error"}


_AGENT = """\
from functools import partial

import jax
import jax.numpy as jnp


class Agent:
    def __init__(self, learning_rate, clip):
        self.learning_rate = learning_rate
        self.clip = clip

    @partial(jax.jit, static_argnums=0)
    def update(self, params, grads):
        step = jnp.clip(grads, -self.clip, self.clip)
        return params - self.learning_rate * step
"""

_GRID = """\
import itertools
import random


def generate_configurations(param_grid, max_configs=20):
    keys = list(param_grid.keys())
    values = list(param_grid.values())
    combinations = list(itertools.product(*values))
    if len(combinations) > max_configs:
        random.shuffle(combinations)
        combinations = combinations[:max_configs]
    configurations = []
    for combination in combinations:
        configurations.append(dict(zip(keys, combination)))
    return configurations
"""

_GRID_BENCH = """\
import jax.numpy as jnp
from agent import Agent
from grid import generate_configurations


def run_single(config, episodes):
    agent = Agent(config["learning_rate"], config["clip"])
    params = jnp.zeros(4)
    for _ in range(episodes):
        params = agent.update(params, jnp.ones(4))
    return params


def main():
    grid = {"learning_rate": [1e-3, 3e-4], "clip": [0.1, 0.2]}
    configurations = generate_configurations(grid)
    for i, config in enumerate(configurations):
        print(i, run_single(config, 300))


if __name__ == "__main__":
    main()
"""

_AGENT_TRAIN = """\
import sys

import jax.numpy as jnp
from agent import Agent


def train(episodes):
    params = jnp.zeros(4)
    for episode in range(episodes):
        agent = Agent(1e-3 / (1 + episode), 0.1)
        params = agent.update(params, jnp.ones(4))
    return params


if __name__ == "__main__":
    print(train(int(sys.argv[1])))
"""


def test_an_agent_per_configuration_of_a_grid_is_a_warning_one_per_episode_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fresh round 14: a static agent made per configuration of a hyperparameter grid (the product
    of a dict's value lists, shuffled and cut to a maximum, walked with ``enumerate``), each trained
    for its own episodes, was an error. It is one trace per point of a bounded sweep: a warning (shown:
    held-out programs count such a rebuild removable, so no hidden ``per-point`` assumption); an agent
    made anew per training episode stays an error."""
    for name, text in (
        ("agent.py", _AGENT),
        ("grid.py", _GRID),
        ("benchmark.py", _GRID_BENCH),
        ("train.py", _AGENT_TRAIN),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    found = {(f["path"], f["line"]): f for f in json.loads(shown.stdout)}
    assert {key: f["severity"] for key, f in found.items()} == {
        ("benchmark.py", 10): "warning",
        ("train.py", 11): "error",
    }
    assert found["benchmark.py", 10]["assumptions"] == []


_RUNTIME_FIGURE = """\
import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("iterations",))
def solve(x, iterations):
    def body(c, _):
        return c * 0.5 + 1.0, None

    return jax.lax.scan(body, x, None, length=iterations)[0]


def figure():
    times = []
    for iterations in 2 ** np.arange(4, 10, 0.5):
        start = time.time()
        solve(jnp.ones(3), iterations=int(iterations))
        times.append(time.time() - start)
    return times


def train(steps):
    for step in range(steps):
        solve(jnp.ones(3), iterations=step)


if __name__ == "__main__":
    print(figure())
    train(1000)
"""


def test_a_figure_over_the_points_of_an_arange_is_a_warning_a_step_loop_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fresh round 16 (slimpletic-jax's runtime figures): ``2 ** np.arange(4, 10, 0.5)`` walks 12
    points the source fixes, one compile each, as ``range(4, 10)`` would: bounded, a warning, and
    each point a size of its own (a power of 2) whose scan loops in its trace: a sweep, shown only
    with ``--confidence all``. The same static argument changed by every training step stays an
    error."""
    (tmp_path / "figure.py").write_text(_RUNTIME_FIGURE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    assert {f["line"]: f["severity"] for f in json.loads(result.stdout)} == {28: "error"}
    every = CliRunner().invoke(main, ["--no-cache", "--format", "json", "--confidence", "all", "."])
    found = {f["line"]: f for f in json.loads(every.stdout)}
    assert {line: f["severity"] for line, f in found.items()} == {21: "warning", 28: "error"}
    assert [a["kind"] for a in found[21]["assumptions"]] == ["sweep"]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("np.arange(5)", 5),
        ("jnp.arange(10, 20)", 10),
        ("np.arange(0, 1, 0.25)", 4),
        ("2 ** np.arange(4, 10, 0.5)", 12),
        ("np.arange(-3, 3) * 0.1", 6),
        ("np.arange(n)", None),
        ("np.arange(3, 1)", None),
    ],
)
def test_an_arange_of_literals_has_as_many_points_as_numpy_gives(text: str, count: int) -> None:
    points = spelled_points(ast.parse(text, mode="eval").body, unbound)
    assert (points.count if points else None) == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("[-1, 0, 1] if v_axis else [0]", 3),
        ("[0] if flag else (1, 2)", 2),
        ("[0] if c else xs", None),
    ],
)
def test_either_of_two_spelled_collections_gives_the_most_points(text: str, count: int) -> None:
    """Round 18 (tesseract-jax): ``for out_axes in [-1, 0, 1] if v_axis else [0]`` walks a sweep
    of at most three points; a branch not spelled out leaves the points unknown."""
    points = spelled_points(ast.parse(text, mode="eval").body, unbound)
    assert (points.count if points else None) == count


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        ("2 ** np.arange(4, 10, 0.5)", True),
        ("10 ** np.arange(0, 7, 0.1)", True),
        ("2 ** range(3, 8)", True),
        ("10.0 ** np.arange(-5, -1)", False),  # learning rates: fractions, no sizes
        ("0.5 ** np.arange(4)", False),
        ("np.arange(4, 10)", False),  # numbered turns
        ("np.arange(4) * 64", False),
    ],
)
def test_an_integer_base_to_points_from_zero_up_gives_sizes(text: str, sizes: bool) -> None:
    """A geometric series of an integer base from 1 up is how a sweep of sizes is written (each
    point a problem of its own); a base below 2, negative exponents or plain numbering are not."""
    points = spelled_points(ast.parse(text, mode="eval").body, unbound)
    assert points is not None and points.sizes is sizes


_INTEGRATOR = """\
from functools import partial

import jax
import jax.numpy as jnp


class Integrator:
    def __init__(self, dt):
        self.dt = dt

    @partial(jax.jit, static_argnums=(0,), static_argnames=("iterations", "damping"))
    def integrate(self, q0, iterations, damping=0.0):
        def body(q, _):
            q = q + self.dt * (jnp.sin(q) - damping * q)
            return q, q

        return jax.lax.scan(body, q0, None, length=iterations)
"""

_RUNTIME_SCRIPT = """\
import time

import jax.numpy as jnp
import numpy as np

from solver import Integrator

solver = Integrator(0.1)
REPEATS = 4


def sample(iterations):
    start = time.time()
    for _ in range(REPEATS):
        solver.integrate(jnp.ones(1), iterations=iterations)
    return (time.time() - start) / REPEATS


iteration_points = 2 ** np.arange(4, 10, 0.5)
times = np.array([sample(int(n)) for n in iteration_points])
np.save("runtime.npy", times)
"""

_DAMPING_SCRIPT = """\
import jax.numpy as jnp
import numpy as np

from solver import Integrator

solver = Integrator(0.1)


def final_state(damping):
    q, _ = solver.integrate(jnp.ones(1), iterations=256, damping=damping)
    return float(q[0])


dampings = 10.0 ** np.arange(-5, -1)
finals = np.array([final_state(float(d)) for d in dampings])
np.save("damping.npy", finals)
"""


def test_a_comprehension_over_powers_of_two_is_a_sweep_of_sizes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fresh round 16 (slimpletic-jax): a runtime figure written as a list comprehension over
    ``2 ** np.arange(4, 10, 0.5)``, each point an ``int(n)`` scan length handed through a helper
    to a solver's jitted method in another module: each point is a size of its own, stepped by a
    scan, so the finding rests on the sweep and is shown only with ``--confidence all``. A float
    setting swept over ``10.0 ** np.arange(-5, -1)`` (fractions, no sizes) stays reported: it
    could be traced."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "solver.py").write_text(_INTEGRATOR, encoding="utf-8")
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "runtime.py").write_text(_RUNTIME_SCRIPT, encoding="utf-8")
    (tmp_path / "figures" / "damping.py").write_text(_DAMPING_SCRIPT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    assert {(f["path"], f["line"], f["code"]) for f in json.loads(shown.stdout)} == {
        ("figures/damping.py", 15, "RTL202")
    }
    every = CliRunner().invoke(main, ["--no-cache", "--format", "json", "--confidence", "all", "."])
    swept = [f for f in json.loads(every.stdout) if f["path"] == "figures/runtime.py"]
    assert [(f["line"], f["code"], f["severity"]) for f in swept] == [(20, "RTL201", "warning")]
    assert swept[0]["assumptions"][0]["text"] == (
        "a sweep over 12 fixed points, each using its jit in a loop of its own"
    )
