"""Baselines: fingerprints that survive line shifts, round trips, multiset matching, corrupt files."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from retracelint.baseline import (
    Baseline,
    BaselineError,
    fingerprint,
    load_baseline,
    normalise_source,
    write_baseline,
)
from retracelint.model import Finding, JitSite, Location, PathStep

LOOP_PY = """\
import jax.numpy as jnp

from trainer.steps import train_step


def run_epoch(state, tokens, lengths):
    for seq_len in lengths:
        state = train_step(state, tokens[:, :seq_len])
    for seq_len in lengths:
        state = train_step(state, tokens[:, :seq_len])
    return state
"""


def finding_at(
    source: str, path: Path, line: int, *, code: str = "RTL101", param: str = "tokens"
) -> Finding:
    """A finding at ``line`` of ``source``, with the line's text as the analysis would record it."""
    text = source.splitlines()[line - 1]
    col = text.index("tokens[") + 1
    return Finding(
        code=code,
        message="tokens[:, :seq_len] changes shape on every iteration of `for seq_len in lengths`",
        location=Location(str(path), line, col, line, col + len("tokens[:, :seq_len]")),
        jit_site=JitSite(
            "trainer.model.apply_model",
            "apply_model",
            Location(str(path.parent / "model.py"), 9, 1),
            "jax.jit",
        ),
        parameter=param,
        call_path=(
            PathStep("trainer.loop.run_epoch", "train_step", Location(str(path), line, 17)),
            PathStep(
                "trainer.steps.train_step",
                "apply_model",
                Location(str(path.parent / "steps.py"), 31, 12),
            ),
        ),
        source_line=text,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    pkg = tmp_path / "src" / "trainer"
    pkg.mkdir(parents=True)
    (pkg / "loop.py").write_text(LOOP_PY, encoding="utf-8")
    return tmp_path


def test_fingerprint_survives_lines_added_above(project: Path) -> None:
    loop = project / "src" / "trainer" / "loop.py"
    before = finding_at(LOOP_PY, loop, 8)
    edited = '"""Training loop."""\nimport logging\n\n' + LOOP_PY.replace(
        "    for", "    # bucketed soon\n    for", 1
    )
    line = edited.splitlines().index("        state = train_step(state, tokens[:, :seq_len])") + 1
    assert line == 12
    after = finding_at(edited, loop, line)
    # The call path and the jit site moved too: none of their line numbers count.
    after = replace(
        after,
        jit_site=replace(after.jit_site, location=Location(str(loop.parent / "model.py"), 30, 1)),
    )
    assert fingerprint(before, root=project) == fingerprint(after, root=project)


def test_fingerprint_ignores_indentation_spacing_and_comments() -> None:
    assert normalise_source("    x = f(a[:, :n])  # noqa: E501") == normalise_source(
        "x = f( a[:,:n] )"
    )
    # A piece of a multi-line call, strings kept verbatim (a '#' inside one is no comment).
    assert (
        normalise_source('        loss = step(params, "a # b",  # why')
        == 'loss=step(params,"a # b",'
    )
    assert normalise_source('    s = f"{x} \\" #" # c') == 's=f"{x} \\" #"'
    assert (
        normalise_source('    doc = """open string  # not a comment')
        == 'doc="""open string  # not a comment'
    )
    assert normalise_source("") == normalise_source("   ") == ""


@pytest.mark.parametrize(
    "change",
    [
        lambda f: replace(f, code="RTL103"),
        lambda f: replace(
            f, location=replace(f.location, path=f.location.path.replace("loop", "loop2"))
        ),
        lambda f: replace(f, parameter="mask"),
        lambda f: replace(f, jit_site=replace(f.jit_site, function="trainer.model.eval_model")),
        lambda f: replace(
            f, source_line="        state = train_step(state, tokens[:, :seq_len + 1])"
        ),
    ],
    ids=["code", "path", "parameter", "jit-function", "source-text"],
)
def test_fingerprint_changes_with_what_identifies_a_finding(project: Path, change) -> None:
    base = finding_at(LOOP_PY, project / "src" / "trainer" / "loop.py", 8)
    assert fingerprint(change(base), root=project) != fingerprint(base, root=project)


def test_fingerprint_uses_paths_relative_to_root(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    absolute = finding_at(LOOP_PY, project / "src" / "trainer" / "loop.py", 8)
    monkeypatch.chdir(project)
    relative = replace(absolute, location=replace(absolute.location, path="src/trainer/loop.py"))
    assert fingerprint(relative, root=project) == fingerprint(absolute, root=project)
    assert fingerprint(relative, root=".") == fingerprint(absolute, root=project)


def test_round_trip_hides_recorded_findings_and_reports_new_ones(project: Path) -> None:
    loop = project / "src" / "trainer" / "loop.py"
    old = [finding_at(LOOP_PY, loop, 8), finding_at(LOOP_PY, loop, 10, param="batch")]
    baseline_file = project / ".retracelint-baseline.json"
    write_baseline(baseline_file, old)

    baseline = load_baseline(baseline_file)
    assert len(baseline) == 2
    assert baseline.filter(old) == []

    new = finding_at(LOOP_PY, loop, 10, code="RTL105")
    shifted = [replace(f, location=replace(f.location, line=f.location.line + 3)) for f in old]
    assert baseline.filter([*shifted, new]) == [new]


def test_baseline_file_is_versioned_readable_json(project: Path) -> None:
    loop = project / "src" / "trainer" / "loop.py"
    findings = [finding_at(LOOP_PY, loop, 10), finding_at(LOOP_PY, loop, 8)]
    target = project / "baseline.json"
    write_baseline(target, findings)
    doc = json.loads(target.read_text(encoding="utf-8"))
    assert doc["version"] == 1 and doc["tool"] == "retracelint"
    assert [(e["path"], e["line"], e["code"]) for e in doc["findings"]] == [
        ("src/trainer/loop.py", 8, "RTL101"),
        ("src/trainer/loop.py", 10, "RTL101"),
    ]
    assert doc["findings"][0]["fingerprint"] == fingerprint(findings[1], root=project)
    assert doc["findings"][0]["message"].startswith("tokens[:, :seq_len] changes shape")


def test_multiset_two_recorded_hide_two_not_three(project: Path) -> None:
    loop = project / "src" / "trainer" / "loop.py"
    # Lines 8 and 10 are the same text in the same function: identical fingerprints.
    twins = [finding_at(LOOP_PY, loop, 8), finding_at(LOOP_PY, loop, 10)]
    assert fingerprint(twins[0], root=project) == fingerprint(twins[1], root=project)
    target = project / "baseline.json"
    write_baseline(target, twins)
    baseline = load_baseline(target)

    third = replace(twins[0], location=replace(twins[0].location, line=12))
    assert baseline.filter([*twins, third]) == [third]
    assert baseline.match([twins[0]]) == ([], 1)  # one entry left over: one of the twins was fixed
    assert baseline.match([]) == ([], 2)


def test_baseline_works_from_another_working_directory(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    relative = finding_at(LOOP_PY, Path("src/trainer/loop.py"), 8)
    (project / "ci").mkdir()
    write_baseline("ci/baseline.json", [relative])
    monkeypatch.chdir(project / "src")
    from_src = replace(relative, location=replace(relative.location, path="trainer/loop.py"))
    assert load_baseline("../ci/baseline.json").filter([from_src]) == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"version": 1, "findings": [', "is not valid JSON (line 1, column 29"),
        ("", "is not valid JSON"),
        ("[1, 2]", "is not a retracelint baseline (no version field)"),
        ('{"version": 7, "findings": []}', "has version 7; this retracelint reads version 1"),
        ('{"version": 1}', "has no 'findings' list"),
        ('{"version": 1, "findings": [{"code": "RTL101"}]}', "entry 1 has no fingerprint"),
    ],
)
def test_corrupt_baseline_is_a_one_line_error_naming_the_file(
    tmp_path: Path, content: str, expected: str
) -> None:
    target = tmp_path / "baseline.json"
    target.write_text(content, encoding="utf-8")
    with pytest.raises(BaselineError) as info:
        load_baseline(target)
    message = str(info.value)
    assert str(target) in message and expected in message
    assert "\n" not in message


def test_missing_and_undecodable_baselines(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match=r"baseline file .*nope\.json does not exist"):
        load_baseline(tmp_path / "nope.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BaselineError, match=r"cannot read baseline file .*binary\.json"):
        load_baseline(binary)


def test_empty_baseline_hides_nothing(tmp_path: Path) -> None:
    target = tmp_path / "b.json"
    write_baseline(target, [])
    finding = finding_at(LOOP_PY, tmp_path / "loop.py", 8)
    assert load_baseline(target).filter([finding]) == [finding]
    assert Baseline(target).filter([finding]) == [finding]
