"""What the rule modules share: how a finding is made and worded, the fix it carries, and the few
facts of values more than one family asks (the class a value is an instance of)."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from retracelint.callgraph import FuncTarget, JitBinding, Project
from retracelint.model import Assumption, Bound, Finding, JitSite, Location, PathStep
from retracelint.objects import _self_path
from retracelint.propagate import Driver, Propagation
from retracelint.rules import rule
from retracelint.summary import Arg, CallSite, FunctionSummary, JitSpec, exclusive
from retracelint.values import (
    ARRAY,
    DICT,
    INSTANCE,
    LIST,
    NONE,
    TUPLE,
    CalleeSrc,
    CallSrc,
    LoopSrc,
    ParamDep,
    Src,
    Value,
    shape_sources,
)


@dataclass(frozen=True)
class Fix:
    """How to fix a finding: a few words that end its headline, and the whole advice."""

    short: str
    full: str


def rule_fix(code: str) -> Fix:
    found = rule(code)
    return Fix(found.hint, found.fix)


# Attributes that read an array's size: ``x.shape``, ``x.shape[0]``, ``x.ndim``, ``x.size``.
_SIZE_ATTRIBUTES = frozenset({"shape", "ndim", "size"})


def size_read(text: str) -> str | None:
    """The array whose size an argument reads, as written (``u`` of ``u.shape``, ``u.shape[1:]``,
    ``u.ndim`` or ``len(u)``), else None."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr in _SIZE_ATTRIBUTES:
        return ast.unparse(node.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and not node.keywords
    ):
        return ast.unparse(node.args[0])
    return None


def apart(
    project: Project, binding: JitBinding, fn: FunctionSummary, a: CallSite, b: CallSite
) -> bool:
    """Whether two calls in ``fn`` of the jit ``binding`` sit on opposite arms of one test (``if
    use_replay: run(state, buffer) else: run(state)``) and each call of ``fn`` calls a jit of its
    own: one call of ``fn`` runs one arm, and another call's jit is another cache (issue 36, paths).
    The arms are exclusive within one call only: a loop over both values of the test, or two
    callers, runs both in one process, and any jit they share (made at import, by a memoised
    factory, or around a module-level function, whose traces jax keeps per function) keeps the
    first arm's trace for the second."""
    maker = fresh_maker(project, binding.spec)
    return (
        maker is not None
        and exclusive(a, b)
        and all(_made_in(project, fn, c, maker) for c in (a, b))
    )


def _made_in(project: Project, fn: FunctionSummary, call: CallSite, maker: FunctionSummary) -> bool:
    """Whether the jit ``call`` reaches is made by the call of ``fn`` that runs it: a
    ``jax.jit(...)`` of ``fn``'s own, or the result of a call of ``maker`` in ``fn`` (one of the
    objects the call may run, ``run_chunk`` bound on either arm of an ``if``)."""
    if maker is fn:
        return call.callee[0] == "jit"
    made = (made_by(project, fn, c, maker) for c in (call.callee, *call.alternatives))
    return any(m is not None and m[0] == fn.qualname for m in made)


def fresh_maker(project: Project, spec: JitSpec) -> FunctionSummary | None:
    """The function that makes the jit ``spec`` around a function object of its own each time it
    runs (a nested def or lambda, a maker that is not memoised), else None: two of its calls make
    two jits with two caches."""
    maker = project.functions.get(spec.function)
    if (
        maker is None
        or maker.memoised
        or spec.fresh not in NEW_PER_CALL
        or CallSrc() not in spec.fresh_sources
    ):
        return None
    return maker


# The functions a jit site wraps that are new objects whenever the code that makes them runs. A
# ``functools.partial`` compares by identity, so a jit of one made anew is a new cache (measured on
# jax 0.10.2: three builds of ``jax.jit``/``jax.pmap`` of ``partial(self.f, k=2)`` trace three
# times); a bound method compares equal to one made before, so jax may key them alike.
NEW_PER_CALL = frozenset({"nested def", "lambda", "partial"})


def made_by(
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


# What to do about a static part of a pytree that changes: it is no argument the user can make traced.
STATIC_FIELD_FIX = Fix(
    "make it a pytree leaf",
    "make it a leaf of the pytree (not aux data or a static field), or give it the same value (the"
    " same object) at every call",
)


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


def make_finding(
    code: str,
    head: str,
    details: list[str],
    location: Location,
    site: JitSite,
    param: str | None,
    path: tuple[PathStep, ...],
    driver: Driver | None = None,
    fix: Fix | None = None,
    severity: str | None = None,
    bound: Bound | None = None,
    assumptions: tuple[Assumption, ...] = (),
    made_here: bool = False,
) -> Finding:
    """A finding of rule ``code``: its headline is what happens (``head``: what varies, when, which
    jit) and the fix in a few words (by default, the rule's); ``details`` (empty ones dropped), the
    call path, the jit site and the whole fix are told apart. It claims ``severity`` or the rule's;
    what caps its re-traces is ``bound`` (the value itself: a bool's two values) or what
    ``driver`` says (``evidence.severity`` weighs both). ``assumptions``: what the rule itself takes for granted (a type it guesses);
    ``evidence.assess`` adds what the chain does. ``made_here``: what changes is made at
    ``location``, not carried in through ``path`` (``Finding.made_here``)."""
    fix = fix or rule_fix(code)
    return Finding(
        code=code,
        message=f"{head}; {fix.short}",
        location=location,
        severity=severity or rule(code).severity,
        bound=bound or (driver.bound if driver is not None else None),
        driver=driver.location if driver is not None else None,
        jit_site=site,
        parameter=param,
        call_path=path,
        fix=fix.full,
        details=tuple(detail for detail in details if detail),
        assumptions=assumptions,
        made_here=made_here,
    )


def built_each_time(
    project: Project, site: JitSite, path: tuple[PathStep, ...], builder: str = ""
) -> bool:
    """Whether the jitted function is made anew, with an empty cache, by a function that ``path``
    enters from the driver's function (``path[0]``), or that one it enters calls: a nested def of
    it, or a jit it builds around a function object of its own each run (``builder``: a
    ``jax.jit(partial(step, ...))`` in an agent's ``__init__``, one per object). Each run of the
    driver makes a new one, so what changes from one run to the next never meets one cache
    (JINNAX's ``train_SV_PINN`` jits its loss, and calls the network factory that jits the forward
    pass, once per sweep point: a structure fixed within each call is one trace per point; an agent
    made per training run whose state holds new optimizer objects as static fields, or that is
    handed batches of the run's own size: one trace per agent). The rebuild itself is RTL301's to
    tell."""
    entered = {step.function for step in path[1:]}
    parent, nested, _ = site.function.rpartition(".<locals>.")
    if nested and _runs_in(project, parent, entered):
        return True
    # The driver's own function may build it before its loop or in it: not told apart here.
    return bool(builder) and _runs_in(project, builder, entered - {path[0].function})


def _runs_in(project: Project, function: str, entered: set[str]) -> bool:
    """Whether ``function`` is one of ``entered`` or called by one of them."""
    return function in entered or any(
        caller in entered for caller, _ in project.callers.get(function, ())
    )


def rebuilt_by(spec: JitSpec) -> str:
    """The function each run of which builds the jit of ``spec`` around a new function object (a
    lambda, a partial, a bound method, a nested def), so with an empty cache; "" when it is built
    around the same function each time (jax's caches are the function's) or traces where called."""
    return spec.function if spec.fresh is not None and not spec.traces_on_call else ""


def object_fields(project: Project, cls: str) -> tuple[str, ...]:
    """The attributes an instance of ``cls`` gets when it is made: the fields of a generated
    ``__init__``, or what its own ``__init__`` stores on ``self``."""
    init = project.symbols.member(cls, "__init__")
    if not isinstance(init, FuncTarget):
        return project.symbols.init_fields(cls)
    init_fn = project.function(init.qualname)
    own = _self_path(init_fn, "")
    return tuple(
        path.removeprefix(own)
        for path in init_fn.writes
        if own and path.startswith(own) and "." not in path.removeprefix(own)
    )


def class_of(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    project = prop.project
    if value.ty == INSTANCE and value.ref is None and not value.param:
        # Of a class read off another object (``type(model)(...)``): as the linker found it.
        classes = prop.classes_of_value(fn, value)
        return next(iter(classes)) if len(classes) == 1 else None
    if value.ty != INSTANCE or not value.ref or value.ref.startswith("<") or value.param:
        return None
    return project.symbols.class_named(project.owner[fn.qualname], value.ref)


def unknown_base(project: Project, cls: str) -> bool:
    """Whether a base of ``cls`` is not a class of the project (a library's): what it defines is
    not known."""
    info = project.classes[cls]
    return any(
        project.symbols.resolve_base(project.owner[cls], b) is None
        for b in info.bases
        if b != "object"
    )


def when_text(driver: Driver, here: Location, each: bool = False) -> tuple[str, str]:
    """When the value changes, short (``in the loop at line 19``, the loop told from the file of
    ``here``, the finding's own; ``on each call of run_epoch()``; with ``each``, ``each iteration of
    the loop at line 19``, ``each call of run_epoch()``), and the driver in full for the details: the
    loop and its code, or the loop that repeats the call."""
    full = f"every iteration of the loop at {where_text(driver.location)}"
    if driver.text.startswith(f"{full} (") and driver.text.endswith(")"):
        code = shown_code(driver.text[len(full) + 2 : -1], 80)
        loop = f"the loop at {at_text(driver.location, here)}"
        return (
            f"each iteration of {loop}" if each else f"in {loop}",
            f"loop: {where_text(driver.location)}: {code}",
        )
    called, parens, _ = driver.text.partition("()")
    if called.startswith("each call of ") and parens:
        return f"{called}()" if each else f"on {called}()", f"repeated: {driver.text}"
    return driver.text, ""


def at_text(location: Location, here: Location) -> str:
    """A line, told from the file of ``here``: ``line 19`` in that file, ``run.py:26`` in its folder
    (or below it), else the path as given (``examples/run.py:26``); an absolute path is told as
    ``../run.py:26`` from one folder down (a package's caller script), so that a message stays
    short however deep the project lies."""
    if location.path == here.path:
        return f"line {location.line}"
    near = os.path.relpath(location.path, os.path.dirname(here.path) or ".")
    climbs = near.split(os.sep).count("..")
    shown = near if not climbs or (climbs == 1 and os.path.isabs(location.path)) else location.path
    return f"{shown}:{location.line}"


def fields_text(names: list[str]) -> str:
    """``field lr``, ``fields lr, tol``, ``fields lr, tol, ...``: a headline names two at most."""
    shown = ", ".join(names[:2]) + (", ..." if len(names) > 2 else "")
    return f"field{'s' if len(names) > 1 else ''} {shown}"


def jitted_text(site: JitSite, called_as: str) -> str:
    """The jitted function as the user calls it (``predict_logits = jax.jit(forward)`` is
    'predict_logits'), else by the name of the function it wraps."""
    name = called_as.rpartition(".")[2] if _DOTTED.fullmatch(called_as) else ""
    return f"jitted '{name or site.name or called_as}'"


def shown_code(text: str, limit: int = 48) -> str:
    """Source text shown in a message, shortened: the finding's line shows it whole."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def where_text(location: Location) -> str:
    return f"{location.path}:{location.line}"


def shaped_by(prop: Propagation, fn: FunctionSummary, args: Iterable[Arg], src: Src) -> str | None:
    """The first of ``args`` (of calls in ``fn``) whose shape ``src`` sets, here or through the
    calls that make it (``extract(tiles, shape)`` per shape bucket): each value of ``src`` is
    another program for a jit called with it, traced once however the jit is built or its caches
    kept. Its text."""
    return next((arg.text for arg in args if _shaped(prop.resolve(fn, arg.value), src)), None)


def _shaped(value: Value, src: Src) -> bool:
    """Whether ``src`` sets the shape of ``value``: a length made from it, or, for a loop, a call
    of a function that differs per iteration (``make(x)`` per ``make`` of a table of builders)."""
    return src in shape_sources(value) or (
        isinstance(src, LoopSrc) and CalleeSrc(src.index) in value.vsrc
    )


def tree_node(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    """The pytree node of ``value``: a tuple or list of n, a dict's keys, a class (a NamedTuple or a
    registered dataclass is a node of its own), None; not known otherwise."""
    if value.ty == NONE:
        return "None"
    if value.ty in (TUPLE, LIST):
        return f"a {value.ty} of {len(value.items)}" if value.items else f"a {value.ty}"
    if value.ty == DICT:
        # Keys not known (a comprehension, ``unfreeze``'s copy): still a dict node, never a class's.
        return (
            "a dict" if value.keys is None else "a dict with keys {" + ", ".join(value.keys) + "}"
        )
    classes = prop.classes_of_value(fn, value)
    if len(classes) == 1:
        return f"a {prop.project.classes[next(iter(classes))].name}"
    return None


def trees_differ(first: str, then: str) -> bool:
    """Whether two pytree nodes (``tree_node``) surely differ: a list of unknown length (``a list``) may
    be a list of any length, and a dict of unknown keys (``a dict``) one of any keys, but neither is
    a tuple or a class."""
    if first == then:
        return False
    return not (then.startswith(first + " ") or first.startswith(then + " "))


def made_leaf(value: Value, param: str) -> str | None:
    """``an array`` for a value that is surely one array made where it is (``jnp.concatenate([c,
    h])`` of the state's items): a pytree leaf, not a container, where a jitted step gives back the
    state it gets as ``param``. Not asked of what a call passes in (a parameter handed back as it
    came takes each caller's structure), nor of what is computed from the state whole (a
    ``tree_map`` over it keeps its structure)."""
    if value.ty != ARRAY or value.objs or value.param:
        return None
    whole = any(isinstance(d, ParamDep) and d.key is None and d.name == param for d in value.deps)
    return None if whole else "an array"
