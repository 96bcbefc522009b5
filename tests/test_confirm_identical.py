"""`retracelint confirm` never changes what the program computes or prints: the example project prints
exactly the same with and without it (the report goes to a file, so stdout is the program's alone),
and so does a program that prints JAX's own cache-miss explanations and compile logs.

The runs of the example project are those of tests/test_confirm_examples.py and
tests/test_examples_dynamic.py, made once per session; the three files are one unit of work for
pytest-xdist (tests/work_units.py), so that no worker waits for another's runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from confirm_programs.support import PROGRAMS, ROOT, child_environment, program_findings, write_plan
from limits import HANG_S
from test_confirm_examples import example_runs
from test_examples_dynamic import plain_runs

pytest.importorskip(
    "jax", reason="retracelint confirm needs jax (pip install 'retracelint[confirm]')"
)


@pytest.mark.parametrize(("project", "kind"), [("examples", "buggy"), ("examples_fixed", "fixed")])
def test_outputs_are_identical_with_and_without_confirm(
    project: str, kind: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The example project's program under the README's ``retracelint confirm examples/ -- python
    examples/run.py`` (its fixed copy with ``--guard all``: every jit site observed), against the
    same program run without confirm: tests/test_confirm_examples.py's and
    tests/test_examples_dynamic.py's runs, made once per session."""
    plain = plain_runs(tmp_path_factory)[ROOT / project]
    confirmed = example_runs(tmp_path_factory)["trainer"][kind]
    assert plain.returncode == 0 and plain.exception is None, plain.stderr[-2000:]
    assert plain.stdout.strip()
    assert confirmed["stdout"] == plain.stdout
    assert confirmed["report"], confirmed["stderr"][-2000:]


# Timings, object addresses and ids differ from run to run, with or without confirm.
_VARYING = re.compile(r"\d+\.\d+ sec|0x[0-9a-f]+|id=\d+")


def _normalised(text: str) -> str:
    return _VARYING.sub("<n>", text)


def test_the_programs_own_explanations_and_compile_logs_are_unchanged(tmp_path: Path) -> None:
    """Under confirm's default guard. The program's one jit site is flagged, so ``--guard all``
    would observe exactly the sites the plan names (it adds only sites no finding names): the same
    runs again. What every site observed leaves unchanged is test_jax_itself_is_left_as_it_is's and
    the fixed example project's (test_outputs_are_identical_with_and_without_confirm)."""
    findings, _ = program_findings("own_logs.py")
    plan = write_plan(findings, tmp_path / "plan.json")
    env = child_environment({**os.environ, "JAX_PLATFORMS": "cpu"})
    program = [sys.executable, str(PROGRAMS / "own_logs.py")]
    outputs = {}
    runs = {
        "plain": program,
        "flagged": [*_confirm(tmp_path, "flagged", "--plan", str(plan)), *program],
    }
    for explain_env in ("", "1"):
        run_env = {**env, "JAX_EXPLAIN_CACHE_MISSES": "1"} if explain_env else env
        for name, command in runs.items():
            proc = subprocess.run(
                command, cwd=ROOT, env=run_env, capture_output=True, text=True, timeout=HANG_S
            )
            assert proc.returncode == (0 if name == "plain" else 1), proc.stderr[-3000:]
            outputs[name, explain_env] = (_normalised(proc.stdout), _normalised(proc.stderr))
    for (name, explain_env), (out, err) in outputs.items():
        plain_out, plain_err = outputs["plain", explain_env]
        assert out == plain_out, (name, explain_env)
        assert err == plain_err, (name, explain_env)
    out = outputs["plain", "1"][0]
    # The program's own settings took effect: explanations at the user's lines, compile logs
    # for the two calls of `scale` under log_compiles that traced.
    explained = [line for line in out.splitlines() if "TRACING CACHE MISS at" in line]
    assert len(explained) == 3 and all("own_logs.py:" in line for line in explained)
    assert out.count("Finished tracing scale for jit") == 2
    assert "explain setting: True" in out  # the environment's value, read by jax as usual
    assert "explain setting: False" in outputs["plain", ""][0]


def _confirm(tmp_path: Path, name: str, *args: str) -> list[str]:
    report = tmp_path / f"{name}.json"
    return [sys.executable, "-m", "retracelint.confirm", *args, "-o", str(report), "--"]


def test_jax_itself_is_left_as_it_is(tmp_path: Path) -> None:
    """jax.jit and jax.pmap stay JAX's objects, partials of jax.jit pickle, bad calls raise the same
    errors through the same frames, and JAX's leak checker finds nothing of ours under nested and
    rematted jits: the program prints the same with and without confirm, in both guard modes."""
    findings, _ = program_findings("jax_untouched.py")
    plan = write_plan(findings, tmp_path / "plan.json")
    env = child_environment({**os.environ, "JAX_PLATFORMS": "cpu"})
    program = [sys.executable, str(PROGRAMS / "jax_untouched.py")]
    runs = {
        "plain": program,
        "all": [*_confirm(tmp_path, "all", "--plan", str(plan), "--guard", "all"), *program],
    }
    outputs = {}
    for name, command in runs.items():
        proc = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG_S
        )
        assert proc.returncode == (0 if name == "plain" else 1), proc.stderr[-3000:]
        outputs[name] = _normalised(proc.stdout)
    assert outputs["all"] == outputs["plain"]
    out = outputs["plain"]
    assert "jax.jit is api.jit: True\njax.pmap is pmap: True\npartial(jax.jit) pickles: True" in out
    assert (
        "jax.jit(bogus=1) raises TypeError: jit() got an unexpected keyword argument 'bogus'" in out
    )
    assert "nested: [1, 3, 5]\nremat3: [1, 2, 3]\njax_untouched done" in out


def test_an_error_that_ends_the_program_is_evidence_and_excepthook_is_left_alone(
    tmp_path: Path,
) -> None:
    """JAX raises its unhashable-static error before it traces, and here nothing catches it:
    confirm still confirms RTL203 at that call, and the program sees Python's own sys.excepthook
    and prints the same traceback as without confirm."""
    findings, _ = program_findings("unhashable_exit.py")
    plan = write_plan(findings, tmp_path / "plan.json")
    env = child_environment({**os.environ, "JAX_PLATFORMS": "cpu"})
    program = [sys.executable, str(PROGRAMS / "unhashable_exit.py")]
    report = tmp_path / "report.json"
    confirm = [sys.executable, "-m", "retracelint.confirm", "--plan", str(plan), "--format", "json"]
    runs = {"plain": program, "confirm": [*confirm, "-o", str(report), "--", *program]}
    outputs = {}
    for name, command in runs.items():
        proc = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG_S
        )
        traceback = proc.stderr[proc.stderr.find("Traceback (most recent call last)") :]
        outputs[name] = (proc.returncode, proc.stdout, _normalised(traceback))
    assert outputs["plain"][0] == 1
    assert outputs["confirm"][1:] == outputs["plain"][1:]
    assert "sys.excepthook is Python's own: True" in outputs["plain"][1]
    assert "ValueError: Non-hashable static arguments" in outputs["plain"][2]
    data = json.loads(report.read_text(encoding="utf-8"))
    [finding] = data["findings"]
    assert (finding["code"], finding["status"], data["exit_code"]) == ("RTL203", "confirmed", 1)
    [error] = finding["evidence"]
    source = (PROGRAMS / "unhashable_exit.py").read_text(encoding="utf-8").splitlines()
    assert source[error["stack"][0]["line"] - 1].startswith("print(normalise(x, axes=[0, 1]))")
