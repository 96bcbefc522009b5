"""Turn the events the instrumented processes wrote into a status per finding, and print it.

Statuses:

* ``confirmed``: the site re-traced because of what the finding names (its parameter changed, or,
  for RTL301, a new function object was traced); the evidence says from what to what, and where.
* ``not re-traced``: the site ran at least twice at top level and never re-traced for that reason,
  so the finding is probably a false positive (or the run did not exercise the varying path).
* ``inconclusive``: the site ran, but too few times to tell (once, or only inside other jit
  functions, where a re-trace shows up at the outer function).
* ``not reached``: the run never called a jit function made at the site.

Re-traces that no finding predicted are reported as RTL901.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from retracelint.confirm.plan import (
    INSTRUMENTED_WRAPPERS,
    Plan,
    PlannedFinding,
    PlanSite,
    def_line,
)

CONFIRMED = "confirmed"
NOT_RETRACED = "not re-traced"
INCONCLUSIVE = "inconclusive"
NOT_REACHED = "not reached"
STATUSES = (CONFIRMED, NOT_RETRACED, INCONCLUSIVE, NOT_REACHED)
UNPREDICTED_CODE = "RTL901"
_COUNT_FIELDS = ("calls", "nested_calls", "creations", "retraces", "probes")


@dataclass
class SiteObservation:
    site_id: str
    planned: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    calls: int = 0
    nested_calls: int = 0
    creations: int = 0
    retraces: int = 0
    probes: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)  # detailed re-traces
    errors: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Observations:
    sites: dict[str, SiteObservation] = field(default_factory=dict)
    processes: int = 0
    jax_imported: bool = False
    patched: bool = False
    backends: set[str] = field(default_factory=set)
    unsupported_jax: str | None = None


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


def aggregate(events: list[dict[str, Any]]) -> Observations:
    obs = Observations()
    per_process: dict[tuple[Any, str], dict[str, int]] = {}
    finals: dict[Any, dict[str, Any]] = {}
    pids = set()
    for ev in events:
        kind, pid = ev.get("ev"), ev.get("pid")
        pids.add(pid)
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
        elif kind == "count" and site is not None:
            counts = per_process.setdefault((pid, site.site_id), dict.fromkeys(_COUNT_FIELDS, 0))
            for name in _COUNT_FIELDS:
                counts[name] = max(counts[name], int(ev.get(name, 0)))
        elif kind == "retrace" and site is not None:
            counts = per_process.setdefault((pid, site.site_id), dict.fromkeys(_COUNT_FIELDS, 0))
            counts["retraces"] = max(counts["retraces"], int(ev.get("n", 0)))
            counts["calls"] = max(counts["calls"], int(ev.get("call", 0)))
            if "kind" in ev:
                site.events.append(ev)
        elif kind == "error" and site is not None:
            site.errors.append(ev)
            counts = per_process.setdefault((pid, site.site_id), dict.fromkeys(_COUNT_FIELDS, 0))
            counts["calls"] = max(counts["calls"], 1)
        elif kind == "backend" and ev.get("backend"):
            obs.backends.add(str(ev["backend"]))
        elif kind == "final":
            finals[pid] = ev
            obs.jax_imported = obs.jax_imported or bool(ev.get("jax_imported"))
            if ev.get("backend"):
                obs.backends.add(str(ev["backend"]))
    # A process that ended normally wrote exact counts; otherwise the milestones are lower bounds.
    for pid, final in finals.items():
        for site_id, counts in (final.get("sites") or {}).items():
            merged = per_process.setdefault((pid, site_id), dict.fromkeys(_COUNT_FIELDS, 0))
            for name in _COUNT_FIELDS:
                merged[name] = max(merged[name], int(counts.get(name, 0)))
            obs.sites.setdefault(site_id, SiteObservation(site_id))
    for (_, site_id), counts in per_process.items():
        site = obs.sites[site_id]
        for name in _COUNT_FIELDS:
            setattr(site, name, getattr(site, name) + counts[name])
    obs.processes = len({ev.get("pid") for ev in events if ev.get("ev") == "start"})
    return obs


# ---------------------------------------------------------------------------------------------
# Status per finding


@dataclass
class FindingResult:
    finding: PlannedFinding
    status: str
    retraces: int = 0  # re-traces that match this finding
    site_retraces: int = 0
    calls: int = 0
    creations: int = 0
    evidence: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.finding.to_dict(),
            "status": self.status,
            "retraces": self.retraces,
            "site_retraces": self.site_retraces,
            "calls": self.calls,
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
    calls: int
    evidence: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": UNPREDICTED_CODE,
            "path": self.path,
            "line": self.line,
            "function": self.function,
            "name": self.name,
            "retraces": self.retraces,
            "calls": self.calls,
            "evidence": [_evidence_dict(e) for e in self.evidence],
        }


@dataclass
class ConfirmReport:
    run: RunInfo
    results: list[FindingResult]
    unpredicted: list[Unpredicted]
    observations: Observations

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
        "call": ev.get("call"),
        "stack": stack,
        "thread": ev.get("thread"),
        "test": ev.get("test"),
        "pid": ev.get("pid"),
        "explain": ev.get("explain"),
        "error": ev.get("error"),
    }


def _changed_params(event: dict[str, Any]) -> set[str]:
    return {c.get("param", "") for c in event.get("changes") or []}


def matches(finding: PlannedFinding, event: dict[str, Any]) -> bool:
    """Does this re-trace prove this finding (the right cause, the right parameter)?"""
    kind = event.get("kind")
    if finding.code == "RTL301":
        return kind == "new-function" or (kind == "observed" and not event.get("changes"))
    if kind == "new-function":
        return False
    param = finding.parameter
    changed = _changed_params(event)
    if not param or not changed:
        return True
    root = param.split(".")[-1].split("[")[0]
    if root not in (event.get("params") or []) and param not in changed:
        return True  # a name we cannot map onto the function's parameters: trust the site
    return param in changed or root in changed


def _unique_evidence(events: list[dict[str, Any]], limit: int = 3) -> list[dict[str, Any]]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for ev in events:
        key = tuple(ev.get("evidence") or ())
        if key in seen:
            continue
        seen.add(key)
        out.append(ev)
        if len(out) == limit:
            break
    return out


def evaluate(plan: Plan, obs: Observations, run: RunInfo) -> ConfirmReport:
    by_site: dict[str, list[PlannedFinding]] = {}
    for f in plan.findings:
        by_site.setdefault(f.site_id, []).append(f)
    results: list[FindingResult] = []
    unpredicted: list[Unpredicted] = []
    for site in plan.sites:
        seen = obs.sites.get(site.site_id) or SiteObservation(site.site_id)
        findings = by_site.get(site.site_id, [])
        claimed: set[int] = set()
        undetailed = max(0, seen.retraces - len(seen.events))
        for f in findings:
            mine = [ev for ev in seen.events if matches(f, ev)]
            claimed.update(id(ev) for ev in mine)
            results.append(_status(f, site, seen, mine, undetailed))
        leftover = [ev for ev in seen.events if id(ev) not in claimed]
        if leftover:
            unpredicted.append(_unpredicted(seen, leftover, len(leftover), site.path, site.line))
    planned_ids = {s.site_id for s in plan.sites}
    for seen in obs.sites.values():
        if seen.site_id in planned_ids or not seen.retraces:
            continue
        path, line = str(seen.meta.get("path", "?")), int(seen.meta.get("line", 0) or 0)
        if not path.startswith("<"):
            line = def_line(path, line)  # a decorated function's code starts at its decorator
        unpredicted.append(_unpredicted(seen, seen.events, seen.retraces, path, line))
    return ConfirmReport(run=run, results=results, unpredicted=unpredicted, observations=obs)


def _status(
    f: PlannedFinding,
    site: PlanSite,
    seen: SiteObservation,
    mine: list[dict[str, Any]],
    undetailed: int,
) -> FindingResult:
    name = site.name or "the jit function"
    wrapper = site.wrapper
    result = FindingResult(
        finding=f,
        status=NOT_REACHED,
        site_retraces=seen.retraces,
        calls=seen.calls,
        creations=seen.creations,
    )
    unhashable = [e for e in seen.errors if e.get("kind") == "unhashable-static"]
    if mine or (f.code == "RTL203" and unhashable):
        result.status = CONFIRMED
        # Re-traces past the detail cap carry no cause; count them when every detailed one matched.
        all_mine = len(mine) == len(seen.events)
        result.retraces = len(mine) + (undetailed if all_mine else 0)
        result.evidence = _unique_evidence(mine) or unhashable[:1]
        if mine:
            result.note = f"{name} re-traced {_times(result.retraces)}"
        else:
            result.note = f"{name} raised: {unhashable[0].get('message', '')}"
        return result
    if seen.calls + seen.nested_calls == 0:
        if seen.creations:
            result.note = f"{_plural(seen.creations, 'jit function')} made here, never called"
        elif wrapper not in INSTRUMENTED_WRAPPERS:
            result.note = f"{name} never ran under jax.jit/jax.pmap ({wrapper} is not instrumented)"
        else:
            result.note = f"{name} never ran"
        return result
    others = seen.retraces - len(mine)
    if f.code == "RTL301":
        cause = "a new function object"
    elif f.parameter:
        cause = f"`{f.parameter}`"
    else:
        cause = "what this finding names"
    because = f"; it re-traced {_times(others)} for other reasons" if others else ""
    if seen.calls >= 2 and (f.code != "RTL301" or seen.creations >= 2):
        result.status = NOT_RETRACED
        made = f" ({seen.creations} jit functions made)" if f.code == "RTL301" else ""
        if others:
            how = f"re-traced {_times(others)}, but never because of {cause}"
        else:
            how = "never re-traced"
        result.note = (
            f"{name} ran {_times(seen.calls)}{made} and {how}: "
            "the finding is probably a false positive"
        )
    else:
        result.status = INCONCLUSIVE
        if seen.calls == 0:
            result.note = f"{name} only ran inside other jit functions{because}"
        elif f.code == "RTL301" and seen.creations < 2:
            result.note = f"only one jit function was made here, so nothing could re-trace{because}"
        else:
            result.note = f"{name} ran only once, too few calls to tell{because}"
    return result


def _unpredicted(
    seen: SiteObservation, events: list[dict[str, Any]], count: int, path: str, line: int
) -> Unpredicted:
    meta = seen.meta
    return Unpredicted(
        site_id=seen.site_id,
        path=str(path),
        line=int(line or 0),
        name=str(meta.get("name") or "function"),
        function=str(meta.get("function") or ""),
        retraces=max(count, len(events)),
        calls=seen.calls,
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


def _evidence_lines(events: list[dict[str, Any]]) -> list[str]:
    lines = []
    for ev in events:
        summary = ev.get("evidence") or [ev.get("message", "")]
        lines.extend(f"    {s}" for s in summary)
        where = _stack_line(ev)
        if where:
            lines.append(f"      {where}")
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
            lines.append(f"  the command's jax {obs.unsupported_jax} is too old (needs >= 0.10.2)")
        lines.append("")
    for r in report.results:
        f = r.finding
        lines.append(f"{f.path}:{f.line}:{f.col}: {f.code} {r.status}: {r.note}")
        if r.status == CONFIRMED:
            lines.extend(_evidence_lines(r.evidence))
    for u in report.unpredicted:
        lines.append(
            f"{_rel(u.path)}:{u.line}:1: {UNPREDICTED_CODE} unpredicted re-trace: "
            f"{u.name} re-traced {_times(u.retraces)}"
        )
        lines.extend(_evidence_lines(u.evidence))
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
