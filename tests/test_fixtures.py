"""Every fixture under tests/fixtures/ carries its expectations inline: `# expect: RTL101` on each line that
must be reported. The analysis must report exactly those (path, line, code) triples: a missing finding and
an extra finding both fail. A top-level folder is one project (its modules import each other); a top-level
file is a project of its own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_termination import TIGHT_STEPS

import retracelint.propagate as propagate
from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>RTL\d+(?:\s*,\s*RTL\d+)*)")


def expectations(root: Path) -> set[tuple[str, int, str]]:
    files = [root] if root.is_file() else sorted(root.rglob("*.py"))
    out = set()
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = EXPECT.search(line)
            if match:
                for code in re.split(r"\s*,\s*", match.group("codes")):
                    out.add((str(path), number, code))
    return out


@pytest.fixture(autouse=True)
def _tight_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each check of a fixture ends far within its budget: one cut short is an extra RTL000."""
    monkeypatch.setattr(propagate, "MAX_STEPS", TIGHT_STEPS)


def projects() -> list[Path]:
    return sorted(p for p in FIXTURES.iterdir() if p.suffix == ".py" or p.is_dir())


@pytest.mark.parametrize("project", projects(), ids=lambda p: p.name)
def test_fixture_findings_match_expectations(project: Path) -> None:
    run = analyse([str(project)], Settings(cache=False, select=("RTL",)))
    found = {(f.location.path, f.location.line, f.code) for f in run.findings}
    expected = expectations(project)
    missing = sorted(expected - found)
    extra = sorted(found - expected)
    details = {(f.location.path, f.location.line, f.code): f.message for f in run.findings}
    assert not missing and not extra, (
        f"missing: {missing}\nextra: {[(e, details[e]) for e in extra]}"
    )


ROOT = FIXTURES.parent.parent


@pytest.mark.parametrize("folder", ["examples", "examples_fixed"])
def test_the_example_project_reports_exactly_its_markers(folder: str) -> None:
    """`retracelint examples/` as a user runs it (default rules, the configuration found for it) reports
    every `# expect:` line of the bundled example project and nothing else; the fixed copy, which carries
    no markers, reports nothing. tests/test_examples_dynamic.py shows that JAX re-traces at each marker."""
    project = ROOT / folder
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", str(project)])
    found = {(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)}
    expected = expectations(project)
    assert (sorted(expected - found), sorted(found - expected)) == ([], [])
    assert result.exit_code == (1 if expected else 0)
    assert len(expected) >= (10 if folder == "examples" else 0)
