"""`retracelint confirm` on the bundled example project, with the real static analysis: it reports
exactly the marked bugs and running examples/run.py confirms every one, and the fixed copy confirms
nothing, even with every jit site guarded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from confirm_programs.support import ROOT, ConfirmJob, jax_available, once_per_session
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


def _marked() -> set[tuple[str, int, str]]:
    """(path relative to the repository, line, code) of every `# expect:` marker in examples/."""
    return {
        (Path(path).relative_to(ROOT).as_posix(), line, code)
        for path, line, code in expectations(ROOT / "examples")
    }


def _run_both() -> dict:
    buggy = ConfirmJob([], paths=["examples"], command=[sys.executable, "examples/run.py"])
    fixed = ConfirmJob(
        [],
        paths=["examples_fixed"],
        extra=["--guard", "all"],
        command=[sys.executable, "examples_fixed/run.py"],
    )
    return {"buggy": buggy.result().to_json(), "fixed": fixed.result().to_json()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return once_per_session(tmp_path_factory, "examples", _run_both)


def test_every_reported_bug_is_confirmed(runs: dict) -> None:
    run = runs["buggy"]
    report = run["report"]
    assert report, run["stderr"][-3000:]
    assert report["exit_code"] == 0 and run["returncode"] == 1
    marked = _marked()
    assert len(marked) >= 10
    # The static pass reports every marker and nothing else (tests/test_fixtures.py checks the same
    # without running anything), and the run proves each finding.
    reported = {(Path(f["path"]).as_posix(), f["line"], f["code"]) for f in report["findings"]}
    assert (sorted(marked - reported), sorted(reported - marked)) == ([], [])
    for f in report["findings"]:
        assert f["status"] == "confirmed", (f["path"], f["line"], f["code"], f["note"])
        assert f["evidence"] and f["evidence"][0]["stack"], f


def test_the_fixed_project_confirms_nothing(runs: dict) -> None:
    run = runs["fixed"]
    report = run["report"]
    assert report, run["stderr"][-3000:]
    assert report["summary"]["confirmed"] == 0
    assert report["unpredicted"] == [], report["unpredicted"]
    assert report["exit_code"] == 0 and run["returncode"] == 0
