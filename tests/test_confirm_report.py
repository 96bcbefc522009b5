"""The parts of `retracelint confirm` that need no jax: the plan made from findings, the statuses
made from the events the instrumented program wrote, the text and JSON reports, the CLI's errors."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.confirm import cli as confirm_cli
from retracelint.confirm import runner
from retracelint.confirm.plan import build_plan, load_plan, plan_from_json, site_line_range
from retracelint.confirm.report import (
    CONFIRMED,
    INCONCLUSIVE,
    NOT_REACHED,
    NOT_RETRACED,
    RunInfo,
    aggregate,
    evaluate,
    format_json,
    format_text,
    read_events,
)
from retracelint.model import Finding, JitSite, Location, PathStep

SOURCE = textwrap.dedent(
    """\
    import functools

    import jax


    @functools.partial(
        jax.jit,
        static_argnames=("n",),
    )
    def step(x, n):
        return x * n


    def run(xs):
        f = jax.jit(
            lambda v: v + 1
        )
        return [step(x, n=i) for i, x in enumerate(xs)], f
    """
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _finding(code: str, line: int, site_line: int, name: str, parameter: str | None) -> Finding:
    return Finding(
        code=code,
        message=f"{code} message",
        location=Location("pkg/train.py", line, 9),
        jit_site=JitSite(
            f"pkg.train.{name}", name, Location("pkg/train.py", site_line, 1), "jax.jit"
        ),
        parameter=parameter,
    )


def _findings() -> list[Finding]:
    return [
        _finding("RTL201", 18, 10, "step", "n"),
        _finding("RTL101", 18, 10, "step", "x"),
        _finding("RTL301", 15, 15, "<lambda>", None),
        Finding("RTL000", "cannot parse", Location("pkg/bad.py", 1, 1)),  # no jit site: left out
    ]


def test_sites_cover_decorators_and_calls_spread_over_lines(project: Path) -> None:
    path = str(project / "pkg" / "train.py")
    assert site_line_range(path, 10) == (6, 10)  # the code of a decorated def starts at "@"
    assert site_line_range(path, 15) == (15, 17)  # a jax.jit(...) call over three lines
    assert site_line_range(path, 3) == (3, 3)
    assert site_line_range(str(project / "missing.py"), 7) == (7, 7)


def test_plan_groups_findings_by_site_and_round_trips(project: Path) -> None:
    plan = build_plan(_findings())
    assert [(s.site_id, s.name, s.first_line, s.last_line) for s in plan.sites] == [
        ("S1", "<lambda>", 15, 17),
        ("S2", "step", 6, 10),
    ]
    assert [(f.code, f.site_id) for f in plan.findings] == [
        ("RTL301", "S1"),
        ("RTL101", "S2"),
        ("RTL201", "S2"),
    ]
    runtime_plan = plan.runtime_plan("/tmp/events.jsonl", "all")
    assert runtime_plan["guard"] == "all"
    assert runtime_plan["sites"][1]["path"] == str(project / "pkg" / "train.py")
    (project / "plan.json").write_text(json.dumps(plan.to_json()), encoding="utf-8")
    again = load_plan(project / "plan.json")
    assert [(s.first_line, s.last_line) for s in again.sites] == [(15, 17), (6, 10)]
    assert [(f.code, f.line, f.parameter) for f in again.findings] == [
        (f.code, f.line, f.parameter) for f in plan.findings
    ]
    # The minimal form: a list of {finding_id, code, path, line, function}.
    minimal = plan_from_json(
        [{"finding_id": "A", "code": "RTL101", "path": "pkg/train.py", "line": 10, "function": "f"}]
    )
    assert minimal.sites[0].first_line == 6 and minimal.findings[0].finding_id == "A"
    with pytest.raises(ValueError, match="needs code, path and line"):
        plan_from_json([{"code": "RTL101"}])


def _trace(site: str, n: int, param: str = "", kind: str = "shape", **extra) -> dict:
    """A trace event as the runtime writes it; kind "first" for a function's first trace."""
    first = kind == "first"
    return {
        "ev": "trace",
        "pid": extra.pop("pid", 1),
        "site": site,
        "n": n,
        "retrace": not first,
        "kind": kind,
        "call": extra.pop("call", "pkg/train.py:18"),
        "params": ["x", "n"],
        "evidence": [] if first else [f"{param}: before -> after"],
        "changes": [{"param": param, "path": param, "kind": kind}] if param else [],
        "stack": [{"path": "pkg/train.py", "line": 18, "function": "run", "code": "step(x, n=i)"}],
        **extra,
    }


def _events() -> list[dict]:
    return [
        {"ev": "start", "pid": 1},
        {"ev": "patched", "pid": 1, "jax": "0.10.2"},
        {"ev": "backend", "pid": 1, "backend": "cpu"},
        {"ev": "site", "pid": 1, "site": "S2", "planned": True, "name": "step", "path": "x", "line": 6},
        _trace("S2", 1, kind="first"),
        _trace("S2", 2, "n", "static"),
        _trace("S2", 3, "n", "static"),
        {"ev": "site", "pid": 1, "site": "S1", "planned": True, "name": "<lambda>"},
        _trace("S1", 1, kind="first", call="pkg/train.py:15"),
        # A second process (an xdist worker): its first trace is not a re-trace.
        {"ev": "start", "pid": 2},
        _trace("S2", 1, kind="first", pid=2),
        _trace("S2", 2, "n", "static", pid=2),
        {
            "ev": "final",
            "pid": 2,
            "jax_imported": True,
            "sites": {"S2": {"creations": 1, "objects": 1}, "S1": {"creations": 1, "objects": 1}},
        },
        # A site nobody flagged (--guard all).
        {"ev": "site", "pid": 1, "site": "U:/p/util.py:3", "planned": False, "name": "helper",
         "path": "/p/util.py", "line": 3, "function": "util.helper"},
        _trace("U:/p/util.py:3", 1, kind="first"),
        _trace("U:/p/util.py:3", 2, "x"),
    ]  # fmt: skip


def test_statuses_from_the_events_of_several_processes(project: Path) -> None:
    plan = build_plan(_findings())
    obs = aggregate(_events())
    assert obs.processes == 2 and obs.backends == {"cpu"}
    assert (obs.sites["S2"].traces, obs.sites["S2"].retraces) == (5, 3)
    report = evaluate(plan, obs, RunInfo(command=["python", "train.py"], returncode=0))
    by_code = {r.finding.code: r for r in report.results}
    assert by_code["RTL201"].status == CONFIRMED and by_code["RTL201"].retraces == 3
    assert by_code["RTL101"].status == NOT_RETRACED  # x never changed; n did
    assert by_code["RTL101"].note == (
        "step was traced 5 times at this call and re-traced 3 times, but never because of `x`: "
        "`x` kept one signature in this run (a longer run, or the data that varies it, may still"
        " re-trace)"
    )
    assert by_code["RTL301"].status == INCONCLUSIVE  # one wrapper made, traced once
    [unpredicted] = report.unpredicted
    assert unpredicted.name == "helper" and unpredicted.retraces == 1
    assert report.exit_code() == 1


def test_a_finding_is_confirmed_only_by_its_own_cause(project: Path) -> None:
    plan = build_plan(_findings())
    events = [
        {"ev": "start", "pid": 1},
        {"ev": "site", "pid": 1, "site": "S1", "planned": True, "name": "<lambda>"},
        _trace("S1", 1, kind="first"),
        _trace("S1", 2, "", "new-function"),
        _trace("S2", 1, kind="first"),
        _trace("S2", 2, "x"),
        {"ev": "final", "pid": 1, "sites": {"S1": {"creations": 3, "objects": 2},
                                            "S2": {"creations": 1, "objects": 1}}},
    ]  # fmt: skip
    report = evaluate(plan, aggregate(events), RunInfo())
    by_code = {r.finding.code: r for r in report.results}
    assert by_code["RTL301"].status == CONFIRMED
    assert by_code["RTL101"].status == CONFIRMED
    assert by_code["RTL201"].status == NOT_RETRACED
    assert "re-traced 1 time, but never because of `n`" in by_code["RTL201"].note
    assert report.unpredicted == []  # the x re-trace is RTL101's


def _routed(line: int, call: int, parameter: str = "x", code: str = "RTL101") -> Finding:
    """A finding on `step` whose call path ends at the call on line `call`."""
    site = JitSite("pkg.train.step", "step", Location("pkg/train.py", 10, 1), "jax.jit")
    step = PathStep("pkg.train.run", "step", Location("pkg/train.py", call, 9, call, 20))
    return Finding(
        code, f"{code} message", Location("pkg/train.py", line, 9), jit_site=site,
        parameter=parameter, call_path=(step,),
    )  # fmt: skip


def test_each_call_of_a_jitted_function_gets_its_own_status(project: Path) -> None:
    """Two calls of one jitted function, each flagged: only the call that re-traced is confirmed;
    a re-trace at a call no finding names is RTL901, not evidence for a sibling's finding."""
    plan = build_plan([_routed(17, 17), _routed(18, 18)])
    events = [
        {"ev": "start", "pid": 1},
        _trace("S1", 1, kind="first", call="pkg/train.py:17",
               stack=[{"path": "pkg/train.py", "line": 17, "function": "run"}]),
        _trace("S1", 2, "x", call="pkg/train.py:18"),
        _trace("S1", 3, "x", call="pkg/train.py:11",
               stack=[{"path": "pkg/train.py", "line": 11, "function": "step"}]),
    ]  # fmt: skip
    report = evaluate(plan, aggregate(events), RunInfo())
    by_line = {r.finding.line: r for r in report.results}
    assert by_line[18].status == CONFIRMED and by_line[18].retraces == 1
    assert by_line[17].status == NOT_RETRACED
    # `x` changed at the other calls, as the report shows there: the note must not say "never".
    assert by_line[17].note == (
        "step was traced 1 time at this call and never re-traced there; it re-traced 2 times"
        " because of `x` at other calls (pkg/train.py:11, pkg/train.py:18): `x` kept one signature"
        " at this call in this run (a longer run, or the data that varies it, may still re-trace)"
    )
    [unpredicted] = report.unpredicted
    assert unpredicted.retraces == 1
    assert unpredicted.evidence[0]["stack"][0]["line"] == 11


def test_a_report_counts_what_it_does_not_list_and_names_files_as_the_cli_does(
    project: Path,
) -> None:
    """Five different re-traces at one call: three are shown, with how many more there were; the
    finding's file, given as an absolute path (the pytest plugin's plan), is named relative to the
    current folder, as the unpredicted and every other line are."""
    absolute = _routed(18, 18)
    absolute = replace(
        absolute, location=replace(absolute.location, path=str(project / "pkg/train.py"))
    )
    plan = build_plan([absolute])
    events = [
        {"ev": "start", "pid": 1},
        {"ev": "site", "pid": 1, "site": "S1", "planned": True, "name": "step"},
        _trace("S1", 1, kind="first"),
        *[_trace("S1", n, "x", evidence=[f"x: f32[{n}] -> f32[{n + 1}]"]) for n in range(2, 7)],
        _trace("S1", 7, "x", call="pkg/train.py:11", evidence=["x: f32[7] -> f32[8]"],
               stack=[{"path": str(project / "pkg/train.py"), "line": 11, "function": "step"}]),
    ]  # fmt: skip
    report = evaluate(plan, aggregate(events), RunInfo())
    text = format_text(report, summary=False).splitlines()
    assert text[0].startswith("pkg/train.py:18:9: RTL101 confirmed: step re-traced 5 times")
    assert [line.strip() for line in text[1:8]] == [
        "x: f32[2] -> f32[3]",
        "at pkg/train.py:18 in run: step(x, n=i)",
        "x: f32[3] -> f32[4]",
        "at pkg/train.py:18 in run: step(x, n=i)",
        "x: f32[4] -> f32[5]",
        "at pkg/train.py:18 in run: step(x, n=i)",
        "(2 more re-traces)",
    ]
    assert text[8] == "pkg/train.py:10:1: RTL901 unpredicted re-trace: step re-traced 1 time"
    assert format_json(report).count(str(project)) == 0


def test_a_switch_between_keyword_and_position_proves_rtl404_at_either_call(project: Path) -> None:
    """RTL404 names two calls; whichever runs second re-traces. The switch proves it, and only it:
    a finding of another rule on that parameter is not proved by how the value was passed."""
    plan = build_plan([_routed(17, 17, code="RTL404"), _routed(18, 18)])
    switched = {"param": "x", "path": "x", "kind": "keyword", "before": "f32[3]",
                "after": "f32[3] (by keyword)"}  # fmt: skip
    events = [
        {"ev": "start", "pid": 1},
        _trace("S1", 1, kind="first", call="pkg/train.py:17",
               stack=[{"path": "pkg/train.py", "line": 17, "function": "run"}]),
        {**_trace("S1", 2, kind="keyword", call="pkg/train.py:18"), "changes": [switched]},
    ]  # fmt: skip
    report = evaluate(plan, aggregate(events), RunInfo())
    by_code = {r.finding.code: r for r in report.results}
    assert by_code["RTL404"].status == CONFIRMED and by_code["RTL404"].retraces == 1
    assert by_code["RTL101"].status == NOT_RETRACED
    assert report.unpredicted == []


def test_a_function_jitted_anew_by_each_test_is_rebuilt_per_test(project: Path) -> None:
    """Under pytest: one new function object per test is not a re-trace, and is said once."""
    events = [{"ev": "start", "pid": 1},
              {"ev": "site", "pid": 1, "site": "U:/p/t.py:4", "planned": False, "name": "f",
               "path": "/p/t.py", "line": 4}]  # fmt: skip
    for i in range(5):
        kind = "first" if i == 0 else "new-function"
        events.append(_trace("U:/p/t.py:4", i + 1, kind=kind, test=f"t.py::test_{i} (call)"))
    # Within the last test, the function is made anew again: a real re-trace.
    events.append(_trace("U:/p/t.py:4", 6, kind="new-function", test="t.py::test_4 (call)"))
    report = evaluate(build_plan([]), aggregate(events), RunInfo())
    [rebuilt] = report.rebuilt
    assert (rebuilt.name, rebuilt.tests) == ("f", 5)
    [unpredicted] = report.unpredicted
    assert unpredicted.retraces == 1
    text = format_text(report)
    assert "/p/t.py:4:1: rebuilt per test: f is jitted anew by each of 5 tests" in text


def test_not_reached_and_unhashable_static_arguments(project: Path) -> None:
    plan = build_plan(
        [_finding("RTL203", 18, 10, "step", "n"), _finding("RTL301", 15, 15, "<lambda>", None)]
    )
    events = [
        {"ev": "error", "pid": 1, "kind": "unhashable-static",
         "message": "Non-hashable static arguments are not supported",
         "stack": [{"path": "pkg/train.py", "line": 18, "function": "run"}]},
    ]  # fmt: skip
    report = evaluate(plan, aggregate(events), RunInfo(command=["x"], returncode=1))
    by_code = {r.finding.code: r for r in report.results}
    assert by_code["RTL203"].status == CONFIRMED
    assert "Non-hashable" in by_code["RTL203"].note
    assert by_code["RTL301"].status == NOT_REACHED
    assert report.exit_code() == 1


def test_a_partial_last_line_is_skipped(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"ev": "start", "pid": 1}\n{"ev": "trace", "pid": 1, "si', encoding="utf-8")
    assert read_events(log) == [{"ev": "start", "pid": 1}]
    assert read_events(tmp_path / "missing.jsonl") == []


def test_text_and_json_reports(project: Path) -> None:
    plan = build_plan(_findings())
    run = RunInfo(command=["python", "train.py"], timed_out=True, duration=30.2, signal="SIGTERM")
    report = evaluate(plan, aggregate(_events()), run)
    text = format_text(report)
    assert text.splitlines()[0] == (
        "retracelint confirm: `python train.py` was stopped by the timeout after 30.2 s "
        "(guard flagged, backend cpu, 2 processes)"
    )
    assert "pkg/train.py:18:9: RTL201 confirmed: step re-traced 3 times" in text
    assert "    n: before -> after" in text
    assert "      at pkg/train.py:18 in run: step(x, n=i)" in text
    assert "/p/util.py:3:1: RTL901 unpredicted re-trace: helper re-traced 1 time" in text
    assert text.rstrip().endswith(
        "3 findings: 1 confirmed, 1 not re-traced, 1 inconclusive, 0 not reached; "
        "1 unpredicted re-trace site(s) (RTL901)"
    )
    data = json.loads(format_json(report))
    assert data["timed_out"] is True and data["signal"] == "SIGTERM"
    assert data["summary"] == {
        "confirmed": 1,
        "not re-traced": 1,
        "inconclusive": 1,
        "not reached": 0,
        "unpredicted": 1,
    }
    confirmed = next(f for f in data["findings"] if f["status"] == "confirmed")
    assert confirmed["code"] == "RTL201" and confirmed["jit_site"]["name"] == "step"
    assert confirmed["evidence"][0]["stack"][0]["function"] == "run"
    assert data["unpredicted"][0]["code"] == "RTL901"


def test_json_report_names_files_as_the_findings_do(project: Path) -> None:
    """An unpredicted site in the project, and the call that re-traced it, are shown relative to the
    folder confirm ran in, as the findings' paths are (the runtime writes absolute paths)."""
    util = str(Path.cwd() / "pkg" / "util.py")
    site = f"U:{util}:3"
    events = [
        {"ev": "start", "pid": 1},
        {"ev": "site", "pid": 1, "site": site, "planned": False, "name": "helper",
         "path": util, "line": 3, "function": "pkg.util.helper"},
        _trace(site, 1, kind="first", call=f"{util}:9"),
        _trace(site, 2, "x", call=f"{util}:9"),
    ]  # fmt: skip
    report = evaluate(build_plan(_findings()), aggregate(events), RunInfo())
    [unpredicted] = json.loads(format_json(report))["unpredicted"]
    assert unpredicted["path"] == "pkg/util.py"
    assert [e["call"] for e in unpredicted["evidence"]] == ["pkg/util.py:9"]
    assert "pkg/util.py:3:1: RTL901 unpredicted re-trace" in format_text(report)


def test_exit_codes_follow_the_run() -> None:
    empty = build_plan([])
    clean = evaluate(empty, aggregate([]), RunInfo(command=["x"], returncode=0))
    assert clean.exit_code() == 0
    crashed = evaluate(empty, aggregate([]), RunInfo(command=["x"], returncode=3))
    assert crashed.exit_code() == 2
    text = format_text(crashed)
    assert "no Python process loaded the instrumentation" in text


@pytest.mark.parametrize(
    ("version", "message"),
    [
        (None, "pip install 'retracelint[confirm]'"),
        ("0.4.30", "needs jax >= 0.10.2"),
        ("0.10.1", "found jax 0.10.1"),
        ("0.10.2", None),
        ("0.11.0.dev20261201", None),
    ],
)
def test_jax_requirement(version: str | None, message: str | None) -> None:
    problem = runner.check_jax(version if version is not None else "")
    if message is None:
        assert problem is None
    else:
        assert problem is not None and message in problem


def test_cli_without_jax_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "jax_version", lambda: None)
    result = CliRunner().invoke(confirm_cli.confirm_command, ["src", "--", "python", "x.py"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "retracelint: error: jax is not installed: pip install 'retracelint[confirm]'"
    ]


def test_cli_with_old_jax_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "jax_version", lambda: "0.9.0")
    result = CliRunner().invoke(confirm_cli.confirm_command, ["--", "python", "x.py"])
    assert result.exit_code == 2 and "found jax 0.9.0" in result.output


def test_cli_needs_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "jax_version", lambda: "0.10.2")
    result = CliRunner().invoke(confirm_cli.confirm_command, ["src"])
    assert result.exit_code == 2 and "after `--`" in result.output


def test_cli_reports_a_command_that_cannot_start(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "jax_version", lambda: "0.10.2")
    plan = project / "plan.json"
    plan.write_text(json.dumps(build_plan(_findings()).to_json()), encoding="utf-8")
    args = ["--plan", str(plan), "--format", "json", "--", "no-such-command-xyz", "--flag"]
    result = CliRunner().invoke(confirm_cli.confirm_command, args)
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert "no-such-command-xyz" in data["error"]
    assert data["command"] == ["no-such-command-xyz", "--flag"]
    assert {f["status"] for f in data["findings"]} == {NOT_REACHED}


def test_child_environment() -> None:
    env = runner.child_env({"PYTHONPATH": "/mine"}, "/tmp/plan.json", "gpu")
    assert env["PYTHONPATH"].split(":") == [runner.BOOT_DIR, "/mine"]
    assert env["JAX_PLATFORMS"] == "cuda,cpu"
    assert env["RETRACELINT_CONFIRM_PLAN"] == "/tmp/plan.json"
    assert Path(env[runner.RUNTIME_ENV]).name == "runtime.py"
    assert "JAX_PLATFORMS" not in runner.child_env({}, "/p", "auto")
    assert (Path(runner.BOOT_DIR) / "sitecustomize.py").exists()


def test_the_findings_check_writes_as_json_are_a_plan_as_the_static_pass_makes_it() -> None:
    from retracelint.config import Settings
    from retracelint.confirm.plan import build_plan, plan_from_json
    from retracelint.engine import analyse

    findings = analyse(["examples/trainer"], Settings(cache=False)).findings
    written = json.loads(json.dumps([f.to_dict() for f in findings]))
    assert plan_from_json(written) == build_plan(findings)
    with pytest.raises(ValueError, match="not a finding of `retracelint check --format json`"):
        plan_from_json([{"jit_site": None}])
