"""`retracelint confirm` on the bundled example project, with the real static analysis: every
marked bug is confirmed by running examples/run.py, and the fixed copy confirms nothing, even
with every jit site guarded."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from confirm_programs.support import ROOT, ConfirmJob, jax_available, once_per_session

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
_MARKER = re.compile(r"#\s*expect:\s*(RTL\d{3}(?:\s*,\s*RTL\d{3})*)")


def _marked() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted((ROOT / "examples").rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if m := _MARKER.search(line):
                rel = path.relative_to(ROOT).as_posix()
                out += [(rel, i, code.strip()) for code in m.group(1).split(",")]
    return out


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
    marked = set(_marked())
    assert len(marked) >= 10
    # Whether the static pass finds each marked bug is tested with the static pass; here every
    # finding it reports on a marked line must be proven by the run.
    on_marked = [
        f
        for f in report["findings"]
        if (Path(f["path"]).as_posix(), f["line"], f["code"]) in marked
    ]
    assert len(on_marked) >= 8, [(f["path"], f["line"], f["code"]) for f in report["findings"]]
    for f in on_marked:
        assert f["status"] == "confirmed", (f["path"], f["line"], f["code"], f["note"])
        assert f["evidence"] and f["evidence"][0]["stack"], f
    assert not [f for f in report["findings"] if f["status"] == "not reached"]


def test_the_fixed_project_confirms_nothing(runs: dict) -> None:
    run = runs["fixed"]
    report = run["report"]
    assert report, run["stderr"][-3000:]
    assert report["summary"]["confirmed"] == 0
    assert report["unpredicted"] == [], report["unpredicted"]
    assert report["exit_code"] == 0 and run["returncode"] == 0
