"""`retracelint confirm` end to end on small programs (tests/confirm_programs/).

Each program marks its jit sites and the findings a static pass would report, with the status
confirm must give them (``# finding: ... expect=STATUS``). One positive and one negative program per
kind of cause (shape, static value, float static, lambda static, jit rebuilt), negatives that only
miss JAX's dispatch cache (numpy inputs, debug.print, committed arrays, nested jit, donated
arguments), methods, weak types, pytrees; they all run in one interpreter. Programs that crash,
hang, use threads or set JAX_NO_TRACING themselves run on their own. All jobs start side by side,
once per session even under pytest-xdist.
"""

from __future__ import annotations

import sys

import pytest
from confirm_programs.support import PROGRAMS, ConfirmJob, jax_available, once_per_session

pytestmark = pytest.mark.skipif(not jax_available(), reason="confirm needs jax (pip install jax)")

BATCH = [
    "shape_change.py",
    "shape_change_fixed.py",
    "static_value.py",
    "static_value_fixed.py",
    "float_static.py",
    "float_static_fixed.py",
    "lambda_static.py",
    "lambda_static_fixed.py",
    "jit_rebuilt.py",
    "jit_rebuilt_fixed.py",
    "numpy_input.py",
    "debug_print.py",
    "committed.py",
    "nested.py",
    "donated.py",
    "methods.py",
    "weak_type.py",
    "pytree.py",
]
NEGATIVES = [p for p in BATCH if p.endswith("_fixed.py")] + [
    "numpy_input.py",
    "debug_print.py",
    "committed.py",
    "nested.py",
    "donated.py",
]
ALONE = ["crash.py", "hang.py", "threads.py", "no_tracing_env.py"]
# Long enough for hang.py to import jax and trace three times while the other five jobs start
# theirs on two cores (at 8 s, under load, it was sometimes stopped after its first trace).
HANG_TIMEOUT_S = 20


def _alone(name: str, *extra: str) -> ConfirmJob:
    return ConfirmJob([name], extra=extra, command=[sys.executable, str(PROGRAMS / name)])


def _run_all() -> dict:
    jobs = {
        # The hang waits for its timeout: start it first.
        "hang.py": _alone("hang.py", "--timeout", str(HANG_TIMEOUT_S)),
        "batch": ConfirmJob(BATCH),
        "negatives-guard-all": ConfirmJob(NEGATIVES, extra=["--guard", "all"]),
        "crash.py": _alone("crash.py"),
        "threads.py": _alone("threads.py"),
        "no_tracing_env.py": _alone("no_tracing_env.py"),
    }
    out = {}
    for name, job in jobs.items():
        out[name] = {
            "run": job.result().to_json(),
            "expectations": [e.__dict__ for e in job.expectations],
        }
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return once_per_session(tmp_path_factory, "programs", _run_all)


def _finding(run: dict, expectation: dict) -> dict:
    for f in run["report"]["findings"]:
        if (
            f["path"].endswith(expectation["program"])
            and f["line"] == expectation["line"]
            and f["code"] == expectation["code"]
        ):
            return f
    raise AssertionError(
        f"no {expectation['code']} at {expectation['program']}:{expectation['line']}: "
        f"{run['stderr'][-2000:]}"
    )


def _check_expectations(entry: dict, program: str | None = None) -> None:
    run = entry["run"]
    assert run["report"], f"no report (exit {run['returncode']}):\n{run['stderr'][-3000:]}"
    checked = 0
    for expectation in entry["expectations"]:
        if program is not None and expectation["program"] != program:
            continue
        f = _finding(run, expectation)
        assert f["status"] == expectation["status"], (expectation, f["note"], f["evidence"])
        checked += 1
    assert checked, f"no expectations for {program}"


@pytest.mark.parametrize("program", BATCH)
def test_each_program_gets_the_expected_statuses(runs: dict, program: str) -> None:
    _check_expectations(runs["batch"], program)


EVIDENCE = {
    # program: a piece of the confirmed evidence that names the argument and what changed
    "shape_change.py": "batch: f32[16,16] -> f32[2,16]",
    "static_value.py": "n_layers: Static(val=1) -> Static(val=2)",
    "float_static.py": "lr: Static(val=0.1) -> Static(val=0.09000000000000001)",
    "lambda_static.py": "activation: Static(val=<function main.<locals>.<lambda>",
    "jit_rebuilt.py": "new function object: <lambda>",
    "methods.py": "self: Static(val=<__main__.Model object",
    "weak_type.py": "factor: weak f32[] -> f32[]",
    "pytree.py": "batch: dict keys {x} -> {mask, x}",
}


@pytest.mark.parametrize("program", sorted(EVIDENCE))
def test_confirmed_findings_say_what_changed_and_where(runs: dict, program: str) -> None:
    run = runs["batch"]["run"]
    confirmed = [
        f
        for f in run["report"]["findings"]
        if f["path"].endswith(program) and f["status"] == "confirmed"
    ]
    assert confirmed, program
    evidence = confirmed[0]["evidence"]
    summaries = [line for e in evidence for line in e["summary"]]
    assert any(EVIDENCE[program] in s for s in summaries), summaries
    frame = evidence[0]["stack"][0]
    assert frame["path"].endswith(program) and frame["function"] == "main", frame
    # Observed, not probed: nothing was raised in the program to find it.
    assert evidence[0]["error"] is None and not evidence[0]["blocked"]


def test_batch_run_passes_the_output_through_and_reports_the_exit_code(runs: dict) -> None:
    run = runs["batch"]["run"]
    for program in BATCH:
        assert f"{program.removesuffix('.py')} done" in run["stdout"]
    # jax.debug.print ran once per real call: the probes executed nothing.
    assert run["stdout"].count("loss ") == 3
    report = run["report"]
    assert report["exit_code"] == 0 and not report["timed_out"]
    assert report["backends_seen"] == ["cpu"]  # --backend cpu
    assert run["returncode"] == 1  # re-traces were confirmed
    assert report["unpredicted"] == []


def test_guard_all_finds_no_retrace_in_the_negative_programs(runs: dict) -> None:
    run = runs["negatives-guard-all"]["run"]
    report = run["report"]
    assert report["guard"] == "all"
    assert report["unpredicted"] == [], report["unpredicted"]
    assert report["summary"]["confirmed"] == 0
    assert run["returncode"] == 0, run["stderr"][-2000:]


def test_a_crash_halfway_keeps_what_was_confirmed_before_it(runs: dict) -> None:
    entry = runs["crash.py"]
    _check_expectations(entry)
    run = entry["run"]
    assert run["report"]["exit_code"] == 1
    assert "the data loader fell over" in run["stderr"]  # the program's stderr passes through
    assert run["returncode"] == 1


def test_a_hanging_program_is_stopped_by_the_timeout_with_a_partial_report(runs: dict) -> None:
    entry = runs["hang.py"]
    _check_expectations(entry)
    report = entry["run"]["report"]
    assert report["timed_out"] is True and report["signal"] == "SIGTERM"
    # Stopped at its limit; how soon after, load decides (a hang never ends: any end is the timeout's).
    assert report["duration_s"] >= HANG_TIMEOUT_S
    finding = report["findings"][0]
    # Every trace was written as it happened: 3 traces, 2 of them re-traces.
    assert (finding["traces"], finding["retraces"]) == (3, 2)


def test_threads_are_guarded_independently(runs: dict) -> None:
    entry = runs["threads.py"]
    _check_expectations(entry)
    run = entry["run"]
    assert "threads done" in run["stdout"], run["stderr"][-3000:]
    grow = next(f for f in run["report"]["findings"] if f["code"] == "RTL102")
    assert grow["retraces"] == 6


def test_a_program_running_under_jax_no_tracing_itself(runs: dict) -> None:
    entry = runs["no_tracing_env.py"]
    _check_expectations(entry)
    run = entry["run"]
    # The program's own guard still blocked the re-trace, exactly as without retracelint.
    assert "blocked by the program's own no_tracing: True" in run["stdout"]
    assert "no_tracing_env done" in run["stdout"]
    assert run["report"]["exit_code"] == 0
