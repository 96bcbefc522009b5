"""The rules: turn the causes found by ``propagate`` into findings with a message a user can act on.

Three families, each a small function over the jit call sites:
- traced parameters whose shape or structure changes (RTL101-RTL105; the summariser tags each change
  with its rule code where it sees the pattern: a slice, an append, a chunk, a mask, a constructor);
- static parameters whose hash or equality changes, or that cannot be hashed (RTL201-RTL204);
- jit wrappers rebuilt around a fresh function object (RTL301).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from retracelint.callgraph import ClassTarget, JitBinding, JitTarget, Project, bind_arg
from retracelint.model import Finding, JitSite, Location, PathStep, Route
from retracelint.objects import attribute_of
from retracelint.propagate import Candidate, Cause, Driver, Propagation
from retracelint.rules import rule
from retracelint.summary import Arg, CallSite, FunctionSummary
from retracelint.values import (
    ARRAY,
    DICT,
    FLIP_KINDS,
    FLOAT,
    FLOAT_LIKE,
    FUNCTION,
    INSTANCE,
    JIT,
    LAMBDA,
    LIST,
    NP_ARRAY,
    PARTIAL,
    SCALARS,
    SET,
    TRANSFORM,
    TUPLE,
    CallSrc,
    Value,
    kinds_differ,
)

# A loop over at most this many values spelled out in the source adds a few traces, not one per step.
FEW_ITERATIONS = 16
_VERB = {
    "RTL101": "changes shape",
    "RTL102": "grows",
    "RTL103": "can be shorter",
    "RTL104": "has a data-dependent shape that changes",
    "RTL105": "changes shape",
    "RTL401": "after",
    "RTL402": "after",
    "RTL403": "after",
}
_CONSEQUENCE = {
    "RTL101": "each new length re-traces and re-compiles",
    "RTL102": "each new length re-traces and re-compiles",
    "RTL103": "the short last batch re-traces and re-compiles",
    "RTL104": "each new size re-traces and re-compiles",
    "RTL105": "each new size re-traces and re-compiles",
    "RTL401": "its first value and the later ones are two cache entries: two traces and compiles",
    "RTL402": "its first value and the later ones are two cache entries: two traces and compiles",
    "RTL403": "its first value and the later ones are two cache entries: two traces and compiles",
}

_UNHASHABLE_NAMES = {
    LIST: "a list",
    DICT: "a dict",
    SET: "a set",
    ARRAY: "a jax array",
    NP_ARRAY: "a numpy array",
}
_IDENTITY_NAMES = {
    LAMBDA: "a lambda",
    PARTIAL: "a functools.partial",
    TRANSFORM: "a transformed function",
    FUNCTION: "a nested function",
    JIT: "a jitted function",
}
# What to do about a static part of a pytree that changes: it is no argument the user can make traced.
_STATIC_FIELD_FIX = (
    "make it a leaf of the pytree (not aux data or a static field), or give it the same value (the"
    " same object) at every call"
)


def run_checks(project: Project, prop: Propagation) -> list[Finding]:
    findings: list[Finding] = []
    # Pytrees with static parts are few: most projects have none to look for.
    pytrees = any(project.static_fields(cls) for cls in project.classes)
    for fn, index, target in prop.jit_calls():
        binding = project.jit_binding(target)
        if binding is None or not binding.params:
            continue
        call = fn.calls[index]
        site = jit_site(binding, target)
        step = PathStep(fn.qualname, call.text, call.location)
        receiver = call.receiver
        if (
            binding.offset
            and receiver is not None
            and binding.static_at(call, binding.params[0].name)
        ):
            # A jitted method with a static self: the object it is called on is the static argument.
            findings.extend(
                static_findings(
                    project, prop, fn, receiver, call.loops, step, site, binding.params[0].name
                )
            )
        for param in binding.params[binding.offset :]:
            if param.kind in ("vararg", "kwarg"):
                continue
            arg = bind_arg(call, binding.params, binding.offset, param.name)
            if arg is None:
                continue
            static = binding.static_at(call, param.name) or (
                binding.spec.nonarray_static and arg.value.ty in SCALARS
            )
            if static:
                found = static_findings(project, prop, fn, arg, call.loops, step, site, param.name)
            else:
                found = traced_findings(
                    prop, fn, arg, call.loops, step, site, param.name, call.text
                )
                if pytrees:
                    findings.extend(
                        static_field_findings(
                            project, prop, fn, arg, call.loops, step, site, param.name
                        )
                    )
            findings.extend(found)
    findings.extend(rebuilt_jit_findings(project, prop))
    findings.extend(flip_findings(project, prop))
    return _dedupe(findings)


def jit_site(binding: JitBinding, target: JitTarget) -> JitSite:
    spec = binding.spec
    wrapped = binding.wrapped
    if wrapped is not None:
        return JitSite(
            wrapped.qualname,
            wrapped.name,
            wrapped.location,
            spec.wrapper,
            tuple(sorted(binding.static)),
        )
    name = f"{spec.function}.<{spec.target_text or 'jit'}>"
    return JitSite(
        name, spec.target_text, spec.location, spec.wrapper, tuple(sorted(binding.static))
    )


# -- traced parameters ----------------------------------------------------------------------------
def traced_findings(
    prop: Propagation,
    fn: FunctionSummary,
    arg: Arg,
    loops: tuple[int, ...],
    step: PathStep,
    site: JitSite,
    param: str,
    called_as: str,
) -> Iterator[Finding]:
    for cause in prop.shape_causes(fn, arg.value, loops):
        taint = cause.taint
        if taint is None:
            continue
        path = (*cause.path, step)
        code = taint.code
        text = (
            f"{taint.what} {_VERB.get(code, 'changes shape')} {cause.driver.text}"
            f"{_origin_note(taint.origin, cause.driver.location)}"
            f" and reaches traced parameter '{param}' of jitted '{_jit_name(site, called_as)}'"
            f" ({_where(site.location)}){_via(path)}; {_CONSEQUENCE.get(code, 're-traces')}"
        )
        yield _finding(code, text, taint.origin, site, param, path, cause.driver)


# -- static parameters ----------------------------------------------------------------------------
def static_findings(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    arg: Arg,
    loops: tuple[int, ...],
    step: PathStep,
    site: JitSite,
    param: str,
) -> Iterator[Finding]:
    subject = f"static parameter '{param}' of jitted '{site.name}' ({_where(site.location)})"
    candidates = prop.static_candidates(fn, arg, loops, (step,))
    yield from _static_value_findings(project, prop, candidates, subject, site, param)


def static_field_findings(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    arg: Arg,
    loops: tuple[int, ...],
    step: PathStep,
    site: JitSite,
    param: str,
) -> Iterator[Finding]:
    """A traced argument that is a custom pytree keeps some of its attributes in its treedef (aux
    data, static dataclass fields): jit's cache key holds them as it holds a static argument. Each is
    checked where its value is made (the constructor's argument, what ``__init__`` computes)."""
    value = prop.resolve(fn, arg.value)
    for cls in sorted(prop.classes_of_value(fn, value)):
        for attr in project.static_fields(cls):
            subject = (
                f"static field '{attr}' of {project.classes[cls].name} (part of its pytree's"
                f" treedef) in traced parameter '{param}' of jitted '{site.name}'"
                f" ({_where(site.location)})"
            )
            field = Arg(attribute_of(value, attr), arg.location, f"{arg.text}.{attr}")
            candidates = prop.field_candidates(fn, field, loops, (step,))
            yield from _static_value_findings(
                project, prop, candidates, subject, site, param, _STATIC_FIELD_FIX
            )


def _static_value_findings(
    project: Project,
    prop: Propagation,
    candidates: list[Candidate],
    subject: str,
    site: JitSite,
    param: str,
    fix: str = "",
) -> Iterator[Finding]:
    """The static value ``subject`` names, made at each of ``candidates``: unhashable (RTL203), a
    new object hashed by identity (RTL204), a value that changes (RTL202 for floats, RTL201). The
    finding of a static argument is told at the outermost argument that carries the change; that of
    a static field where its value is made (``fix`` given)."""
    for caller, origin, origin_loops, path in candidates:
        value = prop.concrete(caller, prop.resolve(caller, origin.value))
        # jax compares a pytree's metadata by equality (a list or a dict will do), not an array's.
        unhashable = (
            (_UNHASHABLE_NAMES.get(value.ty) if value.ty in (ARRAY, NP_ARRAY) else None)
            if fix
            else _unhashable(project, caller, value)
        )
        if unhashable:
            error = (
                "jax raises ValueError when it compares the pytree's metadata (arrays cannot be"
                " metadata fields)"
                if fix
                else "jax raises ValueError: Non-hashable static arguments at call time"
            )
            yield _finding(
                "RTL203",
                f"{subject} receives {unhashable} ({origin.text}){_via(path)}; {error}",
                origin.location,
                site,
                param,
                path,
                fix=fix,
            )
            continue
        identity = _identity_hashed(project, caller, value)
        fresh = (
            (
                f"{identity} ({origin.text})",
                next(prop.fresh_causes(caller, value, origin_loops), None),
            )
            if identity
            else _fresh_part(
                project, prop, caller, Arg(value, origin.location, origin.text), origin_loops
            )
        )
        if fresh is not None:
            what, cause = fresh
            if cause is not None:
                yield _finding(
                    "RTL204",
                    f"{subject} receives {what} made anew {cause.driver.text}"
                    f"{_via((*cause.path, *path))}; it is hashed by identity, so every new object"
                    " re-traces and re-compiles",
                    origin.location,
                    site,
                    param,
                    (*cause.path, *path),
                    cause.driver,
                    fix=fix,
                )
            continue
        # Values from a loop over the axes of an array repeat: each compiles once, then hits.
        causes = (c for c in prop.value_causes(caller, value, origin_loops) if not c.driver.bounded)
        cause = next(causes, None)
        if cause is None:
            continue
        full_path = (*cause.path, *path)
        reported = origin if fix else cause.arg or origin
        if value.ty in (FLOAT, FLOAT_LIKE):
            text = (
                f"{subject} receives the float {origin.text}, which changes"
                f" {cause.driver.text}{_via(full_path)}; every new float value re-traces and"
                " re-compiles (and nan never matches)"
            )
            code = "RTL202"
        else:
            text = (
                f"{subject} receives {origin.text}, which changes"
                f" {cause.driver.text}{_via(full_path)}; each new value re-traces and re-compiles"
            )
            code = "RTL201"
        yield _finding(code, text, reported.location, site, param, full_path, cause.driver, fix)


def _fresh_part(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    container: Arg,
    loops: tuple[int, ...],
) -> tuple[str, Cause | None] | None:
    """A tuple, a NamedTuple or a frozen dataclass hashes its items: one that holds an object hashed
    by identity made anew (a lambda, a nested def, a jitted function) is as new as that object."""
    value = container.value
    parts: list[tuple[str, list[Candidate]]] = [
        (f"a tuple whose item {i} is", [(fn, Arg(item, container.location, ""), loops, ())])
        for i, item in enumerate(value.items)
        if value.ty == TUPLE
    ]
    for cls in sorted(prop.classes_of_value(fn, value)):
        if not project.classes[cls].value_hashed:
            continue
        name = project.classes[cls].name
        for attr in project.init_fields(cls):
            field = Arg(attribute_of(value, attr), container.location, attr)
            parts.append(
                (f"a {name} whose field '{attr}' is", prop.field_candidates(fn, field, loops, ()))
            )
    for what, candidates in parts:
        for owner, part, loops, path in candidates:
            identity = _identity_hashed(project, owner, part.value)
            if identity is None:
                continue
            cause = next(prop.fresh_causes(owner, part.value, loops), None)
            if cause is not None:
                described = f"{container.text}, {what} {identity}"
                return described, replace(cause, path=(*cause.path, *path))
    return None


def _finding(
    code: str,
    text: str,
    location: Location,
    site: JitSite,
    param: str | None,
    path: tuple[PathStep, ...],
    driver: Driver | None = None,
    fix: str = "",
) -> Finding:
    """A finding of rule ``code``: what happens (``text``), then the fix (by default, the rule's). Its
    severity is the rule's, or a warning when ``driver`` is a loop over a few values spelled out in the
    source: that costs a few traces, not one per step."""
    fix = fix or rule(code).fix
    few = driver is not None and driver.count is not None and driver.count <= FEW_ITERATIONS
    return Finding(
        code=code,
        message=f"{text}; {fix}",
        location=location,
        severity="warning" if few else rule(code).severity,
        jit_site=site,
        parameter=param,
        call_path=path,
        fix=fix,
    )


def _class_of(project: Project, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty != INSTANCE or not value.ref or value.ref.startswith("<") or value.param:
        return None
    if value.ref in project.classes:
        return value.ref
    target = project.resolve_name(project.owner[fn.qualname], value.ref)
    return target.qualname if isinstance(target, ClassTarget) else None


def _unhashable(project: Project, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty in _UNHASHABLE_NAMES:
        return _UNHASHABLE_NAMES[value.ty]
    cls = _class_of(project, fn, value)
    if cls is not None and project.classes[cls].unhashable:
        return f"a {project.classes[cls].name} instance (a mutable dataclass has no __hash__)"
    return None


def _identity_hashed(project: Project, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty in _IDENTITY_NAMES:
        return _IDENTITY_NAMES[value.ty]
    cls = _class_of(project, fn, value)
    if cls is None:
        return None
    chain = project.mro(cls)
    known = all(
        project.resolve_base(project.owner[c], b) is not None or b in ("object",)
        for c in chain
        for b in project.classes[c].bases
    )
    if known and not any(project.classes[c].value_hashed for c in chain):
        return f"a new {project.classes[cls].name} instance"
    return None


# -- jit rebuilt around a fresh function ------------------------------------------------------------
def rebuilt_jit_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    for target in project.all_jits():
        spec = project.jit_spec(target)
        if spec.fresh is None:
            continue
        if spec.function not in project.functions:
            continue
        # lax control flow is mostly used under jit: it is taken to run outside jit only where a
        # script or a test runs it and no jit of the project ever reaches it (a library's function
        # may run under its users' jit).
        if spec.traces_on_call and (
            not prop.frequency.run_by_scripts(spec.function)
            or prop.frequency.ever_traced(spec.function)
        ):
            continue
        binding = project.jit_binding(target)
        assert binding is not None  # every jit site has a binding, if only an empty one
        if spec.fresh_if_bound and not _method_of_instance(binding):
            continue  # `jax.jit(pipeline.step)` of a parameter that holds a module
        owner = project.function(spec.function)
        calls = [c for c in owner.calls if c.callee == ("jit", "", str(spec.index))]
        fresh = Value(fresh=spec.fresh_sources)
        # The wrapper is rebuilt as often as its function object is new, and matters where it is
        # called; a lax primitive traces where it is called itself.
        uses = [spec.loops] if spec.traces_on_call else [call.loops for call in calls]
        cause = next((c for loops in uses for c in prop.fresh_causes(owner, fresh, loops)), None)
        if cause is None and CallSrc() in spec.fresh_sources and not owner.memoised:
            cause = _escaped_from_repeated(project, prop, owner, spec.index)
        if cause is None:
            continue
        code = "RTL301"
        if spec.traces_on_call:
            text = (
                f"{spec.wrapper}(...) called outside jit traces {spec.target_text}, a fresh"
                f" {spec.fresh} {cause.driver.text}; it caches traces by function object, so every"
                " call re-traces"
            )
        else:
            what = (
                f"@{spec.wrapper} on the nested def {spec.target_text}"
                if spec.decorated
                else f"{spec.wrapper}({spec.target_text})"
            )
            text = (
                f"{what} makes a new jitted function from a fresh {spec.fresh}"
                f" {cause.driver.text}; a new function object starts with an empty cache, so every"
                " call re-traces and re-compiles"
            )
        site = jit_site(binding, target)
        path = tuple(PathStep(owner.qualname, c.text, c.location) for c in calls[:1]) or cause.path
        yield _finding(code, text, spec.location, site, None, path, cause.driver)


def _method_of_instance(binding: JitBinding) -> bool:
    """Whether a jit wraps a method read off an instance (a new bound method per read)."""
    wrapped = binding.wrapped
    return (
        wrapped is not None
        and wrapped.kind == "method"
        and len(binding.params) < len(wrapped.params)
    )


def _escaped_from_repeated(
    project: Project, prop: Propagation, maker: FunctionSummary, site: int
) -> Cause | None:
    """A jitted function made anew by each call of ``maker`` and handed out (returned, alone or in a
    tuple; stored on ``self``; given to a transform), where ``maker`` runs repeatedly: every one of them
    traces anew. A maker that runs once per program (or is memoised) is the right way to build a jitted
    function with settings baked in."""
    if not _escapes(project, maker, site):
        return None
    driver = prop.repeated(maker.qualname)
    return Cause(None, driver) if driver is not None else None


def _escapes(project: Project, maker: FunctionSummary, site: int) -> bool:
    if maker.returns is not None and _holds_site(maker.returns, site):
        return True
    if ("jit", "", str(site)) in maker.traces:
        return True
    cls = project.classes.get(maker.cls) if maker.cls else None
    return cls is not None and site in cls.jit_attrs.values()


def _holds_site(value: Value, site: int) -> bool:
    return value.site == site or any(_holds_site(item, site) for item in value.items)


# -- one parameter, two signatures ------------------------------------------------------------------
# Two calls of the same jitted function that pass one parameter differently compile twice: a Python
# scalar is weakly typed and an array is not, dtypes are part of the key, and so is the pytree
# structure; an argument passed by position is a different key from the same argument passed by keyword.
# The calls are compared across the whole project (one jitted function object, one cache), except the
# pytree structure, compared within one function body only: `None` here and an array there, from two
# functions, is most often an optional argument used on purpose. Each is a warning: one extra trace.


_ACROSS_FUNCTIONS = frozenset({"RTL401", "RTL402"})  # the kinds compared across function bodies
# (calling function, call, binding, argument, passed by keyword)
_JitArg = tuple[FunctionSummary, CallSite, JitBinding, Arg, bool]


def flip_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    groups: dict[tuple[str, int, str], list[_JitArg]] = {}
    for fn, index, target in prop.jit_calls():
        binding = project.jit_binding(target)
        # Two signatures met while an enclosing jit traces cost two traces per trace of it, which
        # only a re-trace of the enclosing function repeats (reported at its own call).
        if binding is None or prop.frequency.traced(fn.qualname):
            continue
        call = fn.calls[index]
        for param in binding.params[binding.offset :]:
            arg = bind_arg(call, binding.params, binding.offset, param.name)
            if arg is not None:
                by_keyword = any(key == param.name for key, _ in call.kwargs)
                key = (target.module, target.index, param.name)
                groups.setdefault(key, []).append((fn, call, binding, arg, by_keyword))
    for (_, _, param), calls in groups.items():
        calls.sort(key=lambda c: c[3].location)
        by_function: dict[str, list[_JitArg]] = {}
        for call in calls:
            by_function.setdefault(call[0].qualname, []).append(call)
        # Two calls in one body flip for sure whenever the body runs; calls from several functions
        # are compared only when no body holds a flip of its own.
        within = [f for same in by_function.values() for f in _flips(prop, same, param, True)]
        yield from within or _flips(prop, calls, param, False)


def _flips(
    prop: Propagation, calls: list[_JitArg], param: str, one_body: bool
) -> Iterator[Finding]:
    """The first call of ``calls`` that passes ``param`` differently from the first one: by keyword vs
    by position, else a weak type, a dtype or (in one body) a pytree structure of its own."""
    if len(calls) < 2:
        return
    binding = calls[0][2]
    site = jit_site(binding, JitTarget("", 0, False))
    keyword = list(_keyword_flip(prop, calls, site, param, one_body))
    yield from keyword
    if keyword or any(_static(c, param) for c in calls):
        return
    for code, kind_of, what in FLIP_KINDS:
        if not (one_body or code in _ACROSS_FUNCTIONS) or (
            code == "RTL401" and binding.spec.nonarray_static
        ):
            continue  # under filter_jit a Python scalar is static and an array traced
        found = _first_flip(
            prop,
            calls,
            lambda c, kind_of=kind_of: kind_of(prop.resolve(c[0], c[3].value)),
            one_body,
        )
        if found is not None:
            (fn, call, arg, now), (first, before) = found
            yield _flip_finding(code, what, site, param, arg, fn, call, first, before, now)
            return  # one flip per parameter: the weak-type flip explains a dtype flip too


def _first_flip(
    prop: Propagation,
    calls: list[_JitArg],
    kind_of: Callable[[_JitArg], str | None],
    one_body: bool,
) -> tuple[tuple[FunctionSummary, CallSite, Arg, str], tuple[Arg, str]] | None:
    """The first call whose kind differs from an earlier call's, with that argument and kind. Calls
    from different bodies count only when an entry point reaches both: two tests, or two public
    functions of a library, may never run in one process."""
    earlier: list[tuple[FunctionSummary, Arg, str]] = []
    for jit_arg in calls:
        fn, call, _, arg, _ = jit_arg
        kind = kind_of(jit_arg)
        if kind is None:
            continue
        for other, first, before in earlier:
            if kinds_differ(kind, before) and (one_body or _run_together(prop, fn, other)):
                return (fn, call, arg, kind), (first, before)
        earlier.append((fn, arg, kind))
    return None


def _run_together(prop: Propagation, a: FunctionSummary, b: FunctionSummary) -> bool:
    entries = prop.frequency.entries
    return a is b or bool(entries(a.qualname) & entries(b.qualname))


def _static(jit_arg: _JitArg, param: str) -> bool:
    """Whether this call passes ``param`` static: that depends on how it passes it."""
    _, call, binding, _, _ = jit_arg
    return binding.static_at(call, param)


def _keyword_flip(
    prop: Propagation, calls: list[_JitArg], site: JitSite, param: str, one_body: bool
) -> Iterator[Finding]:
    # A static value that changes between the calls re-traces anyway (RTL201/RTL202 say so): how it
    # is passed matters where it is the same.
    calls = [c for c in calls if not (_static(c, param) and c[3].value.vsrc)]
    found = _first_flip(prop, calls, lambda c: "by keyword" if c[4] else "by position", one_body)
    if found is None:
        return
    (fn, call, arg, style), (first, other) = found
    here, there = (next(_static(c, param) for c in calls if c[3] is a) for a in (arg, first))
    step = PathStep(fn.qualname, call.text, call.location)
    if here == there:
        text = (
            f"{'static' if here else 'traced'} parameter '{param}' of jitted '{site.name}'"
            f" ({_where(site.location)}) is passed {style} here and {other} at"
            f" {_where(first.location)}; jax keys its cache on how arguments are passed, so this"
            " call compiles again"
        )
        yield _finding("RTL404", text, arg.location, site, param, (step,))
        return
    text = (
        f"parameter '{param}' of jitted '{site.name}' ({_where(site.location)}) is"
        f" {'static' if here else 'traced'} passed {style} here and {'static' if there else 'traced'}"
        f" passed {other} at {_where(first.location)}: static_argnums and static_argnames each name"
        " it only one way, so the two calls are different cache entries and this one compiles again"
    )
    yield _finding("RTL404", text, arg.location, site, param, (step,), fix=_BOTH_WAYS)


# Passing the argument the other way would change what it is, so this hint comes with no --fix.
_BOTH_WAYS = (
    "pass it the same way at every call, and name it in both static_argnums and static_argnames if"
    " it is meant to be static (jax fills in one from the other only when the other is not given)"
)


def _flip_finding(
    code: str,
    what: str,
    site: JitSite,
    param: str,
    arg: Arg,
    fn: FunctionSummary,
    call: CallSite,
    first: Arg,
    before: str,
    now: str,
) -> Finding:
    text = (
        f"traced parameter '{param}' of jitted '{site.name}' ({_where(site.location)}) gets {now}"
        f" ({arg.text}) here but {before} ({first.text}) at {_where(first.location)}; a different"
        f" {what} is a different cache entry, so the function traces and compiles twice"
    )
    step = PathStep(fn.qualname, call.text, call.location)
    return _finding(code, text, arg.location, site, param, (step,))


# -- message helpers --------------------------------------------------------------------------------
def _via(path: tuple[PathStep, ...]) -> str:
    """The functions called between the varying value and the jit call: ``via run_epoch() -> step()``."""
    middle = [f"{step.call}()" for step in path[:-1]]
    return f" via {' -> '.join(middle)}" if middle else ""


def _origin_note(origin: Location, driver: Location) -> str:
    return "" if origin.path == driver.path else f" (made at {_where(origin)})"


def _jit_name(site: JitSite, called_as: str) -> str:
    return site.name or called_as


def _where(location: Location) -> str:
    return f"{location.path}:{location.line}"


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per rule and origin (the line to change): the shortest call path is shown, and the
    others are kept as its ``other_routes`` and counted in the message."""
    groups: dict[tuple[str, Location], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.code, finding.location), []).append(finding)
    out = []
    for group in groups.values():
        group.sort(key=lambda f: len(f.call_path))  # stable: the first found wins a tie
        best = group[0]
        routes: dict[tuple, Route] = {}
        for other in group[1:]:
            route = Route(other.call_path, other.jit_site, other.parameter)
            if (route.call_path, route.jit_site) != (best.call_path, best.jit_site):
                routes.setdefault((route.call_path, route.jit_site), route)
        if routes:
            best = replace(
                best,
                message=_more_paths(best, len(routes)),
                other_routes=tuple(routes.values()),
            )
        out.append(best)
    return sorted(out, key=lambda f: f.sort_key)


def _more_paths(finding: Finding, count: int) -> str:
    """The message with ``(and N more call paths)`` before the fix hint that ends it."""
    text = finding.message.removesuffix(f"; {finding.fix}")
    more = f" (and {count} more call path{'s' if count > 1 else ''})"
    return f"{text}{more}; {finding.fix}" if text != finding.message else f"{text}{more}"
