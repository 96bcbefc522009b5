"""Every fixture under tests/fixtures/ carries its expectations inline: `# expect: RTL101` on each line that
must be reported. The analysis must report exactly those (path, line, code) triples: a missing finding and
an extra finding both fail. A top-level folder is one project (its modules import each other); a top-level
file is a project of its own.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner
from test_termination import TIGHT_STEPS

import retracelint.propagate as propagate
from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import Run, analyse
from retracelint.model import with_related

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>RTL\d+(?:\s*,\s*RTL\d+)*)")
# A finding whose chain rests on an assumption: shown only with --confidence all.
UNPROVEN = re.compile(r"#\s*unproven:\s*(?P<codes>RTL\d+(?:\s*,\s*RTL\d+)*)")


def expectations(root: Path, marker: re.Pattern[str] = EXPECT) -> set[tuple[str, int, str]]:
    files = [root] if root.is_file() else sorted(root.rglob("*.py"))
    out = set()
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = marker.search(line)
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


@functools.cache
def checked_run(project: Path) -> Run:
    """``project`` analysed as its markers are checked: every finding (``--confidence all``), under
    the tight budget. Made once per test process and shared (read it, never change it) by the tests
    that ask what the analysis finds on a fixture: tests/test_fixtures_dynamic.py's claims too."""
    with mock.patch.object(propagate, "MAX_STEPS", TIGHT_STEPS):
        return analyse([str(project)], Settings(cache=False, select=("RTL",), confidence="all"))


@pytest.mark.parametrize("project", projects(), ids=lambda p: p.name)
def test_fixture_findings_match_expectations(project: Path) -> None:
    """Proven findings (what a default run shows) at the `expect` markers, the others at the
    `unproven` markers."""
    run = checked_run(project)
    # A finding told by another of its re-trace (``related``) is found where it is made.
    details = {(f.location.path, f.location.line, f.code): f for f in with_related(run.findings)}
    for marker, proven in ((EXPECT, True), (UNPROVEN, False)):
        found = {key for key, f in details.items() if (f.confidence == "high") == proven}
        expected = expectations(project, marker)
        missing = sorted(expected - found)
        extra = sorted(found - expected)
        assert not missing and not extra, (
            f"{marker.pattern[5:12]} missing: {missing}\n"
            f"extra: {[(e, details[e].message + details[e].unproven) for e in extra]}"
        )
    # Each message is a headline on one line that ends with the fix in a few words; the call path and
    # the details are fields of their own (they made messages of up to 750 characters); a bounded
    # one ends with its bound in a few words.
    for finding in run.findings:
        assert "\n" not in finding.message and len(finding.message) <= 280, finding.message
        assert finding.fix and "; " in finding.message, finding.message


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


def test_one_call_that_flips_several_arguments_is_one_finding() -> None:
    """Four Python ints passed where int32 arrays were are one extra trace of the scorer: one
    finding at the call, naming every argument, each one's value in the details."""
    project = FIXTURES / "scores_checked_with_python_ints"
    run = analyse([str(project)], Settings(cache=False, select=("RTL",)))
    found = sorted((f.location.line, f) for f in run.findings)
    assert [(line, f.code) for line, f in found] == [(25, "RTL401"), (27, "RTL401")]
    (_, score), (_, rank) = found
    assert score.message.startswith(
        "'level' (and 'strain', 'doubled', 'tricks') gets a weakly typed scalar here"
    )
    assert [d.split(",")[0] for d in score.details[-3:]] == ["'strain'", "'doubled'", "'tricks'"]
    assert rank.message.startswith("'strain' gets a weakly typed scalar here")


def test_a_weakly_typed_array_is_not_called_a_scalar() -> None:
    """``jnp.where(mask, 1.0, 0.0)`` is an array made from Python numbers only: weakly typed, as a
    Python scalar is, but the finding names it an array, whether a warm-up call passes it (the call
    flip) or a loop starts with it (the carried flip)."""
    project = FIXTURES / "weak_arrays_from_python_numbers"
    run = analyse([str(project)], Settings(cache=False, select=("RTL",)))
    messages = {Path(f.location.path).name: f.message for f in run.findings}
    assert messages["advect.py"].startswith(
        "'state' gets a strongly typed array here but a weakly typed array at line 21"
    )
    assert messages["diffuse.py"].startswith(
        "state starts as a weakly typed array and is a strongly typed array after each iteration"
    )
    assert "scalar" not in " ".join(messages.values())
