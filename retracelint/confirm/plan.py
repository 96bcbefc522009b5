"""From static findings to the plan the instrumented program reads.

A *site* is a place where jit functions are made: the ``def`` of a jitted function (decorator lines
included, because a decorated function's code starts at its first decorator) or a ``jax.jit(...)``
call for lambdas and partials. Several findings can share one site. The child only needs the sites;
the findings stay with the parent, which turns what the child saw into a status per finding.

A finding can reach several sites, or one site by several calls (its ``other_routes``): each
route is a site, the parameter that varies there and the calls of the jitted function on its way
(the last step of its call path). A re-trace confirms a route only when it happened at one of
those calls, so a sibling call's re-trace never confirms a finding about another call.

A plan file (``retracelint confirm --plan FILE``) is JSON: either a list of entries or
``{"findings": [...]}``, each entry ``{finding_id, code, path, line, function}`` where ``path`` and
``line`` locate the jit site, plus optional ``parameter``, ``message``, ``name``, ``wrapper``,
``finding_path`` / ``finding_line`` / ``finding_col`` (where the finding is reported; defaults to
the site), ``calls`` (``[[path, line, end_line], ...]``: the calls on the way to the site) and
``routes`` (more ``{path, line, function, name, wrapper, parameter, calls}``).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from retracelint.model import Finding, JitSite, Location, PathStep, Route

Call = tuple[str, int, int]  # absolute path, first and last line of a call expression


@dataclass(frozen=True)
class PlanSite:
    site_id: str
    path: str  # absolute
    line: int  # as the static pass reported it
    first_line: int  # the lines a function's code or the creating call may start on
    last_line: int
    function: str
    name: str
    wrapper: str = "jax.jit"

    def to_runtime(self) -> dict[str, Any]:
        return {
            "id": self.site_id,
            "path": self.path,
            "line": self.line,
            "first_line": self.first_line,
            "last_line": self.last_line,
            "function": self.function,
            "name": self.name,
            "wrapper": self.wrapper,
        }


@dataclass(frozen=True)
class PlanRoute:
    """One way a finding reaches a site: the parameter that varies there and the call(s) of the
    jitted function on the way (empty: any call)."""

    site_id: str
    parameter: str | None
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class PlannedFinding:
    finding_id: str
    code: str
    site_id: str
    path: str  # where the finding is reported (as the static pass wrote it)
    line: int
    col: int
    message: str
    function: str
    parameter: str | None = None
    finding: Finding | None = field(default=None, compare=False, repr=False)
    routes: tuple[PlanRoute, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        base: dict[str, Any] = self.finding.to_dict() if self.finding is not None else {}
        base.update(
            {
                "finding_id": self.finding_id,
                "code": self.code,
                "path": self.path,
                "line": self.line,
                "col": self.col,
                "message": self.message,
                "function": self.function,
                "parameter": self.parameter,
            }
        )
        return base


@dataclass
class Plan:
    sites: list[PlanSite]
    findings: list[PlannedFinding]

    def site(self, site_id: str) -> PlanSite:
        for site in self.sites:
            if site.site_id == site_id:
                return site
        raise KeyError(site_id)

    def runtime_plan(self, report: str, guard: str) -> dict[str, Any]:
        """What the instrumented process reads (retracelint.confirm.runtime.install)."""
        return {
            "version": 1,
            "report": report,
            "guard": guard,
            "sites": [site.to_runtime() for site in self.sites],
        }

    def to_json(self, root: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
        """The plan-file form (the same that --plan reads); with `root`, paths are written relative
        to it, so that the plan can travel with the sources."""

        def rel(path: str) -> str:
            if root is not None:
                with contextlib.suppress(ValueError):
                    return Path(path).relative_to(Path(root).resolve()).as_posix()
            return path

        def site_entry(site: PlanSite) -> dict[str, Any]:
            return {
                "path": rel(site.path),
                "line": site.line,
                "function": site.function,
                "name": site.name,
                "wrapper": site.wrapper,
            }

        out = []
        for f in self.findings:
            first, *others = f.routes or (PlanRoute(f.site_id, f.parameter),)
            out.append(
                {
                    "finding_id": f.finding_id,
                    "code": f.code,
                    **site_entry(self.site(f.site_id)),
                    "parameter": f.parameter,
                    "message": f.message,
                    "finding_path": f.path,
                    "finding_line": f.line,
                    "finding_col": f.col,
                    "calls": [[rel(p), a, b] for p, a, b in first.calls],
                    "routes": [
                        {
                            **site_entry(self.site(r.site_id)),
                            "parameter": r.parameter,
                            "calls": [[rel(p), a, b] for p, a, b in r.calls],
                        }
                        for r in others
                    ],
                }
            )
        return out


@lru_cache(maxsize=256)
def _parse(path: str) -> ast.Module | None:
    try:
        return ast.parse(Path(path).read_text(encoding="utf-8", errors="replace"), filename=path)
    except (OSError, SyntaxError, ValueError):
        return None


def site_line_range(path: str, line: int) -> tuple[int, int]:
    """The lines on which the code of the jitted function, or the call making it, can start.

    Python gives a decorated function the line of its first decorator (``co_firstlineno``), and a
    call spread over several lines reports the line being executed, so a site is a range."""
    tree = _parse(path)
    if tree is None:
        return line, line
    best: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            starts = [node.lineno, *(d.lineno for d in node.decorator_list)]
            if line in starts:
                return min(starts), node.lineno
        elif isinstance(node, (ast.Call, ast.Lambda)) and node.lineno == line:
            end = node.end_lineno or node.lineno
            if best is None or end > best[1]:
                best = (node.lineno, end)
    return best if best is not None else (line, line)


def def_line(path: str, line: int) -> int:
    """The ``def`` line of a function whose code starts at `line` (its first decorator)."""
    tree = _parse(path)
    if tree is not None:
        for node in ast.walk(tree):
            if (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.decorator_list
                and min(d.lineno for d in node.decorator_list) == line
            ):
                return node.lineno
    return line


def _short_name(function: str) -> str:
    return function.rsplit(".", 1)[-1] if function else "function"


class _Sites:
    """Plan sites by (path, line), numbered as they are first met."""

    def __init__(self) -> None:
        self.by_key: dict[tuple[str, int], PlanSite] = {}

    def get(self, path: str, line: int, function: str, name: str, wrapper: str) -> PlanSite:
        key = (path, line)
        site = self.by_key.get(key)
        if site is None:
            first, last = site_line_range(path, line)
            site = self.by_key[key] = PlanSite(
                site_id=f"S{len(self.by_key) + 1}",
                path=path,
                line=line,
                first_line=first,
                last_line=last,
                function=function,
                name=name or _short_name(function),
                wrapper=wrapper,
            )
        return site


def _calls(steps: tuple[PathStep, ...], base: Path) -> tuple[Call, ...]:
    """The call of the jitted function: the last step of a call path."""
    if not steps:
        return ()
    loc = steps[-1].location
    return ((str((base / loc.path).resolve()), loc.line, max(loc.end_line, loc.line)),)


def build_plan(findings: list[Finding], root: str | os.PathLike[str] | None = None) -> Plan:
    """Group findings by jit site. Findings without a jit site (e.g. RTL000) are left out."""
    base = Path(root) if root is not None else Path.cwd()
    sites = _Sites()
    planned: list[PlannedFinding] = []

    def site_of(jit: JitSite) -> PlanSite:
        path = str((base / jit.location.path).resolve())
        return sites.get(path, jit.location.line, jit.function, jit.name, jit.wrapper)

    for finding in sorted(findings, key=lambda f: f.sort_key):
        if finding.jit_site is None:
            continue
        plan_site = site_of(finding.jit_site)
        routes = [PlanRoute(plan_site.site_id, finding.parameter, _calls(finding.call_path, base))]
        for route in finding.other_routes:
            if route.jit_site is not None:
                routes.append(
                    PlanRoute(
                        site_of(route.jit_site).site_id,
                        route.parameter,
                        _calls(route.call_path, base),
                    )
                )
        loc = finding.location
        planned.append(
            PlannedFinding(
                finding_id=f"F{len(planned) + 1}",
                code=finding.code,
                site_id=plan_site.site_id,
                path=loc.path,
                line=loc.line,
                col=loc.col,
                message=finding.headline(),
                function=finding.jit_site.function,
                parameter=finding.parameter,
                finding=finding,
                routes=tuple(dict.fromkeys(routes)),
            )
        )
    return Plan(sites=list(sites.by_key.values()), findings=planned)


def _json_calls(raw: Any, base: Path) -> tuple[Call, ...]:
    out = []
    for entry in raw or ():
        path, line, *end = entry
        out.append((str((base / str(path)).resolve()), int(line), int(end[0] if end else line)))
    return tuple(out)


def plan_from_json(data: Any, root: str | os.PathLike[str] | None = None) -> Plan:
    """Read the plan-file form (see the module docstring), or the findings that `retracelint check
    --format json` writes (entries with a `jit_site`), which are planned as the static pass would."""
    entries = data.get("findings", []) if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise ValueError("a confirm plan is a list of findings or {'findings': [...]}")
    if entries and all(isinstance(e, dict) and "jit_site" in e for e in entries):
        return build_plan([_finding_from_json(e) for e in entries], root)
    base = Path(root) if root is not None else Path.cwd()
    sites = _Sites()
    planned: list[PlannedFinding] = []

    def site_of(entry: dict[str, Any]) -> PlanSite:
        function = str(entry.get("function") or "")
        return sites.get(
            str((base / str(entry["path"])).resolve()),
            int(entry["line"]),
            function,
            str(entry.get("name") or ""),
            str(entry.get("wrapper") or "jax.jit"),
        )

    for i, entry in enumerate(entries, 1):
        try:
            raw_path, line, code = str(entry["path"]), int(entry["line"]), str(entry["code"])
            plan_site = site_of(entry)
            routes = [
                PlanRoute(
                    plan_site.site_id, entry.get("parameter"), _json_calls(entry.get("calls"), base)
                )
            ]
            for route in entry.get("routes") or ():
                routes.append(
                    PlanRoute(
                        site_of(route).site_id,
                        route.get("parameter"),
                        _json_calls(route.get("calls"), base),
                    )
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"plan entry {i} needs code, path and line: {entry!r}") from exc
        planned.append(
            PlannedFinding(
                finding_id=str(entry.get("finding_id") or f"F{i}"),
                code=code,
                site_id=plan_site.site_id,
                path=str(entry.get("finding_path") or raw_path),
                line=int(entry.get("finding_line") or line),
                col=int(entry.get("finding_col") or 1),
                message=str(entry.get("message") or ""),
                function=plan_site.function,
                parameter=entry.get("parameter"),
                routes=tuple(dict.fromkeys(routes)),
            )
        )
    return Plan(sites=list(sites.by_key.values()), findings=planned)


def _location(raw: dict[str, Any]) -> Location:
    return Location(
        str(raw["path"]),
        int(raw["line"]),
        int(raw.get("col", 1)),
        int(raw.get("end_line", 0)),
        int(raw.get("end_col", 0)),
    )


def _site_from_json(raw: dict[str, Any] | None) -> JitSite | None:
    if raw is None:
        return None
    return JitSite(
        str(raw["function"]),
        str(raw["name"]),
        _location(raw),
        str(raw["wrapper"]),
        tuple(raw.get("static_params") or ()),
    )


def _steps_from_json(raw: list[dict[str, Any]]) -> tuple[PathStep, ...]:
    return tuple(PathStep(str(s["function"]), str(s["call"]), _location(s)) for s in raw or ())


def _finding_from_json(raw: dict[str, Any]) -> Finding:
    """A finding as `check --format json` writes it (``Finding.to_dict``)."""
    try:
        return Finding(
            code=str(raw["code"]),
            message=str(raw.get("message") or ""),
            location=_location(raw),
            severity=str(raw.get("severity") or "error"),
            jit_site=_site_from_json(raw.get("jit_site")),
            parameter=raw.get("parameter"),
            call_path=_steps_from_json(raw.get("call_path")),
            other_routes=tuple(
                Route(
                    _steps_from_json(r.get("call_path")),
                    _site_from_json(r.get("jit_site")),
                    r.get("parameter"),
                )
                for r in raw.get("other_routes") or ()
            ),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a finding of `retracelint check --format json`: {raw!r}") from exc


def load_plan(path: str | os.PathLike[str]) -> Plan:
    with open(path, encoding="utf-8") as fh:
        return plan_from_json(json.load(fh))
