"""The rules: turn the causes found by ``propagate`` into findings with a message a user can act on.

Each rule family is a module of its own, named by its codes, beside its pages in ``rules/``: its
checks, the messages they write and the fixes they carry. This module runs them (``run_checks``) and
keeps one finding per rule and origin.
- ``rtl10x_shapes``: traced parameters whose shape or structure changes (RTL101-RTL105; the summariser
  tags each change with its rule code where it sees the pattern: a slice, an append, a chunk, a mask,
  a constructor);
- ``rtl20x_static_args``: static parameters whose hash or equality changes, or that cannot be hashed
  (RTL201-RTL204);
- ``rtl301_rebuilt_jit``: jit wrappers rebuilt around a fresh function object (RTL301);
- ``rtl302_cleared_caches``: jax.clear_caches() in a step loop that calls a jitted function (RTL302);
- ``rtl40x_call_flips``: one parameter passed two ways by the calls of one jitted function
  (RTL401, RTL402, RTL404);
- ``rtl40x_carried_flips``: what a jitted function gives back against what it was first given
  (RTL401-RTL403);
- ``rtl405_contexts``: one jitted function called under two settings of a trace context (RTL405);
- ``common``: how a finding is made and worded, shared by them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from retracelint.callgraph import JitTarget, Project
from retracelint.checks import (
    rtl10x_shapes,
    rtl20x_static_args,
    rtl40x_call_flips,
    rtl40x_carried_flips,
    rtl301_rebuilt_jit,
    rtl302_cleared_caches,
    rtl405_contexts,
)
from retracelint.checks.common import jit_site, rebuilt_by
from retracelint.evidence import Parsed, Paths, assess, sources_of
from retracelint.model import CONFIDENCES, Finding, Location, PathStep, Route
from retracelint.propagate import Propagation
from retracelint.summary import Arg, FunctionSummary
from retracelint.values import SCALARS

# The rule families (each module's ``CODES`` says which rules it emits), for the catalogue's tests.
FAMILIES = (
    rtl10x_shapes,
    rtl20x_static_args,
    rtl301_rebuilt_jit,
    rtl302_cleared_caches,
    rtl40x_call_flips,
    rtl40x_carried_flips,
    rtl405_contexts,
)
# The checks of the whole project, in the order their findings are weighed: of equally good call paths
# to one finding, ``_dedupe`` shows the first found.
_PROJECT_CHECKS = (
    rtl301_rebuilt_jit.rebuilt_jit_findings,
    rtl302_cleared_caches.cleared_cache_findings,
    rtl40x_call_flips.flip_findings,
    rtl40x_carried_flips.carried_flip_findings,
)


def run_checks(
    project: Project,
    prop: Propagation,
    read_lines: Callable[[str], list[str]],
    parsed: dict[str, Parsed] | None = None,
) -> list[Finding]:
    """Every rule's findings. Each jit call, and each check of the whole project, is one check of
    its own budget (``Propagation.check``): one cut short leaves the others as they are.
    ``parsed``: syntax trees a run before parsed (``evidence.assess``)."""
    findings: list[Finding] = []
    stored: list[Finding] = []  # flips of attributes set by methods (``field_store_flips``)
    sources = sources_of(project, read_lines, parsed)
    prop.paths = Paths(project, prop, sources)
    # Pytrees with static parts are few: most projects have none to look for.
    pytrees = bool(project.symbols.static_field_names())
    for fn, index, target in prop.jit_calls():
        with prop.check(fn.calls[index].location):
            _jit_call_findings(project, prop, fn, index, target, pytrees, findings, stored)
    for whole in _PROJECT_CHECKS:
        with prop.check():
            findings.extend(whole(project, prop))
    # After them: `self.x = f(self.x)` is told by what f returns, a plainer account of one flip.
    findings.extend(stored)
    with prop.check():
        findings.extend(rtl405_contexts.context_findings(project, prop))
    # Each call path weighed on its own, so that a proven one is the one shown.
    return _outermost(_dedupe(assess(project, prop, findings, sources)))


def _jit_call_findings(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    index: int,
    target: JitTarget,
    pytrees: bool,
    findings: list[Finding],
    stored: list[Finding],
) -> None:
    """The findings about the arguments of call ``index`` of ``fn``, a call of the jitted
    ``target``, added to ``findings`` (and ``stored``: flips of attributes set by methods)."""
    binding = project.jit_binding(target)
    if binding is None or not binding.params:
        return
    call = fn.calls[index]
    site = jit_site(binding)
    builder = rebuilt_by(binding.spec)
    step = PathStep(fn.qualname, call.text, call.location)

    def statics(
        arg: Arg, param: str, fields: bool = False, a_length: bool = False
    ) -> list[Finding]:
        # The call's static arguments (or a pytree's static parts, with ``fields``), each told
        # where its value is made (``static_findings``).
        return list(
            rtl20x_static_args.static_findings(
                project,
                prop,
                fn,
                arg,
                call.loops,
                step,
                site,
                param,
                fields=fields,
                builder=builder,
                a_length=a_length,
            )
        )

    receiver = call.receiver
    if binding.offset and receiver is not None:
        # A jitted method: the object it is called on is its self, static or a traced pytree.
        self_static = binding.static_at(call, binding.params[0].name)
        if self_static or pytrees:
            findings.extend(statics(receiver, binding.params[0].name, fields=not self_static))
    traced: list[tuple[Arg, str]] = []
    for param in binding.params[binding.offset :]:
        if param.kind in ("vararg", "kwarg"):
            continue
        arg = binding.signature.arg(call, param.name)
        if arg is None:
            continue
        static = binding.static_at(call, param.name) or (
            binding.spec.nonarray_static and arg.value.ty in SCALARS
        )
        if static:
            findings.extend(statics(arg, param.name, a_length=param.name in binding.spec.lengths))
            continue
        traced.append((arg, param.name))
        stored.extend(
            rtl40x_carried_flips.field_store_flips(prop, fn, arg, call, step, site, param.name)
        )
        if pytrees:
            findings.extend(statics(arg, param.name, fields=True))
    # Told together: the chunks of several arguments that one loop makes short are one finding.
    findings.extend(
        rtl10x_shapes.traced_findings(prop, fn, traced, call.loops, step, site, call.text, builder)
    )


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per rule and origin (the line to change): the shortest call path is shown, and the
    others are kept as its ``other_routes`` (``--output-format full`` counts them)."""
    groups: dict[tuple[str, Location], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.code, finding.location), []).append(finding)
    out = []
    for group in groups.values():
        group.sort(key=_best_first)
        best = group[0]
        routes: dict[tuple, Route] = {}
        for other in group[1:]:
            route = Route(other.call_path, other.jit_site, other.parameter)
            if (route.call_path, route.jit_site) != (best.call_path, best.jit_site):
                routes.setdefault((route.call_path, route.jit_site), route)
        if routes:
            # In a fixed order: the order the checks found them in may follow a set's.
            ordered = sorted(routes.values(), key=_route_order)
            best = replace(best, other_routes=tuple(ordered))
        out.append(best)
    return sorted(out, key=lambda f: f.sort_key)


def _outermost(findings: list[Finding]) -> list[Finding]:
    """Without the findings each of whose call paths passes through a call of a jitted function
    that is reported itself, at least as surely: what the jitted function calls is traced only while
    it traces, so its re-traces are that call's (a static ``self.stats`` new because the enclosing
    jitted method's static ``self`` is new), one re-trace told once, at the outer call."""
    # A reported call of a jitted function, by the call's place and the function entered there.
    reported = {
        (f.call_path[-1].location, f.jit_site.function): CONFIDENCES.index(f.confidence)
        for f in findings
        if f.jit_site is not None and f.call_path
    }

    def inside(path: tuple[PathStep, ...], rank: int) -> bool:
        return any(
            reported.get((step.location, after.function), len(CONFIDENCES)) <= rank
            for step, after in pairwise(path)
        )

    return [
        f
        for f in findings
        if not all(
            inside(path, CONFIDENCES.index(f.confidence))
            for path in (f.call_path, *(r.call_path for r in f.other_routes))
        )
    ]


def _best_first(finding: Finding) -> tuple[int, int, list[Location], str]:
    """A proven path first, then the shortest; of equal lengths, the one whose calls the source shows
    first (not the first found, which may follow a set's order), then by its message (two accounts
    of one flip by one path: BOBE's "starts as None" and "is None in one branch", found in either
    order). A sort by it is stable: of one path and message, the first found wins (the first
    parameter of the jitted function)."""
    return (
        CONFIDENCES.index(finding.confidence),
        len(finding.call_path),
        [s.location for s in finding.call_path],
        finding.message,
    )


def _route_order(route: Route) -> tuple[int, list[Location], str]:
    """Shortest first, then as the source shows the calls, then by the jit site."""
    site = route.jit_site
    return (
        len(route.call_path),
        [s.location for s in route.call_path],
        "" if site is None else f"{site.function} {site.location}",
    )
