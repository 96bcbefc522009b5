"""Turn the events the instrumented processes wrote into a status per finding, and print it.

Statuses (per finding, over the routes by which it reaches a site):

* ``confirmed``: the site re-traced because of what the finding names (its parameter changed, and
  for RTL401-RTL405 in the way the rule says; for RTL301, a new function object was traced; for
  RTL302, the caches had been cleared), at a call the finding's route goes through (at either of
  the two calls, for RTL401-RTL405: the second one to run re-traces); the evidence says from what
  to what, and where.
* ``not re-traced``: the site was traced at the finding's call and never re-traced there for that
  reason: what the finding names kept one signature during the run (any new one would have been a
  trace). Either the run did not reach the varying case or the finding is false; the run alone
  cannot tell which. JAX runs no Python on a cache hit, so calls that reuse a trace are not counted.
* ``inconclusive``: the site was traced, but only inside other jit functions (a re-trace then
  shows up at the outer function), only from other calls, or only one jit function was made.
* ``not reached``: nothing made at the site was ever traced.

Re-traces that no finding predicted are reported as RTL901. Under pytest, a jitted function that
each test makes anew (one trace per test) is reported once as rebuilt per test, not as a re-trace.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from retracelint.confirm.plan import (
    Plan,
    PlannedFinding,
    PlanRoute,
    PlanSite,
    def_line,
)

CONFIRMED = "confirmed"
NOT_RETRACED = "not re-traced"
INCONCLUSIVE = "inconclusive"
NOT_REACHED = "not reached"
STATUSES = (CONFIRMED, NOT_RETRACED, INCONCLUSIVE, NOT_REACHED)
UNPREDICTED_CODE = "RTL901"
_FINAL_COUNTS = ("nested", "creations", "blocked", "objects")


@dataclass
class SiteObservation:
    site_id: str
    planned: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    traces: int = 0  # top-level traces, the first ones included
    retraces: int = 0
    nested: int = 0
    creations: int = 0
    blocked: int = 0  # re-traces the program's own jax.no_tracing stopped
    objects: int = 0  # distinct function objects traced
    calls_at: Counter[str] = field(default_factory=Counter)  # traces per call site "path:line"
    nested_in: set[str] = field(default_factory=set)
    events: list[dict[str, Any]] = field(default_factory=list)  # re-traces, in order
    rebuilt: list[dict[str, Any]] = field(default_factory=list)  # new per test (pytest)
    tests: set[str] = field(default_factory=set)  # tests in which it was traced


@dataclass
class Observations:
    sites: dict[str, SiteObservation] = field(default_factory=dict)
    processes: int = 0
    jax_imported: bool = False
    patched: bool = False
    backends: set[str] = field(default_factory=set)
    unsupported_jax: str | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    clears: int = 0


@dataclass
class RunInfo:
    """How the command ended (filled by the runner; the pytest plugin leaves most of it empty)."""

    command: list[str] = field(default_factory=list)
    returncode: int | None = None
    signal: str | None = None
    timed_out: bool = False
    interrupted: bool = False
    duration: float = 0.0
    error: str | None = None
    guard: str = "flagged"
    backend: str = "auto"

    @property
    def failed(self) -> bool:
        return bool(
            self.error or self.timed_out or self.signal or self.interrupted or self.returncode
        )

    def describe(self) -> str:
        cmd = " ".join(self.command)
        if self.error:
            return f"`{cmd}` could not run: {self.error}"
        if self.timed_out:
            end = "was stopped by the timeout"
        elif self.interrupted:
            end = "was interrupted"
        elif self.signal:
            end = f"was killed by {self.signal}"
        else:
            end = f"exited with code {self.returncode}"
        return f"`{cmd}` {end} after {self.duration:.1f} s"


def read_events(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every complete event line; a process killed mid-write can leave a partial last line."""
    events = []
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if isinstance(event, dict) and "ev" in event:
                    events.append(event)
    except OSError:
        pass
    return events


def _test_id(event: dict[str, Any]) -> str | None:
    test = event.get("test")
    return test.rsplit(" ", 1)[0] if test else None


def aggregate(events: list[dict[str, Any]]) -> Observations:
    obs = Observations()
    finals: dict[Any, dict[str, Any]] = {}
    # Per process and site: the tests that traced it so far (a function made anew by a test is
    # not re-traced by it).
    tested: dict[tuple[Any, str], set[str]] = {}
    for ev in events:
        kind, pid = ev.get("ev"), ev.get("pid")
        site_id = ev.get("site")
        site = None
        if site_id is not None:
            site = obs.sites.get(site_id)
            if site is None:
                site = obs.sites[site_id] = SiteObservation(site_id)
        if kind == "patched":
            obs.jax_imported = obs.patched = True
        elif kind == "unsupported":
            obs.jax_imported = True
            obs.unsupported_jax = str(ev.get("jax"))
        elif kind == "site" and site is not None:
            site.planned = bool(ev.get("planned"))
            site.meta = {
                k: v for k, v in ev.items() if k not in ("ev", "pid", "t", "site", "planned")
            }
        elif kind == "trace" and site is not None:
            _add_trace(site, ev, tested.setdefault((pid, site.site_id), set()))
        elif kind == "nested" and site is not None:
            site.nested_in.add(str(ev.get("outer")))
        elif kind == "error":
            obs.errors.append(ev)
        elif kind == "clear":
            obs.clears += 1
        elif kind == "backend" and ev.get("backend"):
            obs.backends.add(str(ev["backend"]))
        elif kind == "final":
            finals[pid] = ev
            obs.jax_imported = obs.jax_imported or bool(ev.get("jax_imported"))
            if ev.get("backend"):
                obs.backends.add(str(ev["backend"]))
    # What only the final counts carry (a process that was killed leaves lower bounds).
    for final in finals.values():
        for site_id, counts in (final.get("sites") or {}).items():
            site = obs.sites.setdefault(site_id, SiteObservation(site_id))
            for name in _FINAL_COUNTS:
                setattr(site, name, getattr(site, name) + int(counts.get(name, 0)))
            site.nested_in.update(counts.get("nested_in") or ())
    obs.processes = len({ev.get("pid") for ev in events if ev.get("ev") == "start"})
    return obs


def _add_trace(site: SiteObservation, ev: dict[str, Any], tested: set[str]) -> None:
    test = _test_id(ev)
    if ev.get("blocked"):
        site.events.append(ev)
        return
    site.traces += 1
    site.calls_at[str(ev.get("call"))] += 1
    if test:
        site.tests.add(test)
    if ev.get("retrace"):
        if ev.get("kind") == "new-function" and test and test not in tested:
            site.rebuilt.append(ev)
        else:
            site.retraces += 1
            site.events.append(ev)
    if test:
        tested.add(test)


# ---------------------------------------------------------------------------------------------
# Status per finding


@dataclass
class FindingResult:
    finding: PlannedFinding
    status: str
    retraces: int = 0  # re-traces that match this finding
    site_retraces: int = 0
    traces: int = 0
    creations: int = 0
    evidence: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.finding.to_dict(),
            "path": _rel(self.finding.path),
            "status": self.status,
            "retraces": self.retraces,
            "site_retraces": self.site_retraces,
            "traces": self.traces,
            "creations": self.creations,
            "note": self.note,
            "evidence": [_evidence_dict(e) for e in self.evidence],
        }


@dataclass
class Unpredicted:
    """RTL901: re-traces at a site that no finding explains."""

    site_id: str
    path: str
    line: int
    name: str
    function: str
    retraces: int
    traces: int
    evidence: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": UNPREDICTED_CODE,
            "path": _rel(self.path),
            "line": self.line,
            "function": self.function,
            "name": self.name,
            "retraces": self.retraces,
            "traces": self.traces,
            "evidence": [_evidence_dict(e) for e in self.evidence],
        }


@dataclass
class Rebuilt:
    """A jitted function made anew by each test that uses it: one trace per test, by design."""

    site_id: str
    path: str
    line: int
    name: str
    tests: int

    def to_dict(self) -> dict[str, Any]:
        return {"path": _rel(self.path), "line": self.line, "name": self.name, "tests": self.tests}


@dataclass
class ConfirmReport:
    run: RunInfo
    results: list[FindingResult]
    unpredicted: list[Unpredicted]
    observations: Observations
    rebuilt: list[Rebuilt] = field(default_factory=list)

    @property
    def counts(self) -> Counter[str]:
        return Counter(r.status for r in self.results)

    @property
    def has_retraces(self) -> bool:
        return bool(self.counts[CONFIRMED] or self.unpredicted)

    def exit_code(self) -> int:
        """1: re-traces confirmed; 2: the command could not run or did not finish cleanly, so the
        statuses are partial; 0 otherwise."""
        if self.has_retraces:
            return 1
        return 2 if self.run.failed else 0


def _evidence_dict(ev: dict[str, Any]) -> dict[str, Any]:
    stack = [{**frame, "path": _rel(frame.get("path", ""))} for frame in ev.get("stack") or []]
    return {
        "kind": ev.get("kind"),
        "summary": ev.get("evidence", []),
        "changes": ev.get("changes", []),
        "call": _rel_call(ev["call"]) if ev.get("call") else ev.get("call"),
        "stack": stack,
        "thread": ev.get("thread"),
        "test": ev.get("test"),
        "pid": ev.get("pid"),
        "blocked": bool(ev.get("blocked")),
        "error": ev.get("error"),
    }


# Findings about one parameter passed two ways, at two calls of a jitted function or at one call
# across iterations: whichever call runs second re-traces, and the finding may name either. Each is
# proved by a change of its own kinds only.
_EITHER_CALL = {
    "RTL401": frozenset({"weak_type", "dtype"}),
    "RTL402": frozenset({"dtype", "weak_type"}),
    "RTL403": frozenset({"structure"}),
    "RTL404": frozenset({"keyword"}),
    "RTL405": frozenset({"context"}),
}


def matches(code: str, parameter: str | None, event: dict[str, Any]) -> bool:
    """Does this re-trace prove a finding with this code and parameter (the right cause)?"""
    kind = event.get("kind")
    if code == "RTL301":
        return kind == "new-function"
    if code == "RTL302":
        return kind == "cache-cleared"
    if kind in ("new-function", "cache-cleared", "evicted"):
        return False
    changes = event.get("changes") or []
    proving = _EITHER_CALL.get(code)
    # How a value was passed proves only RTL404; a new value, any other finding on it.
    relevant = [
        c for c in changes if (c.get("kind") in proving if proving else c.get("kind") != "keyword")
    ]
    if changes and not relevant:
        return False  # it re-traced, but for a change of another kind
    changed = {c.get("param", "") for c in relevant}
    if not parameter or not changed:
        return True
    root = parameter.split(".")[-1].split("[")[0]
    if root not in (event.get("params") or []) and parameter not in changed:
        return True  # a name we cannot map onto the function's parameters: trust the site
    return parameter in changed or root in changed


def _real(path: str) -> str:
    return path if path.startswith("<") else os.path.realpath(path)


def _call_key(path: str, line: int) -> tuple[str, int]:
    return _real(path), line


def at_call(route: PlanRoute, event: dict[str, Any]) -> bool:
    """Did this trace happen at one of the route's calls (any call when it names none)?"""
    if not route.calls:
        return True
    frames = [(f.get("path", ""), int(f.get("line", 0))) for f in event.get("stack") or []]
    if not frames and event.get("call"):
        path, _, line = str(event["call"]).rpartition(":")
        frames = [(path, int(line or 0))]
    for path, line in frames:
        real = _real(path)
        for call_path, first, last in route.calls:
            if real == _real(call_path) and first <= line <= last:
                return True
    return False


def _calls_text(route: PlanRoute) -> str:
    return ", ".join(f"{_rel(p)}:{a}" for p, a, _ in route.calls)


def _unique_evidence(events: list[dict[str, Any]], limit: int = 3) -> list[dict[str, Any]]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for ev in events:
        if not ev.get("stack") and not ev.get("evidence"):
            continue  # past the detail cap: counted, not shown
        key = tuple(ev.get("evidence") or ())
        if key in seen:
            continue
        seen.add(key)
        out.append(ev)
        if len(out) == limit:
            break
    return out


def _unhashable(f: PlannedFinding, obs: Observations) -> list[dict[str, Any]]:
    """RTL203: the program's own ValueError, raised at the finding's line or call."""
    out = []
    for error in obs.errors:
        if error.get("kind") != "unhashable-static":
            continue
        for frame in error.get("stack") or []:
            line = int(frame.get("line", 0))
            here = _real(frame.get("path", "")) == _real(f.path) and line == f.line
            if here or any(at_call(r, {"stack": [frame]}) and r.calls for r in f.routes):
                out.append(error)
                break
    return out


def evaluate(plan: Plan, obs: Observations, run: RunInfo) -> ConfirmReport:
    results: list[FindingResult] = []
    claimed: set[int] = set()
    sites = {s.site_id: s for s in plan.sites}
    for f in plan.findings:
        routes = f.routes or (PlanRoute(f.site_id, f.parameter),)
        mine: list[dict[str, Any]] = []
        for route in routes:
            seen = obs.sites.get(route.site_id)
            if seen is None:
                continue
            for ev in seen.events:
                known = any(m is ev for m in mine)
                if (
                    not known
                    and matches(f.code, route.parameter, ev)
                    and (f.code in _EITHER_CALL or at_call(route, ev))
                ):
                    mine.append(ev)
        claimed.update(id(ev) for ev in mine)
        results.append(_status(f, routes, sites, obs, mine))
    unpredicted: list[Unpredicted] = []
    rebuilt: list[Rebuilt] = []
    for seen in obs.sites.values():
        leftover = [ev for ev in seen.events if id(ev) not in claimed]
        planned = sites.get(seen.site_id)
        if planned is not None:
            path, line = planned.path, planned.line
        else:
            path, line = str(seen.meta.get("path", "?")), int(seen.meta.get("line", 0) or 0)
            if not path.startswith("<"):
                line = def_line(path, line)  # a decorated function's code starts at its decorator
        if leftover:
            unpredicted.append(_unpredicted(seen, leftover, path, line))
        if seen.rebuilt:
            name = str(seen.meta.get("name") or (planned.name if planned else "function"))
            rebuilt.append(Rebuilt(seen.site_id, path, line, name, len(seen.tests)))
    return ConfirmReport(run, results, unpredicted, obs, rebuilt)


def _status(
    f: PlannedFinding,
    routes: tuple[PlanRoute, ...],
    sites: dict[str, PlanSite],
    obs: Observations,
    mine: list[dict[str, Any]],
) -> FindingResult:
    observed = [obs.sites.get(r.site_id) or SiteObservation(r.site_id) for r in routes]
    primary = sites[routes[0].site_id]
    name = primary.name or "the jit function"
    result = FindingResult(
        finding=f,
        status=NOT_REACHED,
        site_retraces=sum(s.retraces for s in observed),
        traces=sum(s.traces for s in observed),
        creations=sum(s.creations for s in observed),
    )
    unhashable = _unhashable(f, obs) if f.code == "RTL203" else []
    if mine or unhashable:
        result.status = CONFIRMED
        result.retraces = len(mine)
        result.evidence = _unique_evidence(mine) or unhashable[:1]
        blocked = sum(1 for ev in mine if ev.get("blocked"))
        if mine and blocked == len(mine):
            result.note = (
                f"{name} would have re-traced: the program's own jax.no_tracing stopped it"
            )
        elif mine:
            result.note = f"{name} re-traced {_times(result.retraces)}"
        else:
            result.note = f"{name} raised: {unhashable[0].get('message', '')}"
        return result
    if f.code == "RTL203":
        result.status = INCONCLUSIVE
        result.note = (
            "an unhashable static argument raises before JAX traces; the program never let "
            "that error escape, so it was not seen"
        )
        return result
    traced = [(r, s) for r, s in zip(routes, observed, strict=True) if s.traces]
    if not traced:
        if any(s.nested for s in observed):
            outer = sorted({o for s in observed for o in s.nested_in})
            result.status = INCONCLUSIVE
            result.note = f"{name} was only traced inside other jit functions ({', '.join(outer)})"
        elif result.creations:
            result.note = f"{_plural(result.creations, 'jit function')} made here, never called"
        else:
            result.note = f"{name} was never traced"
        return result
    here = [
        (r, s)
        for r, s in traced
        if not r.calls or any(at_call(r, _call_event(c)) for c in s.calls_at)
    ]
    others = result.site_retraces
    if f.code == "RTL301":
        cause = "a new function object"
    elif f.code == "RTL302":
        cause = "jax.clear_caches()"
    elif f.parameter:
        cause = f"`{f.parameter}`"
    else:
        cause = "what this finding names"
    because = f"; it re-traced {_times(others)} for other reasons" if others else ""
    if not here:
        calls = sorted({c for _, s in traced for c in s.calls_at})
        result.status = INCONCLUSIVE
        result.note = (
            f"{name} was traced only from other calls ({_listed([_rel_call(c) for c in calls])})"
            f", not from {_calls_text(traced[0][0])}: calls from there reused that trace or never ran"
            f"{because}"
        )
        return result
    if f.code == "RTL301" and result.creations <= 1 and max(s.objects for _, s in here) <= 1:
        result.status = INCONCLUSIVE
        made = (
            "only one jit function was made here"
            if result.creations
            else "one function object was traced"
        )
        result.note = f"{made}, so nothing could re-trace{because}"
        return result
    traces = sum(
        s.calls_at[c]
        for r, s in here
        for c in s.calls_at
        if not r.calls or at_call(r, _call_event(c))
    )
    result.status = NOT_RETRACED
    # A re-trace for this cause at another call than the finding's is not this finding's, but the
    # note must not say the cause never re-traced: the same report shows it changing there.
    elsewhere = _for_cause_elsewhere(f, routes, obs)
    why = [f"{_times(len(elsewhere))} because of {cause} at other calls"] if elsewhere else []
    if others > len(elsewhere):
        why.append(f"{_times(others - len(elsewhere))} for other reasons")
    if elsewhere:
        how = f"never re-traced there; it re-traced {' and '.join(why)}"
        calls = sorted({str(ev.get("call")) for ev in elsewhere if ev.get("call")})
        how += f" ({_listed([_rel_call(c) for c in calls])})" if calls else ""
    elif others:
        how = f"re-traced {_times(others)}, but never because of {cause}"
    else:
        how = "never re-traced"
    # Any new signature of the flagged input would have been a trace: it kept one in this run.
    # Whether the run never reached the varying case or the finding is false, it cannot tell.
    result.note = (
        f"{name} was traced {_times(traces)} at this call and {how}: {cause} kept one signature"
        f"{' at this call' if elsewhere else ''} in this run (a longer run, or the data that varies"
        " it, may still re-trace)"
    )
    return result


def _for_cause_elsewhere(
    f: PlannedFinding, routes: tuple[PlanRoute, ...], obs: Observations
) -> list[dict[str, Any]]:
    """The re-traces of the routes' sites for the finding's cause, at none of its calls."""
    out: list[dict[str, Any]] = []
    for route in routes:
        seen = obs.sites.get(route.site_id)
        for ev in seen.events if seen is not None else []:
            cause = ev.get("retrace") and matches(f.code, route.parameter, ev)
            if cause and not at_call(route, ev) and not any(ev is e for e in out):
                out.append(ev)
    return out


def _listed(items: list[str], limit: int = 3) -> str:
    """The first ``limit`` items, then how many more there are."""
    more = f" ({len(items) - limit} more)" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def _call_event(call: str) -> dict[str, Any]:
    return {"call": call}


def _rel_call(call: str) -> str:
    path, _, line = call.rpartition(":")
    return f"{_rel(path)}:{line}"


def _unpredicted(
    seen: SiteObservation, events: list[dict[str, Any]], path: str, line: int
) -> Unpredicted:
    meta = seen.meta
    return Unpredicted(
        site_id=seen.site_id,
        path=str(path),
        line=int(line or 0),
        name=str(meta.get("name") or "function"),
        function=str(meta.get("function") or ""),
        retraces=len(events),
        traces=seen.traces,
        evidence=_unique_evidence(events),
    )


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _times(n: int) -> str:
    return _plural(n, "time")


# ---------------------------------------------------------------------------------------------
# Output


def _rel(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _stack_line(ev: dict[str, Any]) -> str:
    stack = ev.get("stack") or []
    test = ev.get("test")
    test_note = f" (test {test.rsplit(' ', 1)[0]})" if test else ""
    if not stack:
        return test_note.strip()
    top = stack[0]
    code = f": {top['code']}" if top.get("code") else ""
    return f"at {_rel(top['path'])}:{top['line']} in {top['function']}{code}{test_note}"


def _evidence_lines(events: list[dict[str, Any]], retraces: int) -> list[str]:
    """The re-traces shown (one of each kind of change), then how many more there were."""
    lines = []
    for ev in events:
        summary = ev.get("evidence") or [ev.get("message", "")]
        lines.extend(f"    {s}" for s in summary)
        where = _stack_line(ev)
        if where:
            lines.append(f"      {where}")
    more = retraces - len(events)
    if events and more > 0:
        lines.append(f"    ({more} more re-trace{'s' * (more != 1)})")
    return lines


def format_text(report: ConfirmReport, summary: bool = True) -> str:
    run, obs = report.run, report.observations
    lines = []
    if run.command:
        extra = [f"guard {run.guard}"]
        if obs.backends:
            extra.append("backend " + ",".join(sorted(obs.backends)))
        if obs.processes > 1:
            extra.append(f"{obs.processes} processes")
        lines.append(f"retracelint confirm: {run.describe()} ({', '.join(extra)})")
        if not run.error and not obs.processes:
            lines.append(
                "  no Python process loaded the instrumentation (is the command a Python program? "
                "python -S, -E or -I switch it off)"
            )
        elif not run.error and not obs.jax_imported:
            lines.append("  the command never imported jax")
        if run.backend == "gpu" and obs.backends and "gpu" not in obs.backends:
            lines.append("  --backend gpu was asked for, but jax found no GPU and ran on the CPU")
        if obs.unsupported_jax:
            lines.append(
                f"  the command's jax {obs.unsupported_jax} has no trace hook retracelint knows "
                "(supported: jax >= 0.10.2)"
            )
        lines.append("")
    for r in report.results:
        f = r.finding
        lines.append(f"{_rel(f.path)}:{f.line}:{f.col}: {f.code} {r.status}: {r.note}")
        if r.status == CONFIRMED:
            lines.extend(_evidence_lines(r.evidence, r.retraces))
    for u in report.unpredicted:
        lines.append(
            f"{_rel(u.path)}:{u.line}:1: {UNPREDICTED_CODE} unpredicted re-trace: "
            f"{u.name} re-traced {_times(u.retraces)}"
        )
        lines.extend(_evidence_lines(u.evidence, u.retraces))
    for b in report.rebuilt:
        lines.append(
            f"{_rel(b.path)}:{b.line}:1: rebuilt per test: {b.name} is jitted anew by each of "
            f"{_plural(b.tests, 'test')} (one trace per test, not a re-trace within a test)"
        )
    if not summary:
        return "\n".join(lines) + "\n" if lines else ""
    if report.results or report.unpredicted:
        lines.append("")
    counts = report.counts
    summary = ", ".join(f"{counts[s]} {s}" for s in STATUSES)
    n = len(report.results)
    tail = f"; {len(report.unpredicted)} unpredicted re-trace site(s) ({UNPREDICTED_CODE})"
    lines.append(f"{n} finding{'s' * (n != 1)}: {summary}{tail if report.unpredicted else ''}")
    return "\n".join(lines) + "\n"


def to_json(report: ConfirmReport) -> dict[str, Any]:
    run, obs = report.run, report.observations
    return {
        "command": run.command,
        "exit_code": run.returncode,
        "signal": run.signal,
        "timed_out": run.timed_out,
        "interrupted": run.interrupted,
        "error": run.error,
        "duration_s": round(run.duration, 3),
        "guard": run.guard,
        "backend": run.backend,
        "backends_seen": sorted(obs.backends),
        "processes": obs.processes,
        "jax_imported": obs.jax_imported,
        "findings": [r.to_dict() for r in report.results],
        "unpredicted": [u.to_dict() for u in report.unpredicted],
        "rebuilt_per_test": [b.to_dict() for b in report.rebuilt],
        "summary": {
            **{s: report.counts[s] for s in STATUSES},
            "unpredicted": len(report.unpredicted),
        },
    }


def format_json(report: ConfirmReport) -> str:
    return json.dumps(to_json(report), indent=2) + "\n"


def write_report(report: ConfirmReport, fmt: str, output: str | None) -> str:
    text = format_json(report) if fmt == "json" else format_text(report)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    return text
