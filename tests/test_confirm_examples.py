"""`retracelint confirm` on the bundled example projects, with the real static analysis: exactly the
marked bugs are reported, running the project's program confirms every one, and the fixed copy
confirms nothing, even with every jit site observed. The trainer (examples/run.py) uses jax.jit; examples/nnx_trainer/ uses
flax.nnx.jit and examples/eqx_trainer/ equinox.filter_jit and an eager lax.scan (each tested when its
library is installed)."""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from confirm_programs.support import ROOT, ConfirmJob, jax_available, once_per_session
from dynamic_support import compiled_executables
from limits import HANG_S
from test_examples_dynamic import plain_runs
from test_fixtures import expectations

try:
    from retracelint.engine import analyse_paths  # noqa: F401
except ImportError:  # pragma: no cover - the static pass is being written
    ENGINE = False
else:
    ENGINE = True

pytestmark = [
    pytest.mark.skipif(not jax_available(), reason="confirm needs jax (pip install jax)"),
    pytest.mark.skipif(not ENGINE, reason="retracelint.engine is not available"),
]


@dataclass(frozen=True)
class Project:
    name: str
    folder: str  # under examples/ and examples_fixed/ ("" for the trainer at the top)
    program: str  # relative to the folder
    needs: str | None  # a library that is not in the test extras

    def available(self) -> bool:
        if self.needs is None:
            return True
        try:
            return importlib.util.find_spec(self.needs) is not None
        except (ImportError, ValueError):
            return False

    def owns(self, rel: str) -> bool:
        """Is this path (relative to examples/ or examples_fixed/) part of the project?"""
        if self.folder:
            return rel.startswith(self.folder + "/")
        return not any(rel.startswith(p.folder + "/") for p in PROJECTS if p.folder)


PROJECTS = (
    Project("trainer", "", "run.py", None),
    Project("nnx_trainer", "nnx_trainer", "train.py", "flax"),
    Project("eqx_trainer", "eqx_trainer", "train.py", "equinox"),
)


def _marked(project: Project) -> set[tuple[str, int, str]]:
    """(path relative to the repository, line, code) of every `# expect:` marker of the project."""
    examples = ROOT / "examples"
    return {
        (Path(path).relative_to(ROOT).as_posix(), line, code)
        for path, line, code in expectations(examples)
        if project.owns(Path(path).relative_to(examples).as_posix())
    }


def _jobs(project: Project, env: dict[str, str]) -> dict[str, ConfirmJob]:
    jobs = {}
    for kind, top, extra in (
        ("buggy", "examples", []),
        ("fixed", "examples_fixed", ["--guard", "all"]),
    ):
        folder = f"{top}/{project.folder}".rstrip("/")
        jobs[kind] = ConfirmJob(
            [],
            # The trainer is analysed as the whole examples/ project, as the README's Quick start does.
            paths=[top if not project.folder else folder],
            extra=extra,
            command=[sys.executable, f"{folder}/{project.program}"],
            timeout=HANG_S,
            env=env,
        )
    return jobs


def _run_all(env: dict[str, str]) -> dict:
    started = {p.name: _jobs(p, env) for p in PROJECTS if p.available()}
    return {
        name: {kind: job.result().to_json() for kind, job in jobs.items()}
        for name, jobs in started.items()
    }


def example_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Each available project's confirm runs, buggy and fixed, once per test session. The trainer's
    programs run first without confirm (tests/test_examples_dynamic.py's runs, which
    tests/test_confirm_identical.py compares these with), and its confirm runs load the executables
    those compiled instead of compiling them again (``compiled_executables``): a trainer run under
    confirm 7.3 -> 4.5 CPU s, the same statuses and output."""

    def run_all() -> dict:
        plain_runs(tmp_path_factory)
        return _run_all({**os.environ, **compiled_executables()})

    return once_per_session(tmp_path_factory, "examples", run_all)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return example_runs(tmp_path_factory)


def _project_runs(runs: dict, project: Project) -> dict:
    if not project.available():
        pytest.skip(f"{project.needs} is not installed")
    return runs[project.name]


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_every_reported_bug_is_confirmed(runs: dict, project: Project) -> None:
    run = _project_runs(runs, project)["buggy"]
    report = run["report"]
    assert report, run["stderr"][-3000:]
    assert report["exit_code"] == 0 and run["returncode"] == 1, run["stderr"][-3000:]
    marked = _marked(project)
    assert len(marked) >= (10 if project.name == "trainer" else 2)
    mine = [
        f
        for f in report["findings"]
        if project.owns(Path(f["path"]).as_posix().removeprefix("examples/"))
    ]
    # The static pass reports every marker and nothing else (tests/test_fixtures.py checks the same
    # without running anything), and the run proves each finding.
    reported = {(Path(f["path"]).as_posix(), f["line"], f["code"]) for f in mine}
    assert (sorted(marked - reported), sorted(reported - marked)) == ([], [])
    for f in mine:
        assert f["status"] == "confirmed", (f["path"], f["line"], f["code"], f["note"])
        assert f["evidence"] and f["evidence"][0]["stack"], f
    assert report["unpredicted"] == [], report["unpredicted"]


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_the_fixed_project_confirms_nothing(runs: dict, project: Project) -> None:
    run = _project_runs(runs, project)["fixed"]
    report = run["report"]
    assert report, run["stderr"][-3000:]
    assert report["summary"]["confirmed"] == 0
    assert report["unpredicted"] == [], report["unpredicted"]
    assert report["exit_code"] == 0 and run["returncode"] == 0, run["stderr"][-3000:]
