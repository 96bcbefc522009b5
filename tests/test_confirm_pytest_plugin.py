"""The pytest plugin, run in pytest subprocesses on a small project of its own: tests/confirm_programs/
pytest_cases.py and a test module whose re-trace the static pass predicts. Three sessions: a plain one
(the static pass of the project first, then the re-traces it predicts and those it does not), a strict
one under pytest-xdist (two workers that each run every test, reports merged) and one with a plan.

The project is a copy in a folder of its own: the plugin's static pass reads the whole project it
runs in (its root), and this repository would cost each session tens of CPU seconds."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from confirm_programs.support import PROGRAMS, child_environment, jax_available, once_per_session
from limits import HANG_S

from retracelint.model import Finding, JitSite, Location

pytestmark = pytest.mark.skipif(not jax_available(), reason="confirm needs jax (pip install jax)")
CASES = PROGRAMS / "pytest_cases.py"


def _plugin_args() -> list[str]:
    # Installed with its pytest11 entry point, the plugin is already loaded; naming it again under
    # another name would make pytest refuse to register it twice.
    installed = any(
        ep.value == "retracelint.pytest_plugin"
        for ep in importlib.metadata.entry_points(group="pytest11")
    )
    return [] if installed else ["-p", "retracelint.pytest_plugin"]


def _pytest(*args: str) -> list[str]:
    """A pytest run in a child process with the plugin and nothing else of this project's setup."""
    return [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        # hypothesis' plugin costs seconds per xdist worker and is not needed here.
        "-p",
        "no:hypothesispytest",
        *_plugin_args(),
        "-o",
        "addopts=",
        *args,
    ]


def _plan(project: Path) -> Path:
    source = CASES.read_text(encoding="utf-8").splitlines()

    def line_of(text: str) -> int:
        return next(i for i, line in enumerate(source, 1) if line.startswith(text))

    def finding(code: str, name: str, parameter: str) -> Finding:
        site = JitSite(
            f"pytest_cases.{name}", name, Location(CASES.name, line_of(f"def {name}"), 1), "jax.jit"
        )
        return Finding(
            code,
            f"{code} on {name}",
            Location(CASES.name, line_of(f"def {name}"), 1),
            jit_site=site,
            parameter=parameter,
        )

    from retracelint.confirm.plan import build_plan

    plan = build_plan(
        [finding("RTL101", "predict", "x"), finding("RTL101", "stable", "x")], root=project
    )
    path = project.parent / "plan.json"
    path.write_text(json.dumps(plan.to_json()), encoding="utf-8")
    return path


# A re-trace the static pass predicts (RTL105: a size from the loop), reported under its rule.
PREDICTED = """\
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x)


def test_sizes():
    for n in range(1, 4):
        assert total(jnp.ones(n)) == n
"""


def _project(tmp: Path) -> Path:
    project = tmp / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.retracelint]\n", encoding="utf-8")
    (project / CASES.name).write_text(CASES.read_text(encoding="utf-8"), encoding="utf-8")
    (project / "test_sizes.py").write_text(PREDICTED, encoding="utf-8")
    return project


def _run_all() -> dict:
    project = _project(Path(tempfile.mkdtemp(prefix="rtl-plugin-test-")))
    base = _pytest(CASES.name)
    sessions = {
        "plain": ["test_sizes.py", "--retracelint"],
        # Each worker runs every test (--dist each), so what the summary must hold is known: the
        # re-traces of both workers, not of whichever one the last events came from.
        "strict-xdist": ["--retracelint-strict", "-n", "2", "--dist", "each"],
        "plan": ["--retracelint-plan", str(_plan(project))],
    }
    out = {}
    for name, extra in sessions.items():  # one after the other: xdist already uses both cores
        report = project.parent / f"{name}.json"
        args = [*base, *extra, "--retracelint-report", str(report)]
        proc = subprocess.run(
            args,
            cwd=project,
            env=child_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=HANG_S,
        )
        data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else None
        out[name] = {"returncode": proc.returncode, "output": proc.stdout, "report": data}
    return out


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return once_per_session(tmp_path_factory, "pytest-plugin", _run_all)


def test_a_session_reports_the_functions_that_re_traced(sessions: dict) -> None:
    run = sessions["plain"]
    out = run["output"]
    assert run["returncode"] == 0, out[-3000:]
    assert "11 passed" in out
    assert "retracelint" in out and "RTL901 unpredicted re-trace: predict re-traced 2 times" in out
    assert "x: f32[3] -> f32[4]" in out
    assert "(test pytest_cases.py::test_predict_shapes[4])" in out
    # A function jitted anew by each test: said once, with the count, and not a re-trace.
    assert "rebuilt per test: scaled is jitted anew by each of 3 tests" in out
    assert "4 jit site(s) observed, 2 re-traced (4 re-trace(s)), 1 rebuilt per test" in out
    [site] = run["report"]["unpredicted"]
    assert site["name"] == "predict" and site["retraces"] == 2
    source = CASES.read_text(encoding="utf-8").splitlines()
    assert source[site["line"] - 1].startswith("def predict")  # the def line, not the decorator's
    [rebuilt] = run["report"]["rebuilt_per_test"]
    assert (rebuilt["name"], rebuilt["tests"]) == ("scaled", 3)


def test_a_re_trace_the_static_pass_predicts_is_reported_under_its_rule(sessions: dict) -> None:
    run = sessions["plain"]
    [finding] = run["report"]["findings"]
    assert (finding["path"], finding["code"], finding["status"]) == (
        "test_sizes.py",
        "RTL105",
        "confirmed",
    ), finding
    assert [
        line for line in run["output"].splitlines() if "RTL901" in line and "total" in line
    ] == []


def test_strict_mode_under_xdist_merges_the_workers_and_fails(sessions: dict) -> None:
    run = sessions["strict-xdist"]
    out = run["output"]
    assert "2 workers [10 items]" in out, out[-3000:]
    assert "20 passed" in out
    assert run["returncode"] == 1
    assert "failing the session (--retracelint-strict)" in out
    report = run["report"]
    assert report["processes"] == 3  # the controller and both workers
    assert [(r["name"], r["tests"]) for r in report["rebuilt_per_test"]] == [("scaled", 3)]
    [site] = report["unpredicted"]
    # 3 shapes in each worker: 2 re-traces each, both workers' in the summary.
    assert (site["name"], site["retraces"], site["traces"]) == ("predict", 4, 6)
    assert "predict re-traced 4 times" in out
    assert "3 jit site(s) observed, 1 re-traced (4 re-trace(s)), 1 rebuilt per test" in out
    assert "stable" not in out.split("retracelint ==")[-1].split("jit site(s)")[0]


def test_a_plan_gives_each_finding_a_status(sessions: dict) -> None:
    run = sessions["plan"]
    assert run["returncode"] == 0, run["output"][-3000:]
    statuses = {f["message"]: f["status"] for f in run["report"]["findings"]}
    assert statuses == {"RTL101 on predict": "confirmed", "RTL101 on stable": "not re-traced"}
    assert run["report"]["unpredicted"] == []
    assert "2 findings: 1 confirmed, 1 not re-traced" in run["output"]
