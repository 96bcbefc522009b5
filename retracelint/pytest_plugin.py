"""pytest plugin: watch JAX trace during a test session and report the re-traces.

    pytest --retracelint                   watch every jitted function your code defines
    pytest --retracelint-strict            the same, and fail the session if anything re-traced
    pytest --retracelint-plan plan.json    watch only the sites of a confirm plan, status per finding

Load it with ``-p retracelint.pytest_plugin`` (or through the ``pytest11`` entry point, which makes
the options always available). It observes JAX's own trace-cache misses exactly as ``retracelint
confirm`` does, whatever made the jitted function, and changes nothing the tests can see: the
functions stay JAX's objects, JAX's config and loggers are untouched. A jitted function that each
test makes anew is reported once as rebuilt per test, not as a re-trace. Under pytest-xdist every
worker appends to one event log that the controller reads at the end, so the summary covers the
whole session.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from typing import Any

import pytest

EVENTS_ENV = "RETRACELINT_PYTEST_EVENTS"
PLAN_ENV = "RETRACELINT_PYTEST_PLAN"  # the session's static findings, for the xdist workers
_STATE = "_retracelint_state"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("retracelint", "re-trace checks (retracelint)")
    group.addoption(
        "--retracelint",
        action="store_true",
        default=False,
        help="guard jit functions during the session and report the ones that re-trace",
    )
    group.addoption(
        "--retracelint-strict",
        action="store_true",
        default=False,
        help="like --retracelint, and fail the session when anything re-traced",
    )
    group.addoption(
        "--retracelint-plan",
        metavar="FILE",
        default=None,
        help="guard only the jit sites of this confirm plan (JSON) and give each finding a status",
    )
    group.addoption(
        "--retracelint-report",
        metavar="FILE",
        default=None,
        help="also write the report as JSON to FILE",
    )


def _option(config: pytest.Config, name: str) -> Any:
    ns = getattr(config, "known_args_namespace", None)
    value = getattr(ns, name, None) if ns is not None else None
    if value in (None, False):
        try:
            value = config.getoption(name)
        except ValueError:
            value = None
    return value


def _enabled(config: pytest.Config) -> bool:
    return bool(
        _option(config, "retracelint")
        or _option(config, "retracelint_strict")
        or _option(config, "retracelint_plan")
    )


class _State:
    def __init__(self, events: str, owner: bool, plan: Any, strict: bool, report_file: str | None):
        self.events = events
        self.owner = owner  # this process made the event log (the controller, or a plain run)
        self.plan = plan
        self.strict = strict
        self.report_file = report_file
        self.report: Any = None


def _start(config: pytest.Config) -> None:
    if getattr(config, _STATE, None) is not None or not _enabled(config):
        return
    from retracelint.confirm import runtime

    if os.environ.get(runtime.PLAN_ENV) or "_retracelint_runtime" in sys.modules:
        # Already running under `retracelint confirm`, which guards and reports by itself.
        setattr(config, _STATE, False)
        return
    from retracelint.confirm.plan import Plan, load_plan

    plan_file = _option(config, "retracelint_plan")
    events = os.environ.get(EVENTS_ENV)
    owner = events is None
    if plan_file:
        plan = load_plan(plan_file)
    elif owner:
        plan = _predicted(str(config.rootpath))
    else:  # an xdist worker: the controller's static pass, not one more
        plan = load_plan(os.environ[PLAN_ENV]) if os.environ.get(PLAN_ENV) else Plan([], [])
    if owner:
        fd, events = tempfile.mkstemp(prefix="retracelint-pytest-", suffix=".jsonl")
        os.close(fd)
        # xdist workers are started later and inherit these.
        os.environ[EVENTS_ENV] = events
        if not plan_file:
            fd, shared = tempfile.mkstemp(prefix="retracelint-pytest-plan-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(plan.to_json(), out)
            os.environ[PLAN_ENV] = shared
    # With a plan given, only its sites; else every jit site, the predicted ones under their rule
    # and the others as RTL901 (unpredicted).
    guard = "flagged" if plan_file else "all"
    runtime.install(plan.runtime_plan(events, guard))
    state = _State(
        events,
        owner,
        plan,
        bool(_option(config, "retracelint_strict")),
        _option(config, "retracelint_report"),
    )
    setattr(config, _STATE, state)


def _predicted(root: str) -> Any:
    """The plan of the static findings of the session's project: a re-trace they predict is then
    reported under its rule, and RTL901 means that nothing predicted it."""
    from retracelint.confirm.plan import Plan, build_plan
    from retracelint.engine import analyse_paths

    try:
        return build_plan(analyse_paths([root]), root)
    except Exception as exc:  # the run goes on with the run-time report alone
        sys.stderr.write(f"retracelint: the static pass failed ({exc}); reporting re-traces only\n")
        return Plan([], [])


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: Any, args: Any) -> None:
    # Before conftest.py files import the code under test, so module-level jit functions are guarded.
    _start(early_config)


def pytest_configure(config: pytest.Config) -> None:
    _start(config)  # when loaded late (pytest_plugins = [...] in a conftest)


def _state(config: pytest.Config) -> _State | None:
    state = getattr(config, _STATE, None)
    return state or None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Any:
    # An unhashable static argument raises before JAX traces: the test's error is the evidence.
    if call.excinfo is not None and _state(item.config) is not None:
        from retracelint.confirm import runtime

        current = runtime.current()
        if current is not None:
            current.note_exception(call.excinfo.value)
    yield


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = _state(config)
    if state is None:
        return
    from retracelint.confirm import report as report_module
    from retracelint.confirm import runtime

    current = runtime.current()
    if current is not None:
        current.finish()  # exact counts now: a worker's atexit may come after the controller reads
    if not state.owner:
        return
    observations = report_module.aggregate(report_module.read_events(state.events))
    run = report_module.RunInfo(guard="flagged" if state.plan.sites else "all")
    state.report = report_module.evaluate(state.plan, observations, run)
    if state.report_file:
        with open(state.report_file, "w", encoding="utf-8") as fh:
            json.dump(report_module.to_json(state.report), fh, indent=2)
    if state.strict and state.report.has_retraces and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = _state(config)
    if state is None or state.report is None:
        return
    from retracelint.confirm import report as report_module

    report = state.report
    obs = report.observations
    terminalreporter.section("retracelint")
    if report.results or report.unpredicted or report.rebuilt:
        terminalreporter.write(report_module.format_text(report, summary=bool(report.results)))
    observed = len(obs.sites)
    retraced = sum(1 for s in obs.sites.values() if s.retraces)
    total = sum(s.retraces for s in obs.sites.values())
    line = f"{observed} jit site(s) observed, {retraced} re-traced ({total} re-trace(s))"
    if report.rebuilt:
        line += f", {len(report.rebuilt)} rebuilt per test"
    if not obs.jax_imported:
        line += "; jax was never imported"
    if state.strict and report.has_retraces:
        line += ": failing the session (--retracelint-strict)"
    terminalreporter.write_line(line)


def pytest_unconfigure(config: pytest.Config) -> None:
    state = _state(config)
    if state is None or not state.owner:
        return
    os.environ.pop(EVENTS_ENV, None)
    shared = os.environ.pop(PLAN_ENV, None)
    for path in (state.events, shared):
        if path:
            with contextlib.suppress(OSError):
                os.unlink(path)
