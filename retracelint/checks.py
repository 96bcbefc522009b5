"""The rules: turn the causes found by ``propagate`` into findings with a message a user can act on.

The families, each a small function over the jit call sites:
- traced parameters whose shape or structure changes (RTL101-RTL105; the summariser tags each change
  with its rule code where it sees the pattern: a slice, an append, a chunk, a mask, a constructor);
- static parameters whose hash or equality changes, or that cannot be hashed (RTL201-RTL204);
- jit wrappers rebuilt around a fresh function object (RTL301);
- jax.clear_caches() in a step loop that calls a jitted function (RTL302).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from retracelint.callgraph import ClassTarget, FuncTarget, JitBinding, JitTarget, Project, bind_arg
from retracelint.evidence import assess
from retracelint.jitspec import TRACE_CONTEXTS
from retracelint.model import CONFIDENCES, Finding, JitSite, Location, PathStep, Route
from retracelint.objects import Origin, _is_read, _literal, _self_path, attribute_of, written_out
from retracelint.propagate import MAX_FRAMES, Candidate, Cause, Driver, Propagation
from retracelint.returned import returned_dtype
from retracelint.rules import rule
from retracelint.summary import Arg, CallSite, Carried, FunctionSummary, JitSpec, TraceContext
from retracelint.values import (
    ARRAY,
    BOUNDED_QUEUE,
    CHOSEN_ANEW,
    DICT,
    FLIP_KINDS,
    FLOAT,
    FLOAT_LIKE,
    FOLLOWS,
    FUNCTION,
    INSTANCE,
    INT,
    JIT,
    JIT_OUT,
    JIT_OUT_WEAK,
    LAMBDA,
    LIST,
    MADE_ANEW,
    MADE_STRONG,
    NONE,
    NP_ARRAY,
    NP_SCALAR,
    NUMPY_DATA,
    PARTIAL,
    SCALARS,
    SET,
    STRONG,
    TRANSFORM,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    WEAK,
    CallSrc,
    ChoiceSrc,
    Dep,
    FieldDep,
    FieldSrc,
    IterDep,
    LoopSrc,
    Made,
    Obj,
    ParamDep,
    ParamSrc,
    RetDep,
    Src,
    Value,
    canonical_dtype,
    dtype_kind,
    items_of,
    kinds_differ,
    made_anew,
    read_field,
    weak_class,
    weak_kind,
)
from retracelint.weak import WeakKinds, WeakOrigin

# How each shape rule's value changes; a flip's taint says from what kind to what ("level starts as
# ... and is ..."), the driver when.
_CHANGE = {
    "RTL101": "changes shape",
    "RTL102": "grows",
    "RTL104": "changes size",
    "RTL105": "changes shape",
    "RTL401": "after",
    "RTL402": "after",
    "RTL403": "after",
}
# What differs between the traces of a flip.
_FLIPPED = {"RTL401": "weak type", "RTL402": "dtype", "RTL403": "pytree structure"}


@dataclass(frozen=True)
class _Fix:
    """How to fix a finding: a few words that end its headline, and the whole advice."""

    short: str
    full: str


def _rule_fix(code: str) -> _Fix:
    found = rule(code)
    return _Fix(found.hint, found.fix)


# The fix of a pytree that holds a function made anew (``_FRESH_TREES``, a tree_util.Partial).
_MADE_ANEW_FIX = _Fix(
    "make the function once, outside the loop",
    "make the function once, outside the loop, and pass what changes as arrays (call a transform"
    " such as jax.vjp inside the jitted function instead)",
)

_UNHASHABLE_NAMES = {
    LIST: "a list",
    DICT: "a dict",
    SET: "a set",
    ARRAY: "a jax array",
    NP_ARRAY: "a numpy array",
    BOUNDED_QUEUE: "a deque",
}
_IDENTITY_NAMES = {
    LAMBDA: "a lambda",
    PARTIAL: "a functools.partial",
    TRANSFORM: "a transformed function",
    FUNCTION: "a nested function",
    JIT: "a jitted function",
}
# What to do about a static part of a pytree that changes: it is no argument the user can make traced.
_STATIC_FIELD_FIX = _Fix(
    "make it a pytree leaf",
    "make it a leaf of the pytree (not aux data or a static field), or give it the same value (the"
    " same object) at every call",
)


def run_checks(
    project: Project, prop: Propagation, read_lines: Callable[[str], list[str]]
) -> list[Finding]:
    """Every rule's findings. Each jit call, and each check of the whole project, is one check of
    its own budget (``Propagation.check``): one cut short leaves the others as they are."""
    findings: list[Finding] = []
    stored: list[Finding] = []  # flips of attributes set by methods (``field_store_flips``)
    # Pytrees with static parts are few: most projects have none to look for.
    pytrees = any(project.static_fields(cls) for cls in project.classes)
    for fn, index, target in prop.jit_calls():
        with prop.check(fn.calls[index].location):
            _jit_call_findings(project, prop, fn, index, target, pytrees, findings, stored)
    for whole in (
        rebuilt_jit_findings,
        cleared_cache_findings,
        flip_findings,
        carried_flip_findings,
    ):
        with prop.check():
            findings.extend(whole(project, prop))
    # After them: `self.x = f(self.x)` is told by what f returns, a plainer account of one flip.
    findings.extend(stored)
    with prop.check():
        findings.extend(context_findings(project, prop))
    # Each call path weighed on its own, so that a proven one is the one shown.
    return _dedupe(assess(project, prop, findings, read_lines))


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
    step = PathStep(fn.qualname, call.text, call.location)
    receiver = call.receiver
    if binding.offset and receiver is not None:
        # A jitted method: the object it is called on is its self, static or a traced pytree.
        self_static = binding.static_at(call, binding.params[0].name)
        if self_static or pytrees:
            findings.extend(
                static_findings(
                    project,
                    prop,
                    fn,
                    receiver,
                    call.loops,
                    step,
                    site,
                    binding.params[0].name,
                    fields=not self_static,
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
            found = traced_findings(prop, fn, arg, call.loops, step, site, param.name, call.text)
            stored.extend(field_store_flips(prop, fn, arg, call, step, site, param.name))
            if pytrees:
                findings.extend(
                    static_findings(
                        project, prop, fn, arg, call.loops, step, site, param.name, fields=True
                    )
                )
        findings.extend(found)


def jit_site(binding: JitBinding) -> JitSite:
    spec = binding.spec
    wrapped = binding.wrapped
    if wrapped is not None and not wrapped.name.startswith("<lambda"):
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
        verb = _CHANGE.get(code, "changes shape")
        if taint.what.endswith((CHOSEN_ANEW, MADE_ANEW)):
            verb = "at"  # not "after": the choice is made at every iteration, the first too
        when, loop = _when(cause.driver, taint.origin, each=verb in ("at", "after"))
        jitted = _jitted(site, called_as)
        if code == "RTL103" and prop.chunks_full(taint):
            continue
        if code == "RTL103":
            # "chunk x[s : s + n] over range(..., n)": the headline names the chunk, the details how.
            chunk = taint.what.partition(" over ")[0]
            head = f"last {_code(chunk)} can be shorter, so {jitted} re-traces"
            details = [f"{taint.what}, one chunk {when}", loop]
        else:
            # A shape rule's taint names code (``slice x[:i]``), shortened; a flip's is a sentence.
            what = taint.what if verb in ("at", "after") else _code(taint.what, 48)
            head = f"{what} {verb} {when}, so {jitted} re-traces"
            details = [loop]
        anew = taint.what.endswith(MADE_ANEW)  # a trace per run, not a flip between a few kinds
        yield _finding(
            code,
            head,
            details,
            taint.origin,
            site,
            param,
            path,
            cause.driver,
            fix=_MADE_ANEW_FIX if anew else None,
            severity="error" if anew else None,
        )


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
    fields: bool = False,
) -> Iterator[Finding]:
    """What a static argument passes, or, with ``fields``, the static parts of a custom pytree passed
    traced: its treedef keeps some of its attributes (aux data, static dataclass fields), and jit's
    cache key holds them as it holds a static argument. Each part is checked where its value is made
    (the constructor's argument, what ``__init__`` computes)."""
    jitted = _jitted(site, step.call)
    if not fields:
        candidates = prop.static_candidates(fn, arg, loops, (step,))
        yield from _static_value_findings(project, prop, candidates, site, param, jitted, "")
        return
    value = prop.resolve(fn, arg.value)
    for cls in sorted(prop.classes_of_value(fn, value)):
        name = project.classes[cls].name
        for attr in project.static_fields(cls):
            parameter = f"a static part of the {name} pytree, in the treedef jax keys its cache on"
            field = Arg(attribute_of(value, attr), arg.location, f"{arg.text}.{attr}")
            # A part stored as a parameter came in is made where the callers pass it; one set on
            # the object here (``replace(state, n=state.n + 1)``) is made here.
            places = prop.field_candidates(fn, field, loops, (step,))
            for choice in (s for s in field.value.vsrc if isinstance(s, ChoiceSrc)):
                # Read off the item of a list of instances a loop walks: which one it is changes.
                # Told where the constructor is given what differs, when the list was filled in a
                # loop (``[Body(part_id=i) for i ...]``), else where it is read.
                given = prop.given_per_iteration(choice.fields) if choice.each else None
                read = [
                    Arg(field.value.with_(ty=_kind_given(prop, maker, g)), g.location, g.text)
                    for maker, g in given or ()
                ] or [field]
                places = [*places, *((fn, r, loops, (step,)) for r in read)]
            set_here = dict(value.fields).get(attr)
            if not places and set_here is not None:
                made_at = set_here.made or arg.location
                places = [(fn, Arg(set_here, made_at, field.text), loops, (step,))]
            candidates = [
                forwarded
                for owner, made, at, path in places
                for forwarded in prop.static_candidates(owner, made, at, path)
            ]
            yield from _static_value_findings(
                project,
                prop,
                candidates,
                site,
                param,
                jitted,
                parameter,
                f"{name}.{attr}",
                project.static_declared(cls, attr),
            )


def _kind_given(prop: Propagation, maker: FunctionSummary, given: Arg) -> str:
    """The kind of value ``maker`` gives a constructor: a float, or as resolved there."""
    if _made_of_floats(prop, maker, given.value):
        return FLOAT
    return prop.concrete(maker, prop.resolve(maker, given.value)).ty


def _static_value_findings(
    project: Project,
    prop: Propagation,
    candidates: list[Candidate],
    site: JitSite,
    param: str,
    jitted: str,
    parameter: str,
    field: str = "",
    declared: Location | None = None,
) -> Iterator[Finding]:
    """The static value made at each of ``candidates``, a static argument, or the static field
    ``field`` (``Class.attr``) of a pytree: unhashable (RTL203), a new object hashed by identity
    (RTL204), a value that changes (RTL202 for floats, RTL201). The finding of a static argument is
    told at the outermost argument that carries the change; that of a static field where its value
    is made, but for a float that changes: that is data, not structure, and the fix is where the
    class makes it static (``declared``: its field, the aux data of tree_flatten)."""
    is_field = bool(field)
    for caller, origin, origin_loops, path in candidates:
        value = prop.concrete(caller, prop.resolve(caller, origin.value))
        code_text = _code(origin.text)
        # The argument as written, or, when that is long (a lambda), the parameter it is passed to.
        shown = origin.text if len(origin.text) <= 24 else f"'{param}'"
        passed = f"static field {field}" if field else f"static argument {shown}"
        given = f"its value: {code_text} at {_where(origin.location)}" if field else ""
        is_object = _class_of(prop, caller, value) is not None
        # jax compares a pytree's metadata by equality: a list or a dict will do, and so does a 0-d
        # array (an array of more items raises ValueError, but its rank is not known here).
        unhashable = None if is_field else _unhashable(prop, caller, value)
        if unhashable:
            # ``a Spec instance (it defines __eq__ without __hash__, ...)``: the why to the details.
            kind, _, why = unhashable.partition(" (")
            yield _finding(
                "RTL203",
                f"{passed} is {kind}, so calling {jitted} raises ValueError",
                [
                    parameter,
                    given,
                    f"{kind}: {why.removesuffix(')')}" if why else "",
                    "jax hashes static arguments and raises 'Non-hashable static arguments are"
                    " not supported'",
                ],
                origin.location,
                site,
                param,
                path,
                fix=_fix("RTL203", is_field, is_object),
            )
            continue
        identity = _identity_hashed(prop, caller, value)
        fresh = (
            ("", identity, next(prop.fresh_causes(caller, value, origin_loops), None))
            if identity
            else _fresh_part(
                project, prop, caller, Arg(value, origin.location, ""), origin_loops, origin.value
            )
        )
        if fresh is not None:
            holder, what, cause = fresh
            if cause is not None:
                when, loop = _when(cause.driver, origin.location)
                # The headline names the object made anew; the details, what holds it and why
                # it is hashed by identity (``a new Curve instance (its __eq__ goes by ...)``).
                new = what.partition(" (")[0].replace("a new ", "a ", 1)  # "made anew" says it
                told = f"{holder} {what}".strip() if holder or new != what else ""
                yield _finding(
                    "RTL204",
                    f"{passed} {'holds' if holder else 'is'} {new} made anew {when}, so {jitted}"
                    " re-traces",
                    [
                        parameter,
                        given,
                        f"it is {told}" if told else "",
                        "hashed by identity: each new object is a new cache entry",
                        loop,
                    ],
                    origin.location,
                    site,
                    param,
                    (*cause.path, *path),
                    cause.driver,
                    fix=_fix("RTL204", is_field, is_object) or _FUNCTION_FIX,
                )
            continue
        # Values from a loop over the axes of an array repeat: each compiles once, then hits.
        causes = (c for c in prop.value_causes(caller, value, origin_loops) if not c.driver.bounded)
        cause = next(causes, None)
        if cause is None or _equal_anew(prop, caller, replace(origin, value=value)):
            continue
        full_path = (*cause.path, *path)
        is_float = value.ty in (FLOAT, FLOAT_LIKE) or _made_of_floats(prop, caller, origin.value)
        reported = origin
        if is_float and declared is not None:
            reported = replace(origin, location=declared)
        elif is_field and is_object:
            # An object that changes is made anew where its constructor is called, perhaps in a
            # factory the value comes back from (``domain = Domain(..., labels=...)``).
            made = [m for m in value.objs if isinstance(m, Made)]
            constructed = prop.construction_site(made[0]) if len(made) == 1 else None
            if constructed is not None:
                reported = replace(origin, location=constructed)
        if reported is not origin:
            given = f"its value: {code_text} at {_where(origin.location)}"
        when, loop = _when(cause.driver, reported.location)
        floats = (
            _float_fields(project, prop, caller, replace(origin, value=value), origin_loops)
            if is_object
            else []
        )
        if is_float:
            code = "RTL202"
            head = f"{passed}, a float, changes {when}, so {jitted} re-traces"
            details = [parameter, given, loop, "each new float is a new cache entry"]
        elif floats:
            code = "RTL202"
            verb = "change" if len(floats) > 1 else "changes"
            head = f"float {_fields(floats)} of {passed} {verb} {when}, so {jitted} re-traces"
            details = [parameter, given, f"float fields: {', '.join(floats)}", loop]
        else:
            code = "RTL201"
            head = f"{passed} changes {when}, so {jitted} re-traces"
            details = [parameter, given, loop]
        yield _finding(
            code,
            head,
            details,
            reported.location,
            site,
            param,
            full_path,
            cause.driver,
            _fix(code, is_field, is_object),
        )


def _equal_anew(prop: Propagation, fn: FunctionSummary, origin: Arg) -> bool:
    """Whether every object ``origin`` may be equals the others: its class compares and hashes by
    some attributes only (``ClassSummary.compared``), and wherever an instance is made each of them
    is written as a literal (or left to a default) or passed on from the same attribute of another
    instance (``Molecule(self.symbols, new_coords)``), never computed."""
    classes = prop.classes_of_value(fn, origin.value)
    compared = {prop.project.classes[cls].compared for cls in classes}
    if len(compared) != 1 or not all(compared):
        return False
    (attrs,) = compared
    return all(_kept_as_is(prop, fn, origin, attr, 0) for attr in attrs or ())


def _kept_as_is(prop: Propagation, fn: FunctionSummary, value: Arg, attr: str, depth: int) -> bool:
    """Whether attribute ``attr`` of ``value`` (in ``fn``) is, wherever it is made, a literal, a
    default, or the same attribute of another object passed on (as its callers make it, for a
    parameter's)."""
    made = prop.value_origins(fn, value, attr, (), 0)
    if not made or depth > _NESTED_PARTS:
        return False
    for owner, arg, _ in made:
        if written_out(arg.text):  # the same at every run
            continue
        resolved = prop.resolve(owner, arg.value)
        # What __init__ stores that no argument gives as it is (`Model(...)(...)`): a default,
        # or computed there: from arguments that do not vary, or a tuple or list of the same
        # attribute of another instance (`self.symbols = tuple(symbols)`).
        computed = arg.text.endswith("(...)")
        if computed and not resolved.vsrc:
            continue
        passed_on = arg.text.partition(".")[2] == attr or (
            computed and resolved.ty in (TUPLE, LIST)
        )
        if not passed_on or not _same_attribute(prop, owner, resolved.vsrc, attr, depth):
            return False
    return True


def _same_attribute(
    prop: Propagation, fn: FunctionSummary, sources: frozenset, attr: str, depth: int
) -> bool:
    """Whether ``sources`` say a value is attribute ``attr`` of another instance, or of a
    parameter's object whose callers keep it as it is."""
    passed = {s.name.partition(".")[0] for s in sources if isinstance(s, ParamSrc)}
    return all(
        (isinstance(s, ParamSrc) and s.name.partition(".")[2] == attr)
        or (isinstance(s, FieldSrc) and s.made.path == attr)
        for s in sources
    ) and all(
        _kept_as_is(prop, caller, given, attr, depth + 1)
        for name in passed
        for caller, _, given, _ in prop.caller_args(fn, name)
    )


def _fresh_part(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    container: Arg,
    loops: tuple[int, ...],
    built: Value | None = None,
    depth: int = 0,
) -> tuple[str, str, Cause | None] | None:
    """A tuple, a NamedTuple or a frozen dataclass hashes its items: one that holds an object hashed
    by identity made anew (a lambda, a nested def, a jitted function), directly or through such
    containers of its own (a config holding an optimizer, a NamedTuple of closures), is as new as
    that object: what holds it (``a Config whose field 'opt' is``), what it is (``a lambda``) and why
    it is new. ``built``: the container as its function builds it, before the calls that fill it
    are resolved (``tuple(self._ref(s) for s in segments)``)."""
    value = container.value
    parts: list[tuple[str, list[Candidate]]] = [
        (f"a tuple whose item {i} is", [(fn, Arg(item, container.location, ""), loops, ())])
        for i, item in enumerate(value.items)
        if value.ty == TUPLE
    ]
    if value.ty == TUPLE and not value.items and built is not None:
        parts += [
            ("a tuple whose items are each", [(fn, Arg(item, container.location, ""), loops, ())])
            for item in _collected_results(prop, fn, built)
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
            part = replace(part, value=prop.resolve(owner, part.value))
            identity = _identity_hashed(prop, owner, part.value)
            if identity is None:
                inner = (
                    _fresh_part(project, prop, owner, part, loops, depth=depth + 1)
                    if depth < _NESTED_PARTS
                    else None
                )
                if inner is not None and inner[2] is not None:
                    holder, made, cause = inner
                    return f"{what} {holder}", made, replace(cause, path=(*cause.path, *path))
                continue
            cause = next(prop.fresh_causes(owner, part.value, loops), None)
            if cause is not None:
                return what, identity, replace(cause, path=(*cause.path, *path))
    return None


def _collected_results(prop: Propagation, fn: FunctionSummary, value: Value) -> Iterator[Value]:
    """What a container filled by a loop (``tuple(self._ref(s) for s in segments)``) holds, each
    element a call's result: as it is each time ``fn`` builds the container anew (the loop that
    fills it is over by then)."""
    for dep in value.deps:
        if not isinstance(dep, RetDep) or not dep.each or dep.elem is not None:
            continue
        outer = [loop for loop in fn.calls[dep.call].loops if loop not in dep.each]
        anew = made_anew(outer, fn.kind == "module")
        element = prop.resolve(fn, Value(deps=frozenset({replace(dep, each=frozenset())})))
        fresh = frozenset(s for s in element.fresh if not _filled_by(s, dep.each))
        if fresh != element.fresh:
            yield element.with_(fresh=fresh | anew)


def _filled_by(src: Src, loops: frozenset[int]) -> bool:
    return isinstance(src, LoopSrc) and src.index in loops


# Containers inside containers followed for a fresh part (a config's optimizer's closure).
_NESTED_PARTS = 3


def _fix(code: str, is_field: bool, is_object: bool) -> _Fix | None:
    """The fix that fits the static value: a pytree's static field is made a leaf or kept the same,
    an object (a config, a model) is built once or taken apart; otherwise the rule's own."""
    if is_field:
        return _STATIC_FIELD_FIX
    return _OBJECT_FIX.get(code) if is_object else None


# Fixes that fit the value passed: an object (a config, a model) is not made traced, it is built once
# or taken apart; a function is made once.
_OBJECT_FIX = {
    "RTL201": _Fix(
        "build it once, outside the loop",
        "build the object once, outside the loop, or pass the fields that change as traced"
        " arguments",
    ),
    "RTL202": _Fix(
        "pass its float fields traced",
        "pass the float fields that change as traced arguments (jnp.asarray(tol)), and build the"
        " object once, outside the loop",
    ),
    "RTL203": _Fix(
        "make it a frozen dataclass",
        "make it hashable (@dataclass(frozen=True)) and build it once, or pass its fields as"
        " arguments",
    ),
    "RTL204": _Fix(
        "build it once",
        "make it hashable by value (@dataclass(frozen=True)) and build it once, or pass its fields"
        " as arguments",
    ),
}
_FUNCTION_FIX = _Fix(
    "create it once",
    "create the function once, outside the loop, and pass that same object every time",
)


def _finding(
    code: str,
    head: str,
    details: list[str],
    location: Location,
    site: JitSite,
    param: str | None,
    path: tuple[PathStep, ...],
    driver: Driver | None = None,
    fix: _Fix | None = None,
    severity: str | None = None,
    grows: bool | None = None,
) -> Finding:
    """A finding of rule ``code``: its headline is what happens (``head``: what varies, when, which
    jit) and the fix in a few words (by default, the rule's); ``details`` (empty ones dropped), the
    call path, the jit site and the whole fix are told apart. It claims ``severity`` or the rule's;
    whether its re-traces grow with the run is ``grows`` or what ``driver`` says (``evidence.severity``
    weighs both)."""
    fix = fix or _rule_fix(code)
    return Finding(
        code=code,
        message=f"{head}; {fix.short}",
        location=location,
        severity=severity or rule(code).severity,
        grows=grows if grows is not None else driver is None or driver.grows,
        jit_site=site,
        parameter=param,
        call_path=path,
        fix=fix.full,
        details=tuple(detail for detail in details if detail),
    )


def _float_fields(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    origin: Arg,
    loops: tuple[int, ...],
) -> list[str]:
    """The fields of an object (``origin``, in ``fn`` inside ``loops``) whose values change, when
    each of those is a float where its value is made (a constructor's argument, what a factory
    passes on to one), or a field whose default is one (`rtol: float = 1e-3`); none otherwise."""
    cls = _class_of(prop, fn, origin.value)
    floats: list[str] = []
    for attr in _object_fields(project, cls) if cls is not None else ():
        read = Arg(attribute_of(origin.value, attr), origin.location, f"{origin.text}.{attr}")
        changing = [
            (owner, part)
            for owner, part, at, _ in prop.field_candidates(fn, read, loops, ())
            if next(prop.value_causes(owner, part.value, at), None) is not None
        ]
        if not changing:
            continue
        default = project.field_default(cls, attr)  # type: ignore[arg-type]
        if (default is None or default.value.ty != FLOAT) and not all(
            _made_of_floats(prop, owner, part.value) for owner, part in changing
        ):
            return []
        floats.append(attr)
    return floats


def _object_fields(project: Project, cls: str) -> tuple[str, ...]:
    """The attributes an instance of ``cls`` gets when it is made: the fields of a generated
    ``__init__``, or what its own ``__init__`` stores on ``self``."""
    init = project.member(cls, "__init__")
    if not isinstance(init, FuncTarget):
        return project.init_fields(cls)
    init_fn = project.function(init.qualname)
    own = _self_path(init_fn, "")
    return tuple(
        path.removeprefix(own)
        for path in init_fn.writes
        if own and path.startswith(own) and "." not in path.removeprefix(own)
    )


# The calls a loop over an object makes (``summarise.objects.iterated``).
_ITERATION_PROTOCOL = (("recv", "__iter__"), ("recv", "__next__"))


def _made_of_floats(
    prop: Propagation,
    fn: FunctionSummary,
    value: Value,
    passed: Callable[[str], list[tuple[FunctionSummary, Value]]] | None = None,
    depth: int = 0,
) -> bool:
    """Whether ``value`` (in ``fn``) is a float: one as written or computed, or a value of unknown
    kind made from numbers at least one of which is a float (Python arithmetic makes ``int * float``
    a float): parameters for which numbers are passed (by every caller, or as ``passed`` says: the
    call whose result or item it is), attributes whose every store is one, and what calls return or
    yield so made (``t = t_start; ... t *= factor`` in a schedule's generator given floats;
    ``start + offset * rec.dt``). It only chooses between RTL201 and RTL202."""
    return _number_kind(prop, fn, value, passed, depth, frozenset()) == FLOAT


# A dependency that says nothing of a value's kind: one reached again while its own kind is decided
# (``self.dt = self.dt * k``), or the items of a parameter no project class iterates itself.
_NOTHING = "nothing"


def _number_kind(
    prop: Propagation,
    fn: FunctionSummary,
    value: Value,
    passed: Callable[[str], list[tuple[FunctionSummary, Value]]] | None,
    depth: int,
    seen: frozenset[tuple[str, str]],
) -> str | None:
    """FLOAT or INT for a value ``_made_of_floats`` can tell is a number; None otherwise."""
    if value.ty in (FLOAT, FLOAT_LIKE):
        return FLOAT
    if value.ty == INT:
        return INT
    if value.ty != UNKNOWN or not value.deps or depth > _FLOAT_DEPTH:
        return None
    kinds = {_dep_kind(prop, fn, dep, passed, depth, seen) for dep in value.deps}
    return _joined_kind(kinds)


def _joined_kind(kinds: set[str | None]) -> str | None:
    """The kind of a value made of values of ``kinds``: unknown when one is, or when there are none;
    ``_NOTHING`` when none says anything (``self.k + 1`` reads only ``self.k``, being decided)."""
    if not kinds or None in kinds:
        return None
    numbers = kinds - {_NOTHING}
    if not numbers:
        return _NOTHING
    return FLOAT if FLOAT in numbers else INT


def _dep_kind(
    prop: Propagation,
    fn: FunctionSummary,
    dep: Dep,
    passed: Callable[[str], list[tuple[FunctionSummary, Value]]] | None,
    depth: int,
    seen: frozenset[tuple[str, str]],
) -> str | None:
    """The kind of number one dependency of a value is (``_number_kind``), or ``_NOTHING``."""
    project = prop.project
    if isinstance(dep, ParamDep | FieldDep) and (isinstance(dep, FieldDep) or "." in dep.name):
        if dep.elem is not None:
            return None
        obj: Obj = dep.made if isinstance(dep, FieldDep) else dep.name
        key = (fn.qualname, str(obj))
        if key in seen:
            return _NOTHING
        read = Arg(Value(objs=frozenset({obj})), fn.location, str(obj))
        stores = prop.field_candidates(fn, read, (), ())
        return _joined_kind(
            {
                _number_kind(prop, owner, part.value, None, depth + 1, seen | {key})
                for owner, part, _, _ in stores
            }
        )
    if isinstance(dep, ParamDep):
        param = fn.param(dep.name)
        if param is not None and param.annotation in (FLOAT, INT) and dep.elem is None:
            return param.annotation
        args, left_out = _passed_values(prop, fn, dep.name, passed)
        if dep.key is not None:
            # The item at a literal key of it (`entry["z_lens"]`): what each caller's dict holds there.
            args = [(o, read_field(v, dep.key)) for o, v in args]
        if dep.elem is not None:
            # An element of it: every caller passes a display of numbers (``[1.0, 0.5]``).
            args = [(o, item) for o, v in args for item in v.items or (UNKNOWN_VALUE,)]
        kinds = {_number_kind(prop, o, v, None, depth + 1, seen) for o, v in args}
        if left_out:
            kinds.add(param.default if param is not None and dep.elem is None else None)
        return _joined_kind(kinds)
    if isinstance(dep, RetDep | IterDep) and dep.item is None and dep.elem is None:
        targets = project.site_targets.get((fn.qualname, dep.call), ())
        if not targets and fn.calls[dep.call].callee[:2] in _ITERATION_PROTOCOL:
            return _NOTHING  # iterating a parameter no project class it may be iterates itself
        return _joined_kind(
            {
                _result_kind(prop, fn, dep, t, depth, seen) if isinstance(t, FuncTarget) else None
                for t in targets
            }
        )
    return None


def _passed_values(
    prop: Propagation,
    fn: FunctionSummary,
    name: str,
    passed: Callable[[str], list[tuple[FunctionSummary, Value]]] | None,
) -> tuple[list[tuple[FunctionSummary, Value]], bool]:
    """What the calls of ``fn`` (every known one, or only the one ``passed`` stands for) pass for
    parameter ``name``, and whether one of them leaves it out (so its default is what it gets)."""
    if passed is not None:
        args = passed(name)
        return args, not args
    args, left_out = [], False
    for caller, _, arg, _, _ in prop.calls_of(fn, name):
        if arg is None:
            left_out = True
        else:
            args.append((caller, arg.value))
    return args, left_out


def _result_kind(
    prop: Propagation,
    fn: FunctionSummary,
    dep: RetDep | IterDep,
    target: FuncTarget,
    depth: int,
    seen: frozenset[tuple[str, str]],
) -> str | None:
    """The kind of number what the call ``dep`` names (in ``fn``) returns, or yields when it is
    iterated, is for the arguments that call passes."""
    callee = prop.project.function(target.qualname)
    made = callee.yields if isinstance(dep, IterDep) else callee.returns
    if made is None:
        return None
    call = fn.calls[dep.call]
    offset = 1 if target.bound else 0

    def passed(name: str) -> list[tuple[FunctionSummary, Value]]:
        arg = bind_arg(call, callee.params, offset, name)
        return [(fn, arg.value)] if arg is not None else []

    return _number_kind(prop, callee, made, passed, depth + 1, seen)


# Calls and parameters followed to tell whether a value is made of floats.
_FLOAT_DEPTH = 6


def _class_of(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    project = prop.project
    if value.ty == INSTANCE and value.ref is None and not value.param:
        # Of a class read off another object (``type(model)(...)``): as the linker found it.
        classes = prop.classes_of_value(fn, value)
        return next(iter(classes)) if len(classes) == 1 else None
    if value.ty != INSTANCE or not value.ref or value.ref.startswith("<") or value.param:
        return None
    if value.ref in project.classes:
        return value.ref
    target = project.resolve_name(project.owner[fn.qualname], value.ref)
    return target.qualname if isinstance(target, ClassTarget) else None


def _unhashable(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty in _UNHASHABLE_NAMES:
        return _UNHASHABLE_NAMES[value.ty]
    project = prop.project
    cls = _class_of(prop, fn, value)
    # The first class of the chain that defines hashing or equality decides (a subclass inherits
    # __hash__ = None); past a base that is not known (a library's), it may hash.
    for c in project.mro(cls) if cls is not None else ():
        info = project.classes[c]
        if info.unhashable:
            why = info.unhashable if c == cls else f"{info.name}: {info.unhashable}"
            return f"a {project.classes[cls].name} instance ({why})"
        if info.value_hashed or {"__hash__", "__eq__"} & info.methods.keys():
            return None
        if _unknown_base(project, c):
            return None
    return None


def _unknown_base(project: Project, cls: str) -> bool:
    """Whether a base of ``cls`` is not a class of the project (a library's): what it defines is
    not known."""
    info = project.classes[cls]
    return any(
        project.resolve_base(project.owner[cls], b) is None for b in info.bases if b != "object"
    )


def _identity_hashed(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty in _IDENTITY_NAMES:
        return _IDENTITY_NAMES[value.ty]
    project = prop.project
    cls = _class_of(prop, fn, value)
    if cls is None:
        return None
    # jax finds a static argument by ``==``: the first class of the chain that defines equality
    # decides; past a base that is not known (a library's), it may compare by value.
    for c in project.mro(cls):
        info = project.classes[c]
        if info.identity_hashed:
            return f"a new {project.classes[cls].name} instance (its __hash__ or __eq__ goes by identity)"
        if info.value_hashed or info.value_equal or _unknown_base(project, c):
            return None
    return f"a new {project.classes[cls].name} instance"


# -- jit rebuilt around a fresh function ------------------------------------------------------------
def rebuilt_jit_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    found = {t: f for t in project.all_jits() if (f := _rebuilt_jit(project, prop, t)) is not None}
    # A jit object made anew and handed to a lax primitive that is reported for tracing it again
    # (`lax.fori_loop(0, n, jax.jit(step), x)`): one finding, the primitive's, tells it.
    told = {
        (target.module, int(spec.target[2]))
        for target in found
        if (spec := project.jit_spec(target)).traces_on_call
        and spec.target is not None
        and spec.target[0] == "jit"
    }
    kept = [target for target in found if target.key not in told]
    for targets in _by_lax_call(project, kept):
        if len(targets) == 1:
            yield found[targets[0]]
            continue
        # An eager lax call handed several fresh functions (a cond's branches) re-traces them all
        # for one cause, fixed in one place: one finding, at the first, naming each (the others'
        # jit sites are its other routes).
        handed = tuple(project.jit_spec(t).target_text for t in targets)
        merged = _rebuilt_jit(project, prop, targets[0], handed)
        assert merged is not None  # the first one's finding, named differently
        others = (found[t] for t in targets[1:])
        yield replace(
            merged, other_routes=tuple(Route(f.call_path, f.jit_site, f.parameter) for f in others)
        )


def _by_lax_call(project: Project, targets: list[JitTarget]) -> list[list[JitTarget]]:
    """The jit sites, those handed to one lax call together (in source order), the others alone."""
    groups: dict[object, list[JitTarget]] = {}
    for target in targets:
        spec = project.jit_spec(target)
        key = (target.module, spec.handed_to) if spec.handed_to is not None else target
        groups.setdefault(key, []).append(target)
    for group in groups.values():
        group.sort(key=lambda t: project.jit_spec(t).location)
    return list(groups.values())


def _rebuilt_jit(
    project: Project, prop: Propagation, target: JitTarget, handed: tuple[str, ...] = ()
) -> Finding | None:
    """RTL301 for jit site ``target``, when what it wraps is made anew where it runs repeatedly;
    ``handed``: the fresh functions a lax call is handed together with it, to name them all."""
    spec = project.jit_spec(target)
    if spec.fresh is None or spec.function not in project.functions:
        return None
    # lax control flow is mostly used under jit: it is taken to run outside jit only where a
    # script or a test runs it (a library's function may run under its users' jit). That a jit
    # of the project reaches it too does not make the script's eager calls trace less.
    if spec.traces_on_call and not prop.frequency.run_by_scripts(spec.function):
        return None
    if spec.maker_call is not None and not _made_per_call(project, spec, target):
        return None
    binding = project.jit_binding(target)
    assert binding is not None  # every jit site has a binding, if only an empty one
    if (
        spec.fresh_if_bound
        and not _method_of_instance(binding)
        and not (
            binding.wrapped is None
            and not spec.target_text.endswith(_STORED_CALLABLES)
            and (spec.on_self or _library_method(project, target, spec))
        )
    ):
        return None  # `jax.jit(pipeline.step)` of a parameter that holds a module
    owner = project.function(spec.function)
    jit = ("jit", "", str(spec.index))
    calls = [c for c in owner.calls if c.callee == jit or jit in c.alternatives]
    fresh = Value(fresh=spec.fresh_sources)
    # The wrapper is rebuilt as often as its function object is new, and matters where it is
    # called; a lax primitive traces where it is called itself.
    uses = [spec.loops] if spec.traces_on_call else [call.loops for call in calls]
    cause = next((c for loops in uses for c in prop.fresh_causes(owner, fresh, loops)), None)
    if cause is None and CallSrc() in spec.fresh_sources and not owner.memoised:
        cause = _escaped_from_repeated(project, prop, owner, spec.index)
    if cause is None:
        return None
    code = "RTL301"
    when, loop = _when(cause.driver, spec.location, each=True)
    primitive = spec.wrapper.removeprefix("jax.")
    names = handed or (spec.target_text,)
    if spec.traces_on_call:
        made = f"a new {spec.fresh}" if len(names) == 1 else f"{len(names)} new functions"
        head = f"{primitive}(...) traces {made} {when}, so every call re-traces"
        details = [
            f"traced function{'s' if len(names) > 1 else ''}: "
            + ", ".join(_code(name) for name in names),
            f"called outside jit, {primitive} caches its traces by function object",
            loop,
        ]
    elif spec.decorated:
        head = f"@{spec.wrapper} rebuilds {spec.target_text}() {when}, so every call re-traces"
        details = [
            f"{spec.target_text} is a nested def: a new function object, with an empty cache",
            loop,
        ]
    else:
        head = f"{spec.wrapper} rebuilds a jitted {spec.fresh} {when}, so every call re-traces"
        details = ["a new function object starts with an empty cache", loop]
    site = jit_site(binding)
    path = (*cause.path, *(PathStep(owner.qualname, c.text, c.location) for c in calls[:1]))
    fix = (
        _Fix(
            f"define {_code(', '.join(names), 40)} once",
            f"define {' and '.join(names)} once, outside the function that runs {primitive} (pass"
            " what they close over as arguments), or call it from inside a jitted function",
        )
        if spec.traces_on_call
        else None
    )
    # A function made anew per iteration of a loop over a few items still makes new ones each time
    # its own function runs again.
    again = prop.repeated(owner.qualname)
    grows = cause.driver.grows or (again is not None and again.grows)
    return _finding(
        code, head, details, spec.location, site, None, path, cause.driver, fix, grows=grows
    )


def cleared_cache_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    """``jax.clear_caches()`` where it runs again and again, with a jitted function called in the
    same loop (or, in a function that runs repeatedly, in the same function; or, in a function
    that calls none, in the caller's loop that runs it: ``refit()`` then ``sample()`` per block):
    that function is traced and compiled again after every clear. One finding per clear and
    jitted function, at the clear."""
    called: dict[str, list[tuple[int, JitTarget]]] = {}
    for fn, index, target in prop.jit_calls():
        called.setdefault(fn.qualname, []).append((index, target))
    runtime = prop.frequency.runtime
    for fn in [f for f in project.functions.values() if f.clears]:
        calls = called.get(fn.qualname, [])
        for location, loops in fn.clears:
            repeating = [loop for loop in loops if fn.loops[loop].repeats]
            if repeating and fn.qualname in runtime:
                driver: Driver | None = prop.loop_driver(fn, repeating[-1])
                near = [(fn, i, t) for i, t in calls if repeating[-1] in fn.calls[i].loops]
                together = "in the same loop"
            elif calls:
                driver = prop.repeated(fn.qualname)
                near, together = [(fn, i, t) for i, t in calls], f"in {fn.name}() too"
            else:
                driver, near = _loop_around(project, prop, fn, called)
                together = "in the loop that runs it"
            if driver is None:
                continue
            seen: set[tuple[str, int]] = set()
            for caller, index, target in near:
                binding = project.jit_binding(target)
                if binding is None or target.key in seen:
                    continue
                seen.add(target.key)
                site = jit_site(binding)
                call = caller.calls[index]
                jitted = _jitted(site, call.text)
                when, loop = _when(driver, location)
                head = (
                    f"jax.clear_caches() runs {when}, so {jitted}, called at"
                    f" {_at(call.location, location)}, re-traces after every clear"
                )
                details = [
                    f"{jitted} is called {together}, at {_where(call.location)}",
                    loop,
                    "jax.clear_caches() drops every jitted function's traces and compiled code",
                ]
                step = PathStep(caller.qualname, call.text, call.location)
                yield _finding("RTL302", head, details, location, site, None, (step,), driver)


_CLEAR_REACH = 3  # calls followed from the loop that runs a clearing function to the jits it calls


def _loop_around(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    called: dict[str, list[tuple[int, JitTarget]]],
) -> tuple[Driver | None, list[tuple[FunctionSummary, int, JitTarget]]]:
    """For a function that clears the caches and calls no jitted function: the first repeating
    loop of a caller that calls it, and the jitted calls that the same loop reaches through its
    other calls (``_CLEAR_REACH`` calls deep)."""
    for caller_name, index in project.callers.get(fn.qualname, ()):
        caller = project.function(caller_name)
        repeating = [loop for loop in caller.calls[index].loops if caller.loops[loop].repeats]
        if not repeating or caller_name not in prop.frequency.runtime:
            continue
        loop = repeating[-1]
        near: list[tuple[FunctionSummary, int, JitTarget]] = []
        frontier = [
            (caller, i) for i, c in enumerate(caller.calls) if loop in c.loops and i != index
        ]
        visited = {fn.qualname}
        for depth in range(_CLEAR_REACH):
            following: list[tuple[FunctionSummary, int]] = []
            for owner, at in frontier:
                for target in project.site_targets.get((owner.qualname, at), ()):
                    if isinstance(target, JitTarget):
                        if depth == 0:  # deeper, they came with their function's jitted calls
                            near.append((owner, at, target))
                    elif isinstance(target, FuncTarget) and target.qualname not in visited:
                        visited.add(target.qualname)
                        callee = project.function(target.qualname)
                        near.extend((callee, i, t) for i, t in called.get(target.qualname, ()))
                        following.extend((callee, i) for i in range(len(callee.calls)))
            frontier = following
        if near:
            return prop.loop_driver(caller, loop), near
    return None, []


# Names under which objects keep a callable as data (a flax TrainState's `apply_fn`): the same object
# on every read, so re-wrapping it finds jax's cache (measured: 3 wraps, 1 trace).
_STORED_CALLABLES = ("_fn", "_fun", "_func")


def _library_method(project: Project, target: JitTarget, spec: JitSpec) -> bool:
    """Whether a jit wraps an attribute read off an instance of classes of the project that none
    of them defines, stores or declares, and that each inherits from a library base (``apply`` of
    a flax module): a method there, so a new bound method per read."""
    if not spec.target or spec.target[0] != "recv":
        return False
    name, refs = spec.target[1], spec.target[2:]
    fn = project.function(spec.function)
    classes = project.classes_of(project.modules[target.module], fn, refs, 0)
    return bool(classes) and all(
        project.member(cls, name) is None
        and any(_unknown_base(project, c) for c in project.mro(cls))
        and not any(
            name in project.classes[c].fields or name in project.classes[c].field_functions
            for c in project.mro(cls)
        )
        for cls in classes
    )


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
    return Cause(None, driver, driver.path) if driver is not None else None


def _escapes(project: Project, maker: FunctionSummary, site: int) -> bool:
    jit = ("jit", "", str(site))
    # Returned alone, in a tuple, a dict, a NamedTuple's field...
    if any(callee == jit for _, callee in maker.returned_refs) or jit in maker.traces:
        return True
    cls = project.classes.get(maker.cls) if maker.cls else None
    return cls is not None and site in cls.jit_attrs.values()


def _made_per_call(project: Project, spec: JitSpec, target: JitTarget) -> bool:
    """Whether the function a jit wraps, which a call returns (``jax.jit(make_loss(w))``), is made
    anew by each call of that maker: a def or lambda of the maker's own (not a module-level function,
    not one it hands on), and a maker that is not memoised."""
    binding = project.jit_binding(target)
    wrapped = binding.wrapped if binding is not None else None
    if wrapped is None or wrapped.parent is None:
        return False
    makers = project.site_targets.get((spec.function, spec.maker_call or 0), ())
    return any(
        isinstance(maker, FuncTarget)
        and maker.qualname == wrapped.parent
        and not project.functions[maker.qualname].memoised
        for maker in makers
    )


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
    kinds = prop.weak_kinds
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
        # are compared only when no body holds a flip of its own, and what the arguments are made
        # from (their callers, the fields of a pytree) only when the arguments say nothing.
        within = [f for same in by_function.values() for f in _flips(prop, same, param, True)]
        found = within or list(_flips(prop, calls, param, False))
        yield from found or _traced_back_flip(prop, kinds, calls, param)


def _flips(
    prop: Propagation, calls: list[_JitArg], param: str, one_body: bool
) -> Iterator[Finding]:
    """The first call of ``calls`` that passes ``param`` differently from the first one: by keyword vs
    by position, else a weak type, a dtype or (in one body) a pytree structure of its own."""
    if len(calls) < 2:
        return
    binding = calls[0][2]
    site = jit_site(binding)
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
            lambda c, kind_of=kind_of: kind_of(prop.resolve(c[0], c[3].value), prop.x64(c[0])),
            one_body,
        )
        if found is not None:
            (fn, call, arg, now), (first, before) = found
            # A dtype decided inside a helper is changed there; one made in this body, at the call.
            returned = code == "RTL402" and any(isinstance(d, RetDep) for d in arg.value.deps)
            made = prop.resolve(fn, arg.value).made if returned else None
            yield _flip_finding(code, what, site, param, arg, fn, call, first, before, now, made)
            return  # one flip per parameter: the weak-type flip explains a dtype flip too


def _traced_back_flip(
    prop: Propagation, kinds: WeakKinds, calls: list[_JitArg], param: str
) -> Iterator[Finding]:
    """A weakly typed and a strongly typed value that reach ``param`` (or one field of it) from
    where they are made, in one process: reported where the weak one is made."""
    binding = calls[0][2]
    if binding.spec.nonarray_static or any(_static(c, param) for c in calls):
        return
    leaves: dict[str, list[tuple[WeakOrigin, _JitArg]]] = {}
    for jit_arg in calls:
        fn, call, _, arg, _ = jit_arg
        if any(fn.calls[c.call] is call and c.name == arg.text for c in fn.carried):
            continue  # what it starts as against what comes back: carried_flip_findings
        for leaf, origins in kinds.leaves(jit_arg[0], jit_arg[3]).items():
            leaves.setdefault(leaf, []).extend((o, jit_arg) for o in origins)
    site = jit_site(binding)
    for leaf, origins in leaves.items():
        origins.sort(key=lambda o: (o[0].location, o[1][3].location))
        pair = _origin_pair(prop, origins, lambda o: o.kind == WEAK, lambda o: o.kind == STRONG)
        if pair is not None:
            yield _origin_flip(site, param, leaf, *pair)
            return  # one flip per parameter
        # Two weakly typed numbers, a Python int and a float: one weak type, two dtypes.
        pair = _origin_pair(
            prop,
            origins,
            lambda o: o.kind == WEAK and o.scalar == INT,
            lambda o: o.scalar == FLOAT,
        )
        if pair is not None:
            yield _origin_flip(site, param, leaf, *pair, dtypes=True)
            return


_Origin = tuple[WeakOrigin, _JitArg]


def _origin_pair(
    prop: Propagation,
    origins: list[_Origin],
    first: Callable[[WeakOrigin], bool],
    other: Callable[[WeakOrigin], bool],
) -> tuple[_Origin, _Origin] | None:
    """The first origin of one kind and one of the other that reach the argument in one process,
    by different calls or different routes, with the same static arguments."""
    return next(
        (
            (a, b)
            for a in origins
            if first(a[0])
            for b in origins
            if other(b[0])
            and (a[1][1].location, a[0].route) != (b[1][1].location, b[0].route)
            and _share_cache(prop.project, a[1], b[1])
            and _run_together(prop, a[0].fn, b[0].fn)
            and _run_together(prop, a[1][0], b[1][0])
        ),
        None,
    )


def _origin_flip(
    site: JitSite,
    param: str,
    leaf: str,
    weak: _Origin,
    strong: _Origin,
    dtypes: bool = False,
) -> Finding:
    """A weakly and a strongly typed value that reach ``param`` (with ``dtypes``: a Python int and
    a float), told where the first is made."""
    (made, (fn, call, _, arg, _)), (other, (_, _, _, other_arg, _)) = weak, strong
    part = leaf if leaf.startswith("[") or not leaf else f".{leaf}"  # a dict's item, a field
    what = f"'{param}{part}'"
    here = f"from the default of '{made.default}'" if made.default is not None else "here"
    kinds = ("an int", "a float") if dtypes else ("weakly typed", "strongly typed")
    head = (
        f"{what} is {kinds[0]} {here} but {kinds[1]} from {_code(other.text, 32)} at"
        f" {_at(other.location, made.location)}, so {_jitted(site, call.text)} traces twice"
    )
    details = [
        f"{kinds[0]}: passed at {_where(arg.location)}",
        f"{kinds[1]}: {_code(other.text)} at {_where(other.location)}, passed at"
        f" {_where(other_arg.location)}",
        f"a different {'dtype' if dtypes else 'weak type'} is a different cache entry",
    ]
    step = PathStep(fn.qualname, call.text, call.location)
    code = "RTL402" if dtypes else "RTL401"
    return _finding(code, head, details, made.location, site, param, (step,))


def _first_flip(
    prop: Propagation,
    calls: list[_JitArg],
    kind_of: Callable[[_JitArg], str | None],
    one_body: bool,
) -> tuple[tuple[FunctionSummary, CallSite, Arg, str], tuple[Arg, str]] | None:
    """The first call whose kind differs from an earlier call's, with that argument and kind. Calls
    from different bodies count only when an entry point reaches both: two tests, or two public
    functions of a library, may never run in one process; calls that pass a static parameter as two
    different literals never share a cache entry."""
    earlier: list[tuple[_JitArg, str]] = []
    for jit_arg in calls:
        fn, call, _, arg, _ = jit_arg
        kind = kind_of(jit_arg)
        if kind is None:
            continue
        for other, before in earlier:
            if (
                kinds_differ(kind, before)
                and (one_body or _run_together(prop, fn, other[0]))
                and _share_cache(prop.project, jit_arg, other)
            ):
                return (fn, call, arg, kind), (other[3], before)
        earlier.append((jit_arg, kind))
    return None


def _run_together(prop: Propagation, a: FunctionSummary, b: FunctionSummary) -> bool:
    entries = prop.frequency.entries
    return a is b or bool(entries(a.qualname) & entries(b.qualname))


def _share_cache(project: Project, a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls of one jit site may meet in one cache: the same jitted object, and the same
    static literals."""
    return not _statics_differ(a, b) and not _distinct_objects(project, a, b)


def _distinct_objects(project: Project, a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls reach two objects that a jit site inside a factory made in two different
    calls of it (``train = make_step(lr)``, ``evaluate = make_step(0.0)``): each call of the factory
    jits a new nested def or lambda, so the two share no cache. Where a call's object is not known to
    come straight from one call of the factory, the two may be one object."""
    spec = a[2].spec
    maker = project.functions.get(spec.function)
    if (
        maker is None
        or maker.memoised
        or spec.fresh not in _NEW_PER_CALL
        or CallSrc() not in spec.fresh_sources
    ):
        return False
    left, right = (_made_by(project, jit_arg[0], jit_arg[1].callee, maker) for jit_arg in (a, b))
    return left is not None and right is not None and left != right


# The functions a jit site wraps that are new objects whenever the code that makes them runs (a
# partial or bound method may compare equal to one made before: jax may key them alike).
_NEW_PER_CALL = frozenset({"nested def", "lambda"})


def _made_by(
    project: Project, fn: FunctionSummary, callee: tuple[str, ...], maker: FunctionSummary
) -> tuple[str, int] | None:
    """The call of ``maker`` (caller, index) whose result the object called as ``callee`` in ``fn``
    is: a name bound to the call's result, in ``fn`` or an enclosing function, or an attribute of
    ``self`` that its class sets in one place only, to such a result."""
    while callee[:1] == ("up",) and fn.parent in project.functions:
        fn, callee = project.functions[fn.parent], callee[1:]
    cls = project.classes.get(fn.cls) if fn.cls else None
    if callee[:2] == ("self", "") and len(callee) == 3 and cls is not None:
        stores = cls.field_functions.get(callee[2], ())
        if len(stores) != 1 or len(stores[0][1]) != 1 or stores[0][1][0][0]:
            return None
        (method, ((_, callee),)) = stores[0]
        fn = project.functions.get(method, fn)
        if fn.qualname != method:
            return None
    if len(callee) != 2 or callee[0] != "ret":
        return None
    index = int(callee[1])
    targets = project.site_targets.get((fn.qualname, index), ())
    only = targets[0] if len(targets) == 1 else None
    made = isinstance(only, FuncTarget) and only.qualname == maker.qualname
    return (fn.qualname, index) if made else None


def _statics_differ(a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls of one jitted function pass a static parameter as two different literals
    (``False, 0.0`` and ``True, 4.0``): two cache entries whatever their traced arguments are."""
    binding = a[2]
    for param in binding.params[binding.offset :]:
        if not (_static(a, param.name) and _static(b, param.name)):
            continue
        passed = [bind_arg(c[1], binding.params, binding.offset, param.name) for c in (a, b)]
        left, right = (_literal(arg) if arg is not None else None for arg in passed)
        if left is not None and right is not None and left[1] != right[1]:
            return True
    return False


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
    jitted = _jitted(site, call.text)
    elsewhere = _at(first.location, arg.location)
    if here == there:
        head = f"'{param}' is passed {style} here and {other} at {elsewhere}, so {jitted} compiles twice"
        details = [
            f"{'static' if here else 'traced'} parameter '{param}'; passed {other} at"
            f" {_where(first.location)}",
            "jax keys its cache on how arguments are passed",
        ]
        yield _finding("RTL404", head, details, arg.location, site, param, (step,))
        return
    head = (
        f"'{param}' is {'static' if here else 'traced'} {style} here but"
        f" {'static' if there else 'traced'} {other} at {elsewhere}, so {jitted} compiles twice"
    )
    details = [
        f"passed {other} at {_where(first.location)}",
        "static_argnums and static_argnames each name it only one way: two cache entries",
    ]
    yield _finding("RTL404", head, details, arg.location, site, param, (step,), fix=_BOTH_WAYS)


# Passing the argument the other way would change what it is, so this hint comes with no --fix.
_BOTH_WAYS = _Fix(
    "pass it one way",
    "pass it the same way at every call, and name it in both static_argnums and static_argnames if"
    " it is meant to be static (jax fills in one from the other only when the other is not given)",
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
    made: Location | None = None,
) -> Finding:
    """A flip reported at the argument, or where the odd value's dtype was decided (``made``) when
    that is elsewhere: the line to change."""
    jitted = _jitted(site, call.text)
    passed = f"{now}: {_code(arg.text)} at {_where(arg.location)}"
    if made is not None and not _within(made, arg.location):
        said = f"this makes {now} for '{param}'"
    else:
        made, said = arg.location, f"'{param}' gets {now} here"
    head = f"{said} but {before} at {_at(first.location, made)}, so {jitted} traces twice"
    details = [
        passed,
        f"{before}: {_code(first.text)} at {_where(first.location)}",
        f"a different {what} is a different cache entry",
    ]
    step = PathStep(fn.qualname, call.text, call.location)
    return _finding(code, head, details, made, site, param, (step,))


def _within(inner: Location, outer: Location) -> bool:
    starts_after = (outer.line, outer.col) <= (inner.line, inner.col)
    ends_before = (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)
    return inner.path == outer.path and starts_after and ends_before


# -- what a jitted function gives back, against what it was first given -----------------------------
# ``state = init()`` then ``state = step(state, x)`` in a loop: the first call gets the start, the next
# ones what ``step`` returned. jax keeps a weak leaf weak through jit only when every leaf it is made
# from is weak; a NamedTuple and a tuple are different pytrees (measured on jax 0.10.2).
def carried_flip_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    for fn in project.functions.values():
        if not fn.carried or prop.frequency.traced(fn.qualname):
            continue
        for carried in fn.carried:
            jitted = project.jitted_at((fn.qualname, carried.call))
            if jitted is None or jitted[1].returns is None:
                continue
            binding, wrapped = jitted
            call = fn.calls[carried.call]
            passed = next(
                (
                    (p.name, a)
                    for p in binding.params[binding.offset :]
                    if (a := bind_arg(call, binding.params, binding.offset, p.name)) is not None
                    and _carried_as(a.text, carried.name)
                ),
                None,
            )
            param, arg = passed if passed is not None else (None, None)
            # One item of what a call returns (``return opt.apply(...)``): that call's tuple.
            whole = wrapped.returns
            if carried.item is not None and not whole.items:
                whole = _unpacked(prop, wrapped, whole) or whole
            returned = _item(whole, carried.item)
            if param is None or returned is None or binding.static_at(call, param):
                continue
            # A copy with some fields replaced carries the others (``data._replace(ctrl=u)``).
            replaced = (
                frozenset(n for n, _ in arg.value.fields)
                if arg.text != carried.name
                else frozenset()
            )
            at = _CarriedCall(fn, carried, binding, call, param, wrapped, replaced)
            if carried.loop is not None:
                yield from _carried_static_parts(prop, at, returned)
            if carried.start.value.param is not None:
                if carried.loop is None:
                    continue  # what a parameter starts as is its callers' to say (``weak.py``)
                flip = _param_start_flip(prop, at, returned)
                rebound = f"in the loop at {_where(fn.loops[carried.loop].location)}"
            elif carried.loop is None:
                flip = _attribute_flip(prop, at, returned) if prop.repeated(fn.qualname) else None
                rebound = f"in {fn.name}()"
            else:
                flip = _carried_flip(prop, at, returned)
                rebound = f"in the loop at {_where(fn.loops[carried.loop].location)}"
            if flip is not None:
                code, what, where, first, then = flip
                site = jit_site(binding)
                head, details = _flip_sentence(
                    code,
                    f"{what} starts as {first} here and is {then}",
                    f"{_code(call.text)}() returns it",
                    site,
                    call.text,
                    f"{carried.name} = {_code(call.text)}(...) {rebound}",
                )
                step = PathStep(fn.qualname, call.text, call.location)
                yield _finding(code, head, details, where, site, param, (step,))


def _carried_static_parts(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> Iterator[Finding]:
    """A static part of the carried pytree (a meta field, aux data) that the jitted function gives
    back computed from what it got (``n_updates=source.n_updates + 1``): each call passes a treedef
    the cache has not seen, and the function traces on every call. Reported where it computes it."""
    fn, carried, jitted = at.fn, at.carried, at.jitted
    start = prop.resolve(fn, carried.start.value)
    site = jit_site(at.binding)
    step = PathStep(fn.qualname, at.call.text, at.call.location)
    for cls in sorted(prop.classes_of_value(fn, start)):
        name = prop.project.classes[cls].name
        for attr in prop.project.static_fields(cls):
            own = f"{at.param}.{attr}"
            results = prop.value_origins(jitted, Arg(returned, jitted.location, ""), attr, (), 0)
            for owner, origin, _ in results:
                value = origin.value
                passed_on = value.param == own or value.objs == frozenset({own})
                if owner is not jitted or passed_on or ParamSrc(own) not in value.vsrc:
                    continue
                when, loop = _when(prop.loop_driver(fn, carried.loop or 0), origin.location)
                float_ = value.ty in (FLOAT, FLOAT_LIKE)
                jitted_name = _jitted(site, at.call.text)
                head = (
                    f"static field {name}.{attr} is computed anew by {jitted_name} and passed"
                    f" back {when}, so it re-traces on every call"
                )
                details = [
                    f"{jitted_name} computes {name}.{attr} of the '{at.param}' it gets, and"
                    f" {carried.name} = {_code(at.call.text)}(...) passes the result back",
                    loop,
                    "the static fields of a pytree are part of the cache key",
                ]
                yield _finding(
                    "RTL202" if float_ else "RTL201",
                    head,
                    details,
                    value.made or origin.location,
                    site,
                    at.param,
                    (step,),
                    prop.loop_driver(fn, carried.loop or 0),
                    _STATIC_FIELD_FIX,
                )


def _item(value: Value, item: int | None) -> Value | None:
    if item is None:
        return value
    return value.items[item] if item < len(value.items) else None


@dataclass(frozen=True)
class _CarriedCall:
    """``name = f(..., name, ...)`` in a loop of ``fn``, ``f`` jitted: the call, the parameter the
    carried value is passed as, and the whole summary of the function the jit wraps."""

    fn: FunctionSummary
    carried: Carried
    binding: JitBinding
    call: CallSite
    param: str
    jitted: FunctionSummary
    replaced: frozenset[str] = frozenset()  # the fields the call passes anew, not carried


def _carried_as(text: str, name: str) -> bool:
    """Whether an argument written ``text`` passes the carried value ``name``: itself, or a copy
    of it with some fields replaced."""
    copies = (f"{name}._replace(", f"{name}.replace(", f"replace({name},")
    return (
        text == name or text.startswith(copies) or text.startswith(f"dataclasses.replace({name},")
    )


def _param_start_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """A field of a NamedTuple or dataclass state that comes in as a parameter: weakly typed
    wherever the callers make it (``time=0.0`` in a factory), strong as the jitted function gives
    it back. Reported where the weak leaf is written."""
    leaves = prop.weak_kinds.leaves(at.fn, at.carried.start)
    for name, origins in sorted(leaves.items()):
        if not name or name in at.replaced or {o.kind for o in origins} != {WEAK}:
            continue
        if _strong_back(prop, at, _given_back(prop, at, returned, name)):
            return "RTL401", f"{at.carried.name}.{name}", origins[0].location, WEAK, STRONG
    return None


def _given_back(prop: Propagation, at: _CarriedCall, returned: Value, name: str) -> list[Origin]:
    """Where field ``name`` of the state the jitted function returns (``returned``) is made."""
    return prop.value_origins(at.jitted, Arg(returned, at.jitted.location, ""), name, (), 0)


def _strong_back(prop: Propagation, at: _CarriedCall, made: list[Origin]) -> bool:
    """Whether the leaf the jitted function gives back, made at ``made``, is strongly typed."""
    return {_result_weak(prop, at, r.value) for o, r, _ in made if o is at.jitted} == {STRONG}


def _carried_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """(rule, what, where, kind first, kind then): the pytree of the start against the jitted
    function's result, then each field of a NamedTuple or dataclass state."""
    fn, carried, jitted = at.fn, at.carried, at.jitted
    start = _unpacked(prop, fn, carried.start.value) or prop.resolve(fn, carried.start.value)
    returned = _unpacked(prop, jitted, returned) or prop.resolve(jitted, returned)
    # One item of the result: the summary's loop-carried flips leave it to this check.
    if carried.item is not None and _weak_then_strong(prop, at, start, returned):
        return "RTL401", carried.name, carried.start.location, WEAK, STRONG
    kinds = _dtype_flip(prop, at, start, returned)
    if kinds is not None:
        return "RTL402", carried.name, start.made or carried.start.location, *kinds
    first, then = _tree(prop, fn, start), _tree(prop, jitted, returned)
    grown = _keys_added(start, returned, at.param)
    if first is not None and grown is not None:
        return "RTL403", carried.name, carried.start.location, first, grown
    if first is None or then is None:
        return None
    if _trees_differ(first, then):
        return "RTL403", carried.name, carried.start.location, first, then
    item = _item_flip(prop, at, start, returned, carried.name)
    if item is not None:
        return item
    cls = next(iter(prop.classes_of_value(fn, start)), None)
    if cls is None:
        return None
    static = set(prop.project.static_fields(cls))
    x64 = prop.x64(at.fn)
    for name in prop.project.init_fields(cls):
        if name in static or name in at.replaced:
            continue
        starts = prop.value_origins(fn, carried.start, name, (), 0)
        results = _given_back(prop, at, returned, name)
        if len(starts) != 1 or not results:
            continue
        owner, origin, _ = starts[0]
        leaf = prop.resolve(owner, origin.value)
        if leaf.ty == NONE and all(r.value.ty in _SURELY_NOT_NONE for _, r, _ in results):
            return "RTL403", f"{carried.name}.{name}", origin.location, "None", "an array"
        if weak_kind(leaf, x64) == WEAK and _strong_back(prop, at, results):
            # Told where the weak leaf is made (``jnp.full(n, -1)``), not where it is packed.
            return "RTL401", f"{carried.name}.{name}", leaf.made or origin.location, WEAK, STRONG
        dtypes = {_dtype_flip(prop, at, leaf, r.value) for o, r, _ in results if o is at.jitted}
        if len(dtypes) == 1 and (kinds := dtypes.pop()) is not None:
            return "RTL402", f"{carried.name}.{name}", leaf.made or origin.location, *kinds
    return None


def _item_flip(
    prop: Propagation, at: _CarriedCall, start: Value, returned: Value, what: str
) -> tuple[str, str, Location, str, str] | None:
    """An item of a tuple, list or dict state (``args = (rate, threshold)``, ``{"count": 0,
    ...}``) that starts weakly typed and comes back strong, item by item and into nested ones;
    reported where the item is written, or else where the state is made."""
    if start.ty == DICT and returned.ty == DICT:
        begun, given = items_of(start), items_of(returned)
        if not begun or begun.keys() != given.keys():
            return None
        pairs = [(f"{what}{key}", begun[key], given[key]) for key in sorted(begun)]
    elif start.ty in (TUPLE, LIST) and len(start.items) == len(returned.items):
        pairs = [
            (f"{what}[{index}]", begin, back)
            for index, (begin, back) in enumerate(zip(start.items, returned.items, strict=True))
        ]
    else:
        return None
    for leaf, begin, back in pairs:
        begin = _unpacked(prop, at.fn, begin) or prop.resolve(at.fn, begin)
        back = _unpacked(prop, at.jitted, back) or back
        if begin.items or (begin.ty == DICT and items_of(begin)):
            found = _item_flip(prop, at, begin, back, leaf)
            if found is not None:
                return found
        elif _weak_then_strong(prop, at, begin, back):
            # A number a helper returns is reported where the helper writes it.
            return "RTL401", leaf, begin.made or at.carried.start.location, WEAK, STRONG
        elif (kinds := _dtype_flip(prop, at, begin, back)) is not None:
            return "RTL402", leaf, begin.made or at.carried.start.location, *kinds
    return None


def _dtype_flip(
    prop: Propagation, at: _CarriedCall, start: Value, back: Value
) -> tuple[str, str] | None:
    """The dtypes of a leaf of the carried state on the first call and from the next, when they
    differ: integers given back as floats (``_int_then_float``), or a typed leaf the jitted function
    gives back in another dtype (``returned.returned_dtype``: ``0.5 * state + 0.5 * x`` for a
    bfloat16 state and a float32 ``x`` is float32). A weak start is RTL401's."""
    kinds = _int_then_float(prop, at, start, back)
    if kinds is not None:
        return kinds
    x64 = prop.x64(at.fn)
    first = dtype_kind(start, x64)
    if first is None or weak_kind(start, x64) != STRONG:
        return None
    then = returned_dtype(
        prop, at.jitted, back, lambda name: _first_call_values(prop, at, name), x64
    )
    return (first, then) if then is not None and then != first else None


def _passed_for(
    prop: Propagation, at: _CarriedCall, name: str
) -> list[tuple[FunctionSummary, Arg]] | None:
    """What the first call passes for parameter ``name`` (or a field of one, ``state.value``): the
    carried value as it starts, or the argument; each value it may be, with the function making it."""
    base, _, path = name.partition(".")
    arg = (
        at.carried.start
        if base == at.param
        else bind_arg(at.call, at.binding.params, at.binding.offset, base)
    )
    if arg is None:
        return None
    if not path:
        return [(at.fn, arg)]
    return [(owner, found) for owner, found, _ in prop.value_origins(at.fn, arg, path, (), 0)]


def _first_call_values(prop: Propagation, at: _CarriedCall, name: str) -> list[Value] | None:
    passed = _passed_for(prop, at, name)
    return None if passed is None else [prop.resolve(o, a.value) for o, a in passed]


def _int_then_float(
    prop: Propagation, at: _CarriedCall, start: Value, back: Value
) -> tuple[str, str] | None:
    """The dtypes of a leaf of the carried state that starts as integers (``jnp.asarray([0, 5])``,
    a Python ``0``) and that the jitted function gives back computed with a float (``w * 1.5``,
    ``w / n``): integer on the first call, float from the next."""
    x64 = prop.x64(at.fn)
    first = dtype_kind(start, x64)
    if first is None or not first.startswith(("int", "uint")):
        return None
    back = prop.resolve(at.jitted, back)
    if back.ty not in (FLOAT, FLOAT_LIKE):
        return None
    return first, canonical_dtype("float64", x64)


def _unpacked(prop: Propagation, fn: FunctionSummary, value: Value) -> Value | None:
    """The tuple one call of ``fn`` returns (``return opt.update(grads, state), loss``; ``state =
    opt.init(params)``) when ``value`` is that result, each item resolved in ``fn``'s terms: the
    summary keeps the items of a display, not those of a call's result."""
    if value.items or len(value.deps) != 1:
        return None
    dep = next(iter(value.deps))
    if not isinstance(dep, RetDep) or dep.elem is not None or dep.item is not None:
        return None
    project = prop.project
    counts = {
        len(returns.items) if returns.ty in (TUPLE, LIST) else 0
        for target in project.site_targets.get((fn.qualname, dep.call), ())
        if isinstance(target, FuncTarget)
        and (returns := project.function(target.qualname).returns) is not None
    }
    if len(counts) != 1 or not (count := counts.pop()):
        return None
    items = [prop.call_result(fn, replace(dep, item=index), 0) for index in range(count)]
    if any(item is None for item in items):
        return None
    return Value(ty=TUPLE, items=tuple(i for i in items if i is not None))


def _weak_then_strong(prop: Propagation, at: _CarriedCall, start: Value, back: Value) -> bool:
    """Whether a leaf of the carried state starts weakly typed and the jitted function gives it
    back strong (``back``: the leaf it returns)."""
    return weak_kind(start, prop.x64(at.fn)) == WEAK and _result_weak(prop, at, back) == STRONG


def field_store_flips(
    prop: Propagation,
    fn: FunctionSummary,
    arg: Arg,
    call: CallSite,
    step: PathStep,
    site: JitSite,
    param: str,
) -> Iterator[Finding]:
    """A traced argument read from an object's attribute that ``__init__`` sets to a Python scalar
    (weak: ``self.scale = float(scale)``) and a method that runs repeatedly sets to an array (strong:
    a setter given a jitted function's result, ``self.scale = params["scale"]``): the jitted
    function is called with both, each a cache entry of its own. Reported where the weak value is
    stored. The attributes a getter packs into a dict or tuple (``step(coils.params())``, where
    ``params()`` returns ``{"scale": self.scale, ...}``) are asked one by one."""
    if prop.frequency.traced(fn.qualname) or (not call.loops and not prop.repeated(fn.qualname)):
        return
    for leaf in _packed_reads(prop, fn, arg, 0):
        yield from _field_store_flip(prop, fn, leaf, call, step, site, param)


def _packed_reads(prop: Propagation, fn: FunctionSummary, arg: Arg, depth: int) -> Iterator[Arg]:
    """``arg`` when it reads an attribute, else the attribute reads among the items of the dict or
    tuple it is (nested ones too, a few levels down)."""
    if _is_read(arg.value):
        yield arg
        return
    if depth > 2:
        return
    value = _unpacked(prop, fn, arg.value) or prop.resolve(fn, arg.value)
    items = items_of(value).values() if value.ty == DICT else value.items
    for item in items:
        yield from _packed_reads(prop, fn, replace(arg, value=item), depth + 1)


def _field_store_flip(
    prop: Propagation,
    fn: FunctionSummary,
    arg: Arg,
    call: CallSite,
    step: PathStep,
    site: JitSite,
    param: str,
) -> Iterator[Finding]:
    x64 = prop.x64(fn)
    # Each weak store, with the field of the pytree it makes that is weak ("" for the whole value).
    weak: list[tuple[Arg, str]] = []
    strong: list[tuple[FunctionSummary, Arg]] = []
    for owner, origin, _, _ in prop.field_candidates(fn, arg, call.loops, ()):
        kind = _stored_kind(prop, owner, origin, x64)
        leaf = _weak_leaf(prop, owner, origin, x64) if kind is None else None
        if kind == WEAK:
            weak.append((origin, ""))
        elif leaf is not None:
            weak.append((leaf[1], leaf[0]))
        elif (
            kind == STRONG
            and owner.cls is not None
            and owner.name != "__init__"
            and prop.repeated(owner.qualname) is not None
        ):
            strong.append((owner, origin))
    # A leaf that starts weak in a pytree is strong again only if the jitted result makes it so.
    leaves = [field for _, field in weak if field]
    strong = [
        (owner, origin)
        for owner, origin in strong
        if not any(_field_given_back(prop, owner, origin.value, f) for f in leaves)
    ]
    if not weak or not strong:
        return
    setter, stored = strong[0]
    attr = stored.text.partition(".")[2]
    init = prop.project.member(setter.cls, "__init__") if setter.cls else None
    computed = (
        [
            a
            for a in prop.init_stores(prop.project.function(init.qualname), attr, Value(), 0)
            if a.value.param is None and weak_kind(a.value, x64) == WEAK
        ]
        if isinstance(init, FuncTarget)
        else []
    )
    # A value __init__ computes is told where it computes it, not at the constructor call.
    where, field = (computed[0], "") if computed else weak[0]
    what = f"{stored.text}.{field}" if field else stored.text
    head, details = _flip_sentence(
        "RTL401",
        f"{what} starts as {WEAK} here and is {STRONG}",
        f"{setter.name}() stores it",
        site,
        call.text,
        f"{setter.name}() stores it at {_where(stored.location)}",
    )
    yield _finding("RTL401", head, details, where.location, site, param, (step,))


def _flip_sentence(
    code: str, flip: str, once: str, site: JitSite, called: str, how: str
) -> tuple[str, list[str]]:
    """The headline and details of a value that starts as one kind and becomes another (``flip``)
    once ``once``: its next call traces again."""
    head = f"{flip} once {once}, so {_jitted(site, called)} traces again"
    return head, [how, f"a different {_FLIPPED[code]} is a different cache entry"]


def _stored_kind(prop: Propagation, owner: FunctionSummary, stored: Arg, x64: bool) -> str | None:
    """Whether a value stored in an attribute is weakly typed: as its value says, or, for what a
    method stores from its parameter (the parameter or an item of it), as every caller's argument
    says (an item of a jitted function's result or of an array is an array too)."""
    value = prop.resolve(owner, stored.value)
    kind = weak_kind(value, x64)
    if kind is not None or value.ty != UNKNOWN or value.shape:
        return kind
    params = [d for d in value.deps if isinstance(d, ParamDep)]
    if len(params) != 1 or len(value.deps) != 1 or "." in params[0].name:
        return None
    key = params[0].key
    kinds = {
        None
        if _given_back_as_is(prop, caller, passed.value, key)
        else weak_kind(prop.resolve(caller, passed.value), x64)
        for caller, _, passed, _ in prop.caller_args(owner, params[0].name)
    }
    return STRONG if kinds == {STRONG} else None


def _weak_leaf(
    prop: Propagation, owner: FunctionSummary, stored: Arg, x64: bool
) -> tuple[str, Arg] | None:
    """A weakly typed leaf of a pytree an attribute is set to (``PIDState(integral=jnp.array(0.0),
    ...)``, a NamedTuple or dataclass made by this store or by the factory it calls): its field and
    the argument that makes it."""
    value = prop.resolve(owner, stored.value)
    classes = prop.classes_of_value(owner, value)
    made = [m for m in value.objs if isinstance(m, Made) and not m.path]
    if len(classes) != 1 or len(made) != 1:
        return None
    cls = next(iter(classes))
    project = prop.project
    for field in _object_fields(project, cls):
        if project.static_declared(cls, field) is not None:
            continue  # in the treedef, compared by value: its weak type is not part of the key
        for maker, given, _ in prop.made_origins(made[0].attr(field)):
            if weak_kind(prop.resolve(maker, given.value), x64) == WEAK:
                return field, given
    return None


def _field_given_back(prop: Propagation, fn: FunctionSummary, value: Value, field: str) -> bool:
    """Whether ``value`` (in ``fn``) is what a jitted call returns, a pytree whose ``field`` the
    jitted function computes from that field of a parameter and Python numbers only: as weakly
    typed as it came in."""
    returned = _jit_returned(prop, fn, value)
    made = [m for m in returned[1].objs if isinstance(m, Made) and not m.path] if returned else []
    if returned is None or len(made) != 1:
        return False
    origins = prop.made_origins(made[0].attr(field))
    return bool(origins) and all(
        owner is returned[0]
        and weak_class(leaf := prop.resolve(owner, given.value)) == FOLLOWS
        and all(isinstance(d, ParamDep) and d.name.endswith(f".{field}") for d in leaf.deps)
        for owner, given, _ in origins
    )


def _jit_returned(
    prop: Propagation, fn: FunctionSummary, value: Value
) -> tuple[FunctionSummary, Value] | None:
    """For ``value`` (in ``fn``) that is what one jitted call returns (an item of it, for ``a, b =
    step(...)``): the function the jit wraps, and what it returns there, in its own terms."""
    dep = next(iter(value.deps)) if len(value.deps) == 1 else None
    if not isinstance(dep, RetDep):
        return None
    jitted = prop.project.jitted_at((fn.qualname, dep.call))
    if jitted is None or jitted[1].returns is None:
        return None
    returned = _item(jitted[1].returns, dep.item)
    return (jitted[1], returned) if returned is not None else None


def _given_back_as_is(
    prop: Propagation, fn: FunctionSummary, value: Value, key: str | None
) -> bool:
    """Whether ``value`` (in ``fn``) is what a jitted call returns whose item at ``key`` it computes
    from the same item of a parameter and Python numbers only (``{"g": p["g"] * 0.9, ...}``): as
    weakly typed as that item came in, so not surely strong."""
    returned = _jit_returned(prop, fn, value) if key is not None else None
    leaf = items_of(returned[1]).get(key) if returned and returned[1].ty == DICT else None
    return (
        leaf is not None
        and weak_class(leaf) == FOLLOWS
        and len(leaf.deps) == 1
        and all(isinstance(d, ParamDep) and d.key == key for d in leaf.deps)
    )


# Types of values that are surely not None: arrays and numbers.
_SURELY_NOT_NONE = frozenset({ARRAY, NP_ARRAY, NP_SCALAR, JIT_OUT, JIT_OUT_WEAK, INT, FLOAT})


def _attribute_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """``self.x = f(self.x, ...)`` in a method that runs repeatedly, against what ``__init__`` or
    another method (``reset``) stores in ``self.x``: the kind that store starts it as, or one of
    its items (``self.x = (0.3, 0.0)``) against what ``f`` returns for that item."""
    project, fn, carried = prop.project, at.fn, at.carried
    x64 = prop.x64(fn)
    attr = carried.name.partition(".")[2]
    if fn.cls is None or not attr or "." in attr:
        return None
    stored = [a for a in fn.writes.get(carried.name, ()) if a.location == carried.start.location]
    if len(stored) != 1:
        return None
    result = prop.resolve(fn, stored[0].value)
    others: list[tuple[FunctionSummary, Arg]] = []
    init = project.member(fn.cls, "__init__")
    if isinstance(init, FuncTarget):
        init_fn = project.function(init.qualname)
        others += [(init_fn, a) for a in prop.init_stores(init_fn, attr, Value(), 0)]
    others += [(m, a) for m, a in prop.stores(fn.cls, attr) if a.location != carried.start.location]
    for owner, other in sorted(others, key=lambda o: o[1].location):
        start = prop.resolve(owner, other.value)
        for code, kind_of, _ in FLIP_KINDS:
            first, then = kind_of(start, x64), kind_of(result, x64)
            if kinds_differ(first, then):
                return code, carried.name, other.location, first, then  # type: ignore[return-value]
        # The first call gets what that store holds: resolved where it is made.
        first_call = replace(at, carried=replace(carried, start=replace(other, value=start)))
        kinds = _dtype_flip(prop, first_call, start, returned)
        if kinds is not None:
            return "RTL402", carried.name, start.made or other.location, *kinds
        item = _item_flip(prop, first_call, start, returned, carried.name)
        if item is not None:
            return item
    return None


def _keys_added(start: Value, returned: Value, param: str) -> str | None:
    """A dict of known keys passed for ``param`` and handed back by the jitted function with keys
    it stored in it (``metrics["loss"] = loss``): the structure the next call passes, else None."""
    if start.ty != DICT or start.keys is None or returned.param != param:
        return None
    stored = {name[2:-2] for name, _ in returned.fields if name.startswith("['")}
    if stored <= set(start.keys):
        return None
    return "a dict with keys {" + ", ".join(sorted({*start.keys, *stored})) + "}"


def _tree(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    """The pytree node of ``value``: a tuple or list of n, a dict's keys, a class (a NamedTuple or a
    registered dataclass is a node of its own), None; not known otherwise."""
    if value.ty == NONE:
        return "None"
    if value.ty in (TUPLE, LIST):
        return f"a {value.ty} of {len(value.items)}" if value.items else f"a {value.ty}"
    if value.ty == DICT and value.keys is not None:
        return "a dict with keys {" + ", ".join(value.keys) + "}"
    classes = prop.classes_of_value(fn, value)
    if len(classes) == 1:
        return f"a {prop.project.classes[next(iter(classes))].name}"
    return None


def _trees_differ(first: str, then: str) -> bool:
    """Whether two pytree nodes (``_tree``) surely differ: a list of unknown length (``a list``) may
    be a list of any length, but is never a tuple."""
    if first == then:
        return False
    return not (then.startswith(first + " of ") or first.startswith(then + " of "))


def _result_weak(prop: Propagation, at: _CarriedCall, leaf: Value) -> str | None:
    """Whether a leaf the jitted function returns is weakly typed on the first call: a Python scalar
    is; a leaf made from parameters is weak only when every one of them is (the carried one as it
    starts)."""
    leaf = prop.resolve(at.jitted, leaf)  # a helper's result: what the helper computes
    if leaf.ty in (INT, FLOAT, JIT_OUT_WEAK):
        return WEAK
    if leaf.ty in NUMPY_DATA or (
        leaf.ty == ARRAY and (leaf.made is not None or leaf.weak == MADE_STRONG)
    ):
        # Made with a dtype (a constructor, astype) or by a reduction (jnp.sum) somewhere in its
        # computation: strong whatever the parameters are.
        return STRONG
    params = [d.name for d in leaf.deps if isinstance(d, ParamDep)]
    if not params or len(params) != len(leaf.deps):
        return None
    x64 = prop.x64(at.fn)
    kinds: set[str | None] = set()
    for name in params:
        passed = _passed_for(prop, at, name)
        if passed is None:
            return None
        for owner, found in passed:
            value = prop.resolve(owner, found.value)
            if "." not in name:
                kinds.add(_leaves_kind(value, x64))
                continue
            kind = weak_kind(value, x64)
            if kind is None:  # a field of a parameter: as its callers make it
                asked = {o.kind for o in prop.weak_kinds.of(owner, found, 0)}
                kind = asked.pop() if len(asked) == 1 else None
            kinds.add(kind)
    if STRONG in kinds:
        return STRONG
    return WEAK if kinds == {WEAK} else None


def _leaves_kind(value: Value, x64: bool) -> str | None:
    """The weak type of a value, or of every leaf of a tuple or list (``rate, threshold = args``
    reads some of them): None when they differ."""
    if value.ty not in (TUPLE, LIST) or not value.items:
        return weak_kind(value, x64)
    kinds = {_leaves_kind(item, x64) for item in value.items}
    return kinds.pop() if len(kinds) == 1 else None


# -- one jitted function, two trace contexts ---------------------------------------------------------
# Some context managers (``jitspec.TRACE_CONTEXTS``) are part of jit's trace cache key: a jitted function
# called inside one and outside it, or inside one whose setting changes, traces once per setting. The
# contexts around a call are those written around it and those around the calls that run its function.
_State = frozenset[TraceContext]
_MAX_STATES = 8  # context states kept per function: a few settings, not every combination


def context_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    contexts = _Contexts(project, prop)
    by_target: dict[tuple[str, int], list[_InState]] = {}
    sites: dict[tuple[str, int], JitSite] = {}
    for fn, index, target in prop.jit_calls():
        binding = project.jit_binding(target)
        # Called while an enclosing jit traces, it is inlined into that trace.
        if binding is None or prop.frequency.traced(fn.qualname):
            continue
        call = fn.calls[index]
        key = (target.module, target.index)
        site = sites.setdefault(key, jit_site(binding))
        yield from _varying_contexts(prop, fn, call, site)
        if _rebuilt_per_call(project, fn, target):
            continue  # its calls from different callers never share a cache to flip
        for state, entries in contexts.around(fn, call.contexts).items():
            by_target.setdefault(key, []).append((fn, call, state, entries))
    for key, calls in by_target.items():
        yield from _context_flips(calls, sites[key])


def _rebuilt_per_call(project: Project, fn: FunctionSummary, target: JitTarget) -> bool:
    """Whether ``fn`` makes the jit it calls anew at each of its calls, around a function object
    made anew too (``jax.jit(partial(init, n=n))()``), with every call of it in ``fn`` under the
    same contexts: each call of ``fn`` traces a jit of its own, inside a context or not."""
    spec = project.jit_spec(target)
    if spec.function != fn.qualname or spec.loops or CallSrc() not in spec.fresh_sources:
        return False
    jit = ("jit", "", str(spec.index))
    written = {c.contexts for c in fn.calls if c.callee == jit or jit in c.alternatives}
    return len(written) <= 1


class _Contexts:
    """The trace-context states (the non-default settings in force) under which functions run, each
    with the entry points whose runs enter it: a state one test enters and another a second test
    enters never meet in one process."""

    def __init__(self, project: Project, prop: Propagation) -> None:
        self.project = project
        self.frequency = prop.frequency
        self._states: dict[str, dict[_State, frozenset[str]]] = {}

    def around(
        self, fn: FunctionSummary, written: tuple[TraceContext, ...]
    ) -> dict[_State, frozenset[str]]:
        """The states of a call in ``fn`` with the contexts ``written`` around it."""
        return self._enter_all(self.of(fn.qualname), written)

    def of(self, qualname: str, depth: int = 0) -> dict[_State, frozenset[str]]:
        known = self._states.get(qualname)
        if known is not None:
            return known
        alone = {frozenset(): self.frequency.entries(qualname)}
        self._states[qualname] = alone  # a cycle, or a chain too long, adds nothing
        if depth >= MAX_FRAMES:
            return alone
        states: dict[_State, frozenset[str]] = {}
        for caller, index in self.frequency.callers(qualname):
            written = self.project.functions[caller].calls[index].contexts
            for state, entries in self._enter_all(self.of(caller, depth + 1), written).items():
                states[state] = states.get(state, frozenset()) | entries
            if len(states) >= _MAX_STATES:
                break
        self._states[qualname] = states or alone
        return self._states[qualname]

    def _enter_all(
        self, outer: dict[_State, frozenset[str]], written: tuple[TraceContext, ...]
    ) -> dict[_State, frozenset[str]]:
        out: dict[_State, frozenset[str]] = {}
        for state, entries in outer.items():
            inner = self._entered(state, written)
            out[inner] = out.get(inner, frozenset()) | entries
        return out

    def _entered(self, outer: _State, written: tuple[TraceContext, ...]) -> _State:
        """``outer`` with ``written`` entered in order: the innermost setting of an option wins, and
        jax's default setting is no setting at all."""
        if not written:
            return outer
        config = {TRACE_CONTEXTS[c.name].config: c for c in outer}
        for context in written:
            spec = TRACE_CONTEXTS[context.name]
            default = (
                "True" if spec.config == "jax_enable_x64" and self.project.x64 else spec.default
            )
            if context.setting == default:
                config.pop(spec.config, None)
            else:
                config[spec.config] = context
        return frozenset(config.values())


def _setting(context: TraceContext) -> tuple[str, str]:
    return TRACE_CONTEXTS[context.name].config, context.setting


def _written(context: TraceContext) -> tuple[Location, str]:
    return context.location, context.text


# A jitted call with a context state it runs under and the entry points that run it so.
_InState = tuple[FunctionSummary, CallSite, _State, frozenset[str]]


def _context_flips(calls: list[_InState], site: JitSite) -> Iterator[Finding]:
    """Calls of one jitted function under two context states that one process runs (an entry point
    reaches both, each in its state): each state is a trace; reported at a context one state has
    and the other has not. A state is a set, so the calls (one per state it runs under) and the
    contexts are taken in the order of the source, the same whatever the hash seed."""
    calls.sort(key=lambda c: (c[1].location, sorted(_setting(x) for x in c[2])))
    for i, (fn, call, state, entries) in enumerate(calls):
        mine = {_setting(c) for c in state}
        for other_fn, other_call, other, other_entries in calls[:i]:
            theirs = {_setting(c) for c in other}
            if mine == theirs or not entries & other_entries:
                continue
            # The context to change: one this call is under and the other not (the outermost),
            # else the other's.
            extra = [c for c in state if _setting(c) not in theirs]
            if extra:
                yield _context_flip(min(extra, key=_written), fn, call, other, other_call, site)
            else:
                missing = min((c for c in other if _setting(c) not in mine), key=_written)
                yield _context_flip(missing, other_fn, other_call, state, call, site)
            break


def _context_flip(
    odd: TraceContext,
    fn: FunctionSummary,
    call: CallSite,
    there: _State,
    elsewhere: CallSite,
    site: JitSite,
) -> Finding:
    """``call`` (in ``fn``) runs inside ``odd``; ``elsewhere`` runs under ``there``."""
    config = TRACE_CONTEXTS[odd.name].config
    same = next((c for c in there if TRACE_CONTEXTS[c.name].config == config), None)
    other = f"inside `{_code(same.text, 40)}`" if same is not None else "outside it"
    head = (
        f"jitted '{site.name}' is called inside `{_code(odd.text, 40)}` here and {other} at"
        f" {_at(elsewhere.location, odd.location)}, so it traces once per setting"
    )
    details = [
        f"called {other} at {_where(elsewhere.location)}",
        f"jax keys its trace cache on {config}",
    ]
    step = PathStep(fn.qualname, call.text, call.location)
    return _finding("RTL405", head, details, odd.location, site, None, (step,))


def _varying_contexts(
    prop: Propagation, fn: FunctionSummary, call: CallSite, site: JitSite
) -> Iterator[Finding]:
    """A context around the call whose setting changes between executions (``for p in precisions:
    with jax.default_matmul_precision(p): f(x)``): one trace per setting."""
    for context in call.contexts:
        if not context.varies:
            continue
        cause = next(prop.value_causes(fn, Value(vsrc=context.varies), call.loops), None)
        if cause is None:
            continue
        spec = TRACE_CONTEXTS[context.name]
        when, loop = _when(cause.driver, context.location)
        head = (
            f"`{_code(context.text, 40)}` changes its setting {when} around jitted"
            f" '{site.name}', so it traces once per setting"
        )
        details = [loop, f"jax keys its trace cache on {spec.config}"]
        path = (*cause.path, PathStep(fn.qualname, call.text, call.location))
        yield _finding("RTL405", head, details, context.location, site, None, path, cause.driver)


# -- message helpers --------------------------------------------------------------------------------
def _when(driver: Driver, here: Location, each: bool = False) -> tuple[str, str]:
    """When the value changes, short (``in the loop at line 19``, the loop told from the file of
    ``here``, the finding's own; ``on each call of run_epoch()``; with ``each``, ``each iteration of
    the loop at line 19``, ``each call of run_epoch()``), and the driver in full for the details: the
    loop and its code, or the loop that repeats the call."""
    full = f"every iteration of the loop at {_where(driver.location)}"
    if driver.text.startswith(f"{full} (") and driver.text.endswith(")"):
        code = _code(driver.text[len(full) + 2 : -1], 80)
        loop = f"the loop at {_at(driver.location, here)}"
        return (
            f"each iteration of {loop}" if each else f"in {loop}",
            f"loop: {_where(driver.location)}: {code}",
        )
    called, parens, _ = driver.text.partition("()")
    if called.startswith("each call of ") and parens:
        return f"{called}()" if each else f"on {called}()", f"repeated: {driver.text}"
    return driver.text, ""


def _at(location: Location, here: Location) -> str:
    """A line, told from the file of ``here``: ``line 19`` in that file, ``run.py:26`` in its folder
    (or one below), else the whole path."""
    if location.path == here.path:
        return f"line {location.line}"
    near = os.path.relpath(location.path, os.path.dirname(here.path) or ".")
    return f"{near if not near.startswith('..') else location.path}:{location.line}"


def _fields(names: list[str]) -> str:
    """``field lr``, ``fields lr, tol``, ``fields lr, tol, ...``: a headline names two at most."""
    shown = ", ".join(names[:2]) + (", ..." if len(names) > 2 else "")
    return f"field{'s' if len(names) > 1 else ''} {shown}"


def _jitted(site: JitSite, called_as: str) -> str:
    """The jitted function as the user calls it (``predict_logits = jax.jit(forward)`` is
    'predict_logits'), else by the name of the function it wraps."""
    name = called_as.rpartition(".")[2] if _DOTTED.fullmatch(called_as) else ""
    return f"jitted '{name or site.name or called_as}'"


def _code(text: str, limit: int = 48) -> str:
    """Source text shown in a message, shortened: the finding's line shows it whole."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _where(location: Location) -> str:
    return f"{location.path}:{location.line}"


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
            best = replace(best, other_routes=tuple(routes.values()))
        out.append(best)
    return sorted(out, key=lambda f: f.sort_key)


def _best_first(finding: Finding) -> tuple[int, int, list[Location]]:
    """A proven path first, then the shortest; of equal lengths, the one whose calls the source shows
    first (not the first found, which may follow a set's order). A sort by it is stable: of one
    path, the first found wins (the first parameter of the jitted function)."""
    return (
        CONFIDENCES.index(finding.confidence),
        len(finding.call_path),
        [s.location for s in finding.call_path],
    )
