"""GitHub workflow-command annotations, the job summary, SARIF 2.1.0, action.yml and the pre-commit hook."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import jsonschema
import pytest

from retracelint.baseline import fingerprint, load_baseline, write_baseline
from retracelint.filters import severe_enough
from retracelint.formats import render_github, render_sarif, write_step_summary
from retracelint.formats.github import annotation, summary_line
from retracelint.model import Finding, JitSite, Location, PathStep
from retracelint.report import render, text_line
from retracelint.rules import RULES, RULES_BY_CODE, page, page_url

REPO = Path(__file__).resolve().parent.parent
SCHEMA = REPO / "tests" / "data" / "sarif-2.1.0.json"

APPLY = JitSite(
    function="trainer.model.apply_model",
    name="apply_model",
    location=Location("src/trainer/model.py", 9, 1, 9, 10),
    wrapper="jax.jit",
)
STEP = JitSite(
    function="trainer.steps.sgd_update",
    name="sgd_update",
    location=Location("src/trainer/steps.py", 48, 1),
    wrapper="functools.partial(jax.jit, static_argnames=('lr',))",
    static_params=("lr",),
)


def ragged_slice(root: str = "") -> Finding:
    """RTL101 three modules deep: loop.py slices, steps.py passes it on, model.py jits."""
    p = (lambda rel: os.path.join(root, rel)) if root else (lambda rel: rel)
    return Finding(
        code="RTL101",
        message=(
            "tokens[:, :seq_len] changes shape on every iteration of `for seq_len in lengths`,"
            " so 100% of calls re-trace: apply_model(tokens) sees “f32[8, 1], f32[8, 2], …”"
        ),
        location=Location(p("src/trainer/loop.py"), 22, 33, 22, 52),
        jit_site=replace(APPLY, location=replace(APPLY.location, path=p("src/trainer/model.py"))),
        parameter="tokens",
        call_path=(
            PathStep(
                "trainer.loop.run_epoch", "train_step", Location(p("src/trainer/loop.py"), 22, 16)
            ),
            PathStep(
                "trainer.steps.train_step",
                "apply_model",
                Location(p("src/trainer/steps.py"), 31, 12),
            ),
        ),
        fix="pad to a fixed size or bucket the lengths",
        source_line="        loss = train_step(state, tokens[:, :seq_len])",
    )


def float_static(root: str = "") -> Finding:
    """RTL202 over a multi-line call, a warning."""
    path = os.path.join(root, "src/trainer/schedule.py") if root else "src/trainer/schedule.py"
    return Finding(
        code="RTL202",
        message="static parameter 'lr' gets a new float every step: 3e-4 * 0.5 ** (step // 1000)",
        location=Location(path, 40, 35, 42, 9),
        severity="warning",
        jit_site=STEP,
        parameter="lr",
        call_path=(PathStep("trainer.schedule.fit", "sgd_update", Location(path, 40, 17)),),
        source_line="        params = sgd_update(params, grads,",
    )


def rebuilt_jit() -> Finding:
    """RTL301 with no call path, reported as a notice."""
    return Finding(
        code="RTL301",
        message="jax.jit(lambda x: x * scale) builds a new jitted function on every call of evaluate",
        location=Location("src/trainer/eval.py", 12, 16, 12, 44),
        severity="notice",
        jit_site=JitSite(
            "trainer.eval.evaluate.<lambda>",
            "<lambda>",
            Location("src/trainer/eval.py", 12, 16),
            "jax.jit",
        ),
        source_line="    fn = jax.jit(lambda x: x * scale)",
    )


# --- GitHub annotations --------------------------------------------------------------------------------------


def test_single_line_annotation_is_exact() -> None:
    assert annotation(ragged_slice(), cwd=".") == (
        "::error file=src/trainer/loop.py,line=22,endLine=22,col=33,endColumn=52,"
        "title=RTL101 loop-varying-slice::"
        "tokens[:, :seq_len] changes shape on every iteration of `for seq_len in lengths`,"
        " so 100%25 of calls re-trace: apply_model(tokens) sees “f32[8, 1], f32[8, 2], …”"
    )  # the headline alone, as ruff's annotations: the job summary holds the path and the fix


def test_multi_line_range_sends_no_columns() -> None:
    line = annotation(float_static(), cwd=".")
    assert line.startswith(
        "::warning file=src/trainer/schedule.py,line=40,endLine=42,title=RTL202 continuous-static-arg::"
    )
    assert "col=" not in line.split("::")[1]
    assert "endColumn=" not in line


def test_message_escapes_percent_cr_lf_only() -> None:
    finding = replace(ragged_slice(), message="50% slower:\r\nrecompiled, again", fix="")
    data = annotation(finding, cwd=".").split("::", 2)[2]
    assert data == "50%25 slower:%0D%0Arecompiled, again"
    assert "\n" not in data and "\r" not in data


def test_properties_escape_colon_and_comma(tmp_path: Path) -> None:
    folder = tmp_path / "a,b:c"
    finding = replace(rebuilt_jit(), location=Location(str(folder / "m%.py"), 3, 5, 3, 9))
    props = annotation(finding, cwd=tmp_path).split("::")[1]
    assert props.startswith("notice file=a%2Cb%3Ac/m%25.py,line=3,endLine=3,col=5,endColumn=9,")


def test_absolute_paths_are_made_relative_to_the_workspace(tmp_path: Path) -> None:
    line = annotation(ragged_slice(str(tmp_path)), cwd=tmp_path)
    assert "file=src/trainer/loop.py," in line
    summary = tmp_path / "summary.md"
    write_step_summary([ragged_slice(str(tmp_path))], summary, cwd=tmp_path)
    assert "→ trainer.model.apply_model (src/trainer/model.py:9)" in summary.read_text("utf-8")


@pytest.mark.parametrize(
    ("severity", "level"),
    [("error", "error"), ("warning", "warning"), ("notice", "notice"), ("info", "notice")],
)
def test_severity_levels(severity: str, level: str) -> None:
    assert annotation(replace(rebuilt_jit(), severity=severity), cwd=".").startswith(f"::{level} ")


def test_render_github_sorts_annotates_everything_and_ends_with_summary() -> None:
    out = render_github([float_static(), ragged_slice(), rebuilt_jit()], cwd=".")
    lines = out.splitlines()
    assert [ln.split(" ", 1)[0] for ln in lines[:3]] == ["::notice", "::error", "::warning"]
    assert [ln.split("file=")[1].split(",")[0] for ln in lines[:3]] == [
        "src/trainer/eval.py",
        "src/trainer/loop.py",
        "src/trainer/schedule.py",
    ]
    assert lines[3] == "retracelint: 3 findings (1 error, 1 warning, 1 notice)."
    assert len(lines) == 4 and out.endswith("\n")


def test_no_findings_summary() -> None:
    assert render_github([], cwd=".") == "retracelint: no findings.\n"


def _many(n: int, severity: str = "error") -> list[Finding]:
    base = ragged_slice()
    return [
        replace(
            base, severity=severity, location=replace(base.location, line=100 + i, end_line=100 + i)
        )
        for i in range(n)
    ]


def test_ten_per_level_is_within_the_limit() -> None:
    findings = _many(10) + _many(10, "warning") + _many(10, "notice")
    assert (
        summary_line(findings) == "retracelint: 30 findings (10 errors, 10 warnings, 10 notices)."
    )


def test_over_the_limit_points_to_sarif_and_still_prints_every_annotation() -> None:
    out = render_github(_many(11), cwd=".").splitlines()
    assert len(out) == 12 and all(ln.startswith("::error ") for ln in out[:11])
    summary = out[-1]
    assert summary.startswith(
        "retracelint: 11 findings (11 errors). GitHub shows at most 10 annotations"
    )
    assert "50 per job" in summary and "--format sarif" in summary and "upload-sarif" in summary
    assert "job summary" in summary


# --- job summary -----------------------------------------------------------------------------------------------


def test_step_summary_appends_a_table_row_per_finding_and_diagrams(tmp_path: Path) -> None:
    summary = tmp_path / "step_summary.md"
    summary.write_text("## earlier step\n", encoding="utf-8")
    tricky = replace(rebuilt_jit(), message="a | b <locals> & c\nsecond line")
    write_step_summary([ragged_slice(), float_static(), tricky], summary, cwd=".")
    text = summary.read_text(encoding="utf-8")
    assert text.startswith(
        "## earlier step\n## retracelint\n\n3 findings (1 error, 1 warning, 1 notice).\n"
    )
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and not ln.startswith("| #")]
    assert len(rows) == 3
    assert rows[0] == (
        "| 1 | notice | [RTL301]("
        + page_url("RTL301")
        + ") jit-rebuilt-per-call | src/trainer/eval.py:12:16 | "
        "a \\| b &lt;locals&gt; &amp; c<br>second line |"
    )
    assert rows[1].startswith(
        f"| 2 | error | [RTL101]({page_url('RTL101')}) loop-varying-slice | src/trainer/loop.py:22:33 | "
    )
    assert (
        "<br>fix: pad to a fixed size or bucket the lengths<br>path: trainer.loop.run_epoch"
        in rows[1]
    )
    # One diagram per finding with a path or a jit site, with GitHub's ```mermaid fence.
    assert text.count("```mermaid\nflowchart TD\n") == 3
    assert "#### 2. RTL101 at src/trainer/loop.py:22" in text
    assert '"trainer.eval.evaluate.#lt;lambda#gt; (src/trainer/eval.py:12)"' in text


def test_step_summary_without_findings(tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    write_step_summary([], summary, cwd=".")
    assert summary.read_text(encoding="utf-8") == "## retracelint\n\nNo findings.\n\n"


# --- SARIF ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    # The file is oasis-tcs/sarif-spec Schemata/sarif-schema-2.1.0.json, the copy GitHub's upload-sarif uses.
    assert schema["$id"].endswith("/sarif-spec/master/Schemata/sarif-schema-2.1.0.json")
    return jsonschema.Draft202012Validator(schema)


def _sarif(findings: list[Finding], root: str | Path = ".") -> dict:
    return json.loads(render_sarif(findings, rules=RULES, tool_version="0.1.0", root=root))


def test_sarif_is_valid_against_the_2_1_0_schema(sarif_validator: jsonschema.Validator) -> None:
    doc = _sarif([ragged_slice(), float_static(), rebuilt_jit()])
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in sarif_validator.iter_errors(doc)]
    assert errors == []
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-2.1.0.json")


def test_schema_validation_catches_a_broken_log(sarif_validator: jsonschema.Validator) -> None:
    doc = _sarif([ragged_slice()])
    del doc["runs"][0]["results"][0]["message"]
    doc["runs"][0]["results"][0]["level"] = "fatal"
    assert len(list(sarif_validator.iter_errors(doc))) == 2


def test_empty_run_is_valid(sarif_validator: jsonschema.Validator) -> None:
    doc = _sarif([])
    assert doc["runs"][0]["results"] == []
    assert list(sarif_validator.iter_errors(doc)) == []


def test_sarif_driver_lists_every_rule_with_help_from_its_page() -> None:
    driver = _sarif([])["runs"][0]["tool"]["driver"]
    assert driver["name"] == "retracelint" and driver["semanticVersion"] == "0.1.0"
    assert [r["id"] for r in driver["rules"]] == [r.code for r in RULES]
    by_id = {r["id"]: r for r in driver["rules"]}
    rtl101 = by_id["RTL101"]
    assert rtl101["name"] == "loop-varying-slice"
    assert rtl101["shortDescription"]["text"] == (
        "A traced argument is sliced with a bound that changes between calls."
    )
    assert rtl101["helpUri"] == page_url("RTL101")
    assert rtl101["defaultConfiguration"] == {"level": "error", "enabled": True}
    if page("RTL101") is not None:
        assert rtl101["help"]["markdown"] == page("RTL101")
        # The full description is the page's "What it detects" paragraph, on one line.
        full = rtl101["fullDescription"]["text"]
        assert len(full) > len(rtl101["shortDescription"]["text"])
        assert full in " ".join(page("RTL101").split())
    for rule in driver["rules"]:  # GitHub rejects empty required texts
        assert (
            rule["shortDescription"]["text"]
            and rule["fullDescription"]["text"]
            and rule["help"]["text"]
        )
    assert by_id["RTL901"]["defaultConfiguration"]["enabled"] is False


def test_sarif_result_location_region_and_rule_index(tmp_path: Path) -> None:
    doc = _sarif([ragged_slice(str(tmp_path))], root=tmp_path)
    run = doc["runs"][0]
    res = run["results"][0]
    assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"] == "RTL101"
    assert res["level"] == "error"
    # The headline as the message; the path is the code flow, the whole fix a property.
    assert res["message"]["text"] == ragged_slice().message
    assert res["properties"]["fix"] == "pad to a fixed size or bucket the lengths"
    assert res["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "src/trainer/loop.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 22, "startColumn": 33, "endLine": 22, "endColumn": 52},
            }
        }
    ]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert run["columnKind"] == "unicodeCodePoints"


def test_sarif_call_path_as_related_locations_and_code_flow() -> None:
    res = _sarif([ragged_slice()])["runs"][0]["results"][0]
    related = res["relatedLocations"]
    assert [r["id"] for r in related] == [1, 2, 3]
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in related] == [
        "src/trainer/loop.py",
        "src/trainer/steps.py",
        "src/trainer/model.py",
    ]
    assert [r["message"]["text"] for r in related] == [
        "trainer.loop.run_epoch calls train_step()",
        "trainer.steps.train_step calls apply_model()",
        "jit site: parameter 'tokens' of apply_model, made by jax.jit",
    ]
    flow = res["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [step["location"]["physicalLocation"]["region"]["startLine"] for step in flow] == [
        22,
        22,
        31,
        9,
    ]
    assert [step["kinds"] for step in flow] == [["source"], ["call"], ["call"], ["sink"]]
    assert flow[0]["location"]["message"]["text"] == "the varying value is made here"


def test_sarif_finding_without_path_has_no_code_flow() -> None:
    finding = replace(rebuilt_jit(), jit_site=None)
    res = _sarif([finding])["runs"][0]["results"][0]
    assert "codeFlows" not in res and "relatedLocations" not in res
    assert res["level"] == "note"


def weak_type_flip() -> Finding:
    """RTL401 as the checks word it: two calls, so a bounded number of traces, a warning."""
    return Finding(
        code="RTL401",
        message=(
            "traced parameter 'scale' of jitted 'normalise' (src/trainer/model.py:9) gets an array"
            " (jnp.float32(2.0)) here but a Python scalar (2.0) at src/trainer/eval.py:30; a different"
            " weak type is a different cache entry, so the function traces and compiles twice; pass the"
            " same kind of value everywhere"
        ),
        location=Location("src/trainer/eval.py", 31, 24, 31, 40),
        severity="warning",
        jit_site=APPLY,
        parameter="scale",
        call_path=(
            PathStep("trainer.eval.report", "normalise", Location("src/trainer/eval.py", 31, 5)),
        ),
        fix="pass the same kind of value everywhere",
        source_line="    normalise(x, jnp.float32(2.0))",
    )


def test_a_warning_is_a_warning_in_every_format_whatever_its_rule_defaults_to(
    tmp_path: Path, sarif_validator: jsonschema.Validator
) -> None:
    warning, error = weak_type_flip(), ragged_slice()
    # A few literal values drive this one: a warning, although RTL202 defaults to error.
    few = replace(float_static(), severity="warning")
    assert RULES_BY_CODE["RTL202"].severity == "error"
    doc = _sarif([warning, error, few])
    assert list(sarif_validator.iter_errors(doc)) == []
    results = {r["ruleId"]: r for r in doc["runs"][0]["results"]}
    levels = [results[code]["level"] for code in ("RTL401", "RTL101", "RTL202")]
    assert levels == ["warning", "error", "warning"]
    by_id = {r["id"]: r for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert by_id["RTL401"]["defaultConfiguration"]["level"] == "warning"  # a flip: one more trace
    assert by_id["RTL202"]["defaultConfiguration"]["level"] == "error"

    assert annotation(warning, cwd=".").startswith(
        "::warning file=src/trainer/eval.py,line=31,endLine=31,col=24,endColumn=40,"
        "title=RTL401 weak-type-flip::traced parameter 'scale'"
    )
    summary = tmp_path / "summary.md"
    write_step_summary([warning, error], summary, cwd=".")
    rows = [ln for ln in summary.read_text(encoding="utf-8").splitlines() if ln.startswith("| ")]
    assert [row.split(" | ")[1:3] for row in rows[1:]] == [
        ["warning", f"[RTL401]({page_url('RTL401')}) weak-type-flip"],
        ["error", f"[RTL101]({page_url('RTL101')}) loop-varying-slice"],
    ]
    assert text_line(warning) == (f"src/trainer/eval.py:31:24: RTL401 [warning] {warning.message}")
    assert text_line(error) == f"src/trainer/loop.py:22:33: RTL101 {error.message}"
    assert json.loads(render([warning], "json"))[0]["severity"] == "warning"


def test_the_severity_floor_keeps_that_level_and_worse() -> None:
    warning, error = weak_type_flip(), ragged_slice()
    assert [severe_enough(f, "warning") for f in (warning, error)] == [True, True]
    assert [severe_enough(f, "error") for f in (warning, error)] == [False, True]


def test_fingerprints_do_not_depend_on_severity(tmp_path: Path) -> None:
    # A rule that starts calling a finding a warning must not make a baseline see a new finding.
    finding = weak_type_flip()
    for level in ("error", "notice"):
        assert fingerprint(replace(finding, severity=level)) == fingerprint(finding)
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, [finding])
    assert load_baseline(baseline).filter([replace(finding, severity="error")]) == []


def test_sarif_partial_fingerprint_is_the_baseline_fingerprint_and_ignores_lines(
    tmp_path: Path,
) -> None:
    finding = ragged_slice(str(tmp_path))
    moved = replace(finding, location=replace(finding.location, line=40, end_line=40))
    first = _sarif([finding], root=tmp_path)["runs"][0]["results"][0]["partialFingerprints"]
    second = _sarif([moved], root=tmp_path)["runs"][0]["results"][0]["partialFingerprints"]
    assert first == second == {"retracelint/v1": fingerprint(finding, root=tmp_path)}


def test_sarif_uri_is_percent_encoded_and_unknown_codes_get_a_rule(
    sarif_validator: jsonschema.Validator,
) -> None:
    odd = replace(
        rebuilt_jit(),
        code="RTL999",
        location=Location("src/my models/ünet#1.py", 3, 1, 3, 5),
    )
    doc = _sarif([odd])
    res = doc["runs"][0]["results"][0]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "src/my%20models/%C3%BCnet%231.py"
    )
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules[res["ruleIndex"]]["id"] == "RTL999"
    assert list(sarif_validator.iter_errors(doc)) == []


# --- action.yml and .pre-commit-hooks.yaml -------------------------------------------------------------------


def _yaml(path: Path) -> object:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_action_is_a_composite_with_the_documented_inputs() -> None:
    action = _yaml(REPO / "action.yml")
    assert action["runs"]["using"] == "composite"
    inputs = action["inputs"]
    assert inputs["paths"]["default"] == "."
    assert inputs["args"]["default"] == "" and inputs["version"]["default"] == ""
    assert inputs["sarif"]["default"] == "false"
    steps = action["runs"]["steps"]
    scripts = "\n".join(step.get("run", "") for step in steps)
    assert "${{" not in scripts, "inputs must reach scripts through env, not be spliced into them"
    assert "--format github" in scripts
    assert "--format sarif --output-file retracelint.sarif" in scripts
    upload = [
        s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")
    ]
    assert len(upload) == 1 and upload[0]["uses"].endswith("@v3")
    assert upload[0]["if"] == "${{ inputs.sarif == 'true' }}"
    assert upload[0]["with"]["sarif_file"] == "retracelint.sarif"
    install = steps[0]
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install --quiet "$ACTION_PATH"' in install["run"]


@dataclass
class ActionRun:
    """What a run of the action's steps left: each step's exit status (in order, up to the first that
    failed, after which GitHub skips the rest), the outputs the steps set, and what they printed."""

    statuses: dict[str, int]
    outputs: dict[str, str]
    stdout: str
    stderr: str


_EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def _run_action(inputs: dict[str, str], cwd: Path, bin_dir: Path) -> ActionRun:
    """Run action.yml's `run` steps as the runner does: each script in a file executed by `bash
    --noprofile --norc -eo pipefail FILE`, inputs through the step's env, GITHUB_OUTPUT read back for
    the outputs of later steps. The install step is left out: ``bin_dir`` holds the retracelint (and
    the python) the steps find on PATH."""
    action = _yaml(REPO / "action.yml")
    values = {f"inputs.{k}": v["default"] for k, v in action["inputs"].items()}
    values |= {f"inputs.{k}": v for k, v in inputs.items()}
    values["runner.temp"] = str(cwd.parent)
    statuses: dict[str, int] = {}
    outputs: dict[str, str] = {}
    out, err = [], []
    for number, step in enumerate(action["runs"]["steps"]):
        condition = step.get("if")
        if condition is not None:
            left, right = _EXPRESSION.fullmatch(condition)[1].split(" == ")
            if values[left] != right.strip("'"):
                continue
        if "run" not in step or step["name"] == "Install retracelint":
            continue
        script = cwd.parent / f"step{number}.sh"
        script.write_text(step["run"], encoding="utf-8")
        github_output = cwd.parent / f"output{number}"
        github_output.write_text("", encoding="utf-8")
        env = {k: _EXPRESSION.sub(lambda m: values[m[1]], v) for k, v in step["env"].items()}
        env |= {
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "GITHUB_OUTPUT": str(github_output),
            "RUNNER_TEMP": str(cwd.parent),
        }
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
        out.append(proc.stdout)
        err.append(proc.stderr)
        statuses[step["name"]] = proc.returncode
        for line in github_output.read_text(encoding="utf-8").splitlines():
            name, _, value = line.partition("=")
            outputs[name] = value
            values[f"steps.{step.get('id')}.outputs.{name}"] = value
        if proc.returncode != 0:
            break
    return ActionRun(statuses, outputs, "".join(out), "".join(err))


STATIC_IN_A_LOOP = """\
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def scale(x, n):
    return x * n


def main(x):
    for step in range(100):
        x = scale(x, step)
    return x
"""

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _installed(tmp_path: Path) -> Path:
    """A folder holding `retracelint` and `python`, as the install step leaves them on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "retracelint"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m retracelint "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    return bin_dir


@needs_bash
def test_action_with_findings_writes_sarif_sets_its_outputs_and_fails_last(
    tmp_path: Path, sarif_validator: jsonschema.Validator
) -> None:
    """Findings exit 1: under the runner's `-e` the run step must still record the exit code and write
    the SARIF file for the upload, and only the last step fails the job. A quoted value in `args`
    reaches retracelint as one argument (here the ignore for tests/ takes effect)."""
    project = tmp_path / "work"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    for folder in ("src", "tests"):
        (project / folder).mkdir()
        (project / folder / "train.py").write_text(STATIC_IN_A_LOOP, encoding="utf-8")
    inputs = {"paths": "src tests", "args": "--per-file-ignores 'tests/*:RTL2'", "sarif": "true"}
    run = _run_action(inputs, project, _installed(tmp_path))
    assert run.statuses == {"Run retracelint": 0, "Report the result": 1}, run.stderr
    assert run.outputs == {"exit-code": "1", "sarif-file": "retracelint.sarif"}
    assert run.stdout.startswith("::error file=src/train.py,line=13,")
    assert "tests/train.py" not in run.stdout
    sarif = json.loads((project / "retracelint.sarif").read_text(encoding="utf-8"))
    assert list(sarif_validator.iter_errors(sarif)) == []
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "RTL201"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "src/train.py"


@needs_bash
def test_action_stops_at_an_error_with_exit_code_2(tmp_path: Path) -> None:
    project = tmp_path / "work"
    project.mkdir()
    (project / "train.py").write_text(STATIC_IN_A_LOOP, encoding="utf-8")
    inputs = {"args": "--select RTL2O1", "sarif": "true"}
    run = _run_action(inputs, project, _installed(tmp_path))
    assert run.statuses == {"Run retracelint": 2}
    assert run.outputs == {"exit-code": "2"}
    assert "RTL2O1" in run.stderr
    assert not (project / "retracelint.sarif").exists()


@needs_bash
@pytest.mark.parametrize(
    ("args", "paths", "words"),
    [
        ("--select RTL1", "src tests/*.py", ["--select", "RTL1", "src", "tests/*.py"]),
        (
            "--per-file-ignores 'tests/*:RTL2' --baseline \"my baseline.json\"",
            "'my src' lib",
            [
                "--per-file-ignores",
                "tests/*:RTL2",
                "--baseline",
                "my baseline.json",
                "my src",
                "lib",
            ],
        ),
        # Split, never evaluated: no command runs, no variable or glob expands.
        (
            "--config $(touch ran) `touch ran` $HOME",
            "*",
            ["--config", "$(touch", "ran)", "`touch", "ran`", "$HOME", "*"],
        ),
    ],
)
def test_action_splits_args_and_paths_as_a_shell_would_without_running_them(
    tmp_path: Path, args: str, paths: str, words: list[str]
) -> None:
    fake = tmp_path / "bin" / "retracelint"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\nfor a in "$@"; do echo "arg:$a"; done\n', encoding="utf-8")
    fake.chmod(0o755)
    (fake.parent / "python").symlink_to(sys.executable)
    project = tmp_path / "work"
    project.mkdir()
    run = _run_action({"args": args, "paths": paths}, project, fake.parent)
    assert run.statuses == {"Run retracelint": 0, "Report the result": 0}, run.stderr
    assert run.stdout.splitlines() == [f"arg:{w}" for w in ["--format", "github", *words]]
    assert not (project / "ran").exists()


@needs_bash
def test_action_reports_an_unbalanced_quote_in_args(tmp_path: Path) -> None:
    project = tmp_path / "work"
    project.mkdir()
    run = _run_action({"args": "--per-file-ignores 'tests/*:RTL2"}, project, tmp_path)
    assert run.statuses == {"Run retracelint": 2}
    assert run.outputs == {"exit-code": "2"}
    assert run.stderr == (
        "retracelint action: error: cannot split args and paths: No closing quotation\n"
    )


def test_readme_pins_the_action_at_the_ref_action_yml_documents() -> None:
    pinned = re.findall(r"uses: retracelint/retracelint@(\S+)", (REPO / "README.md").read_text())
    documented = re.findall(
        r"uses: retracelint/retracelint@(\S+)", (REPO / "action.yml").read_text()
    )
    assert pinned and set(pinned) == set(documented), (pinned, documented)


def test_pre_commit_hook_runs_the_whole_project_serially() -> None:
    hooks = _yaml(REPO / ".pre-commit-hooks.yaml")
    assert isinstance(hooks, list) and len(hooks) == 1
    hook = hooks[0]
    assert hook["id"] == "retracelint" and hook["entry"] == "retracelint"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False and hook["require_serial"] is True
    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "whole-project" in text and "cache" in text  # the reason is written down for users


# --- one finding per origin ----------------------------------------------------------------------------------

ONE_ORIGIN = Path(__file__).parent / "fixtures" / "one_origin_two_paths"


def test_one_origin_reached_by_two_paths_is_one_finding_with_both_routes(
    sarif_validator: jsonschema.Validator,
) -> None:
    from retracelint.config import Settings
    from retracelint.engine import analyse

    run = analyse([str(ONE_ORIGIN)], Settings(cache=False))
    (finding,) = run.findings
    assert (Path(finding.location.path).name, finding.location.line) == ("main.py", 10)
    assert render([finding], "full").splitlines()[-2] == "  and 1 more call path (JSON lists them)"
    sites = {finding.jit_site.name, *(r.jit_site.name for r in finding.other_routes)}
    assert sites == {"train_step", "eval_loss"}
    (route,) = json.loads(json.dumps(finding.to_dict()))["other_routes"]
    assert route["parameter"] == "batch" and route["call_path"][0]["line"] in (11, 12)
    doc = _sarif(run.findings)
    assert [e.message for e in sarif_validator.iter_errors(doc)] == []
    flows = doc["runs"][0]["results"][0]["codeFlows"]
    sinks = [
        flow["threadFlows"][0]["locations"][-1]["location"]["message"]["text"] for flow in flows
    ]
    assert len(flows) == 2 and any("train_step" in s for s in sinks)
    assert any("eval_loss" in s for s in sinks)
