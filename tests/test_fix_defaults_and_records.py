"""Two shapes of issue 41's fixes on a project over modules, as a user runs ``check --fix``: a default
callable made per call inside a conditional expression (RTL204: the branch that makes it is made once),
and a nested def jitted by ``@partial(jax.jit, static_argnums=...)`` that closes over a value going
through a NamedTuple of the module (RTL301: the def moves out, the value becomes a keyword argument, the
static positions stay)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from dynamic_support import run_fixed_and_original

from retracelint.cli import main

SIMULATOR = '''\
"""Closed-loop simulation with an optional disturbance model."""

import jax
import jax.numpy as jnp


def _rollout(x0, controller, disturbance, num_steps):
    def step(x, _):
        u = controller(x)
        x = x + 0.1 * jnp.stack([x[1], u]) + disturbance(x, u)
        return x, x[0]

    return jax.lax.scan(step, x0, None, length=num_steps)[1]


rollout = jax.jit(_rollout, static_argnums=(1, 2, 3))


def execute(x0, controller, num_steps, disturbance=None):
    # without a disturbance model the plant is undisturbed
    model = (
        disturbance if disturbance is not None else (lambda x, u: jnp.zeros_like(x))
    )
    return rollout(x0, controller, model, num_steps)
'''

EPIDEMIC = '''\
"""An SIR epidemic for several contact rates."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Population(NamedTuple):
    susceptible: jax.Array
    infected: jax.Array


def infect(state, beta, gamma=0.1):
    new = beta * state.susceptible * state.infected
    nxt = Population(state.susceptible - new, state.infected + new - gamma * state.infected)
    return nxt, nxt.infected


def simulate(beta, days=30):
    @partial(jax.jit, static_argnums=(1,))
    def run(state, horizon):
        return jax.lax.scan(lambda s, _: infect(s, beta), state, None, length=horizon)[1]

    return run(Population(jnp.float32(0.99), jnp.float32(0.01)), days)
'''

MAIN = """\
import jax.numpy as jnp

from epidemic import simulate
from simulator import execute


def pd(x):
    return -1.0 * x[0] - 0.5 * x[1]


for target in (1.0, 2.0, 3.0):
    trace = execute(jnp.array([target, 0.0]), pd, 20)
    print(f"target {target}: final {float(trace[-1]):.4f}")
for beta in (0.2, 0.3, 0.4):
    print(f"beta {beta}: peak {float(simulate(beta).max()):.4f}")
"""


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (("simulator.py", SIMULATOR), ("epidemic.py", EPIDEMIC), ("main.py", MAIN)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


FIXED_SIMULATOR = SIMULATOR.replace(
    "\n\ndef execute(",
    "\n\nMODEL = lambda x, u: jnp.zeros_like(x)\n\n\ndef execute(",
).replace("(lambda x, u: jnp.zeros_like(x))\n", "(MODEL)\n")

FIXED_EPIDEMIC = EPIDEMIC.replace(
    """def simulate(beta, days=30):
    @partial(jax.jit, static_argnums=(1,))
    def run(state, horizon):
        return jax.lax.scan(lambda s, _: infect(s, beta), state, None, length=horizon)[1]
""",
    """def run(state, horizon, *, beta):
    return jax.lax.scan(lambda s, _: infect(s, beta), state, None, length=horizon)[1]


run_jit = jax.jit(run, static_argnums=(1,))


def simulate(beta, days=30):
    run = partial(run_jit, beta=beta)
""",
)


def test_the_default_lambda_is_made_once_and_the_partial_jitted_def_moves_out(
    project: Path,
) -> None:
    found = lint("--diff", ".")
    assert found.stderr.splitlines()[-1] == (  # RTL301's is unsafe
        "Would fix 1 error (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    )
    assert found.exit_code == 1
    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.stderr.splitlines()[-1] == "Found 2 errors (2 fixed, 0 remaining)."
    assert fixed.exit_code == 0
    assert (project / "simulator.py").read_text() == FIXED_SIMULATOR
    assert (project / "epidemic.py").read_text() == FIXED_EPIDEMIC
    assert (project / "main.py").read_text() == MAIN
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0
    assert (project / "epidemic.py").read_text() == FIXED_EPIDEMIC


def test_a_value_a_record_field_gives_python_control_flow_goes_static(project: Path) -> None:
    # the rate decides, through a record, how many days are simulated: beta must stay concrete
    concrete = EPIDEMIC.replace(
        "        return jax.lax.scan(lambda s, _: infect(s, beta), state, None, length=horizon)[1]\n",
        "        rates = Population(beta, beta)\n"
        "        days = horizon if rates.infected > 0.25 else horizon - 1\n"
        "        return jax.lax.scan(lambda s, _: infect(s, beta), state, None, length=days)[1]\n",
    )
    (project / "epidemic.py").write_text(concrete, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    # the fixed jit is then found to take a changing static float, which stays static
    assert result.stderr.splitlines() == [
        "retracelint: main.py:15:47: RTL202 not fixed: beta must stay static: line 22 passes it to"
        " Population",
        "Found 3 errors (2 fixed, 1 remaining).",
    ]
    fixed = (project / "epidemic.py").read_text()
    assert 'run_jit = jax.jit(run, static_argnums=(1,), static_argnames=("beta",))\n' in fixed
    assert "def run(state, horizon, *, beta):\n    rates = Population(beta, beta)\n" in fixed


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fixed_project_once_and_it_prints_the_same(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    report, original = run_fixed_and_original(
        project, lambda: lint("--fix", "--unsafe-fixes", "."), tmp_path_factory.mktemp("before")
    )
    assert not report.raised, report.summary()
    assert report.total_retraces == 0, report.summary()
    assert not original.raised, original.summary()
    assert original.stdout, "the program must print what the fix has to keep"
    assert report.stdout == original.stdout
