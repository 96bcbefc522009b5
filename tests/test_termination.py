"""Every run ends, in seconds (issue 36): the propagation keeps the answers it would otherwise give
again along every path (``Propagation.field_causes``, ``call_result``), and each check has a budget of
steps (``propagate.MAX_STEPS``): one that runs out is cut short with one RTL000 line at the jit call it
was about, and the others go on.

Every fixture (``test_fixtures`` runs them under ``TIGHT_STEPS``), example and accuracy or held-out
benchmark program is analysed well within a budget far below the real one, so a change that makes a
check ask many more questions fails here, not on a user's code base.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from limits import HANG_S, cpu_limited, cpu_seconds

import retracelint.propagate as propagate
from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# The most steps a check takes on any fixture, example or benchmark program is 414 (the tell call of
# the evolution strategy below), and 3,203 on the speed corpus (663 kLOC, a check of the whole
# project); the budget of a run is MAX_STEPS.
TIGHT_STEPS = 5_000
# Three modules: a dataclass state whose fields the jitted `tell` makes from each other through a
# chain of `dataclasses.replace`, and a loop that feeds each state back; it ran for over ten minutes.
EVOLUTION = FIXTURES / "es_state_fields_updated_from_each_other_negative"
TELL_CALL = ("run.py", 28)  # `state = tell(state, noise, sphere(population))`


def test_a_state_whose_fields_are_made_from_each_other_is_analysed_in_seconds() -> None:
    # A fresh process under a limit of 60 CPU seconds (it ran for over ten minutes): the kernel stops
    # it past that, and waiting for a core on a busy machine does not count.
    command = [sys.executable, "-I", "-m", "retracelint", "--no-cache", "--isolated"]
    proc = subprocess.run(
        cpu_limited([*command, "--format", "json", "."], cpu_s=60),
        cwd=EVOLUTION,
        capture_output=True,
        timeout=HANG_S,
        check=False,
    )
    assert (proc.returncode, json.loads(proc.stdout)) == (0, []), proc.stderr


def test_a_check_out_of_steps_is_one_rtl000_at_its_jit_call_and_the_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "es"
    shutil.copytree(EVOLUTION, project)
    # Another jitted call in the project, given the loop counter as a static argument.
    (project / "schedule.py").write_text(
        "from functools import partial\n\nimport jax\n\n\n"
        '@partial(jax.jit, static_argnames="n")\n'
        "def warm(x, n):\n    return x * n\n\n\n"
        "def ramp(x, steps):\n    for i in range(steps):\n        x = warm(x, n=i)\n    return x\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(propagate, "MAX_STEPS", 100)
    outputs = [
        CliRunner().invoke(main, ["--no-cache", "--format", "json", str(project)]) for _ in range(2)
    ]
    assert outputs[0].stdout == outputs[1].stdout  # steps are counted, not timed
    found = json.loads(outputs[0].stdout)
    assert outputs[0].exit_code == 1
    assert [(Path(f["path"]).name, f["line"], f["code"]) for f in found] == [
        (TELL_CALL[0], TELL_CALL[1], "RTL000"),
        ("schedule.py", 13, "RTL201"),
    ]
    message = found[0]["message"]
    assert message.startswith("analysis cut short: a check of this call took more than 100 steps")
    assert message.endswith("(); findings it would give are missing")


def _benchmark_programs() -> list[Path]:
    accuracy = ROOT / "benchmarks" / "accuracy"
    folders = [*(accuracy / "programs").iterdir(), *(accuracy / "heldout").iterdir()]
    return [ROOT / "examples", ROOT / "examples_fixed", *sorted(p for p in folders if p.is_dir())]


def test_every_example_and_benchmark_program_is_analysed_within_a_tight_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In one process, each program alone as the benchmark runs it: no check cut short under a
    budget 25 times below the real one, and none takes more than seconds even on a busy machine."""
    monkeypatch.setattr(propagate, "MAX_STEPS", TIGHT_STEPS)
    programs = _benchmark_programs()
    assert len(programs) > 400
    slow, cut = [], []
    for program in programs:
        started = cpu_seconds()
        run = analyse([str(program)], Settings(cache=False, select=("RTL",), jobs=1))
        if cpu_seconds() - started > 20:
            slow.append(program.name)
        cut += [f.message for f in run.findings if f.message.startswith("analysis cut short")]
    assert (slow, cut) == ([], [])


def test_a_jitted_method_delegating_to_an_attribute_of_unknown_class_ends(tmp_path: Path) -> None:
    # `self.agent.step(x)` in `Population.step`, `agent` of no known class: linked to the one `step`
    # there is, the method itself, the origin of `self` went on through `self.agent`,
    # `self.agent.agent`, ... until Python's recursion limit ended the whole run (exit 2; fresh round
    # 5, from minimax). A static-`self` jit that delegates like this is common wrapper code.
    (tmp_path / "population.py").write_text(
        "from functools import partial\n\nimport jax\n\n\nclass Population:\n"
        "    def __init__(self, agent, size):\n        self.agent = agent\n        self.size = size\n\n"
        "    @partial(jax.jit, static_argnums=(0,))\n    def step(self, x):\n"
        "        return self.agent.step(x)\n",
        encoding="utf-8",
    )
    (tmp_path / "train.py").write_text(
        "import jax.numpy as jnp\n\nfrom population import Population\n\n\n"
        "def train(agent, steps):\n    population = Population(agent, 8)\n"
        "    for _ in range(steps):\n        population.step(jnp.ones((8, 3)))\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["check", "--no-cache", "--isolated", str(tmp_path)])
    assert (result.exit_code, result.stdout) == (0, ""), result.output
