"""RTL201-RTL204: a static parameter whose value changes between calls (RTL201; a float, RTL202),
that cannot be hashed (RTL203), or that is a fresh object compared by identity (RTL204); also the
static parts of a pytree passed as a traced argument."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from retracelint import funcrefs
from retracelint.callgraph import FuncTarget, JitTarget, Project
from retracelint.checks.common import (
    STATIC_FIELD_FIX,
    Fix,
    built_each_time,
    class_of,
    fields_text,
    jitted_text,
    make_finding,
    object_fields,
    shown_code,
    unknown_base,
    when_text,
    where_text,
)
from retracelint.model import Assumption, Bound, Finding, JitSite, Location, PathStep
from retracelint.objects import attribute_of, written_out
from retracelint.ordering import stable_repr
from retracelint.propagate import Candidate, Cause, Propagation
from retracelint.summary import Arg, FunctionSummary
from retracelint.values import (
    ARRAY,
    BOOL,
    BOUNDED_QUEUE,
    DICT,
    FLOAT,
    FLOAT_LIKE,
    FUNCTION,
    INT,
    JIT,
    JIT_OUT,
    JIT_OUT_WEAK,
    JIT_RESULTS,
    LAMBDA,
    LIST,
    LIST_LIKE,
    NONE,
    NP_ARRAY,
    PARTIAL,
    SET,
    TRANSFORM,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
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
    made_anew,
    read_field,
)

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL201", "RTL202", "RTL203", "RTL204")


_UNHASHABLE_NAMES = {
    LIST: "a list",
    LIST_LIKE: "a list",
    DICT: "a dict",
    SET: "a set",
    ARRAY: "a jax array",
    NP_ARRAY: "a numpy array",
    BOUNDED_QUEUE: "a deque",
    # Its leaves are jax arrays, which do not hash: the call raises, it does not re-trace (checked
    # with jax 0.10.2, jit and pjit alike: 'Non-hashable static arguments are not supported').
    JIT_OUT: "what a jitted function returns (jax arrays, in a pytree)",
    JIT_OUT_WEAK: "what a jitted function returns (a jax array)",
}
# A comparison: a bool, or, of operands of unknown kind, a mask until known ("mask"); passed as a
# static argument it must hash, so it is a bool.
_TWO_VALUED = frozenset({BOOL, "mask"})
_IDENTITY_NAMES = {
    LAMBDA: "a lambda",
    PARTIAL: "a functools.partial",
    TRANSFORM: "a transformed function",
    FUNCTION: "a nested function",
    JIT: "a jitted function",
}


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
    builder: str = "",
    a_length: bool = False,
) -> Iterator[Finding]:
    """What a static argument passes, or, with ``fields``, the static parts of a custom pytree passed
    traced: its treedef keeps some of its attributes (aux data, static dataclass fields), and jit's
    cache key holds them as it holds a static argument. Each part is checked where its value is made
    (the constructor's argument, what ``__init__`` computes). ``builder``: the function each run
    of which builds the jit anew (``common.rebuilt_by``). ``a_length``: the jitted function reads
    the parameter as a length of what it traces (``JitSpec.lengths``)."""
    jitted = jitted_text(site, step.call)
    if not fields:
        candidates = prop.static_candidates(fn, arg, loops, (step,))
        yield from _static_value_findings(
            project,
            prop,
            candidates,
            site,
            param,
            jitted,
            "",
            builder=builder,
            a_length=a_length,
        )
        return
    value = prop.resolve(fn, arg.value)
    for cls in sorted(prop.classes_of_value(fn, value)):
        name = project.classes[cls].name
        for attr in project.symbols.static_fields(cls):
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
                project.symbols.static_declared(cls, attr),
                builder,
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
    builder: str = "",
    a_length: bool = False,
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
        item = _jit_item(prop, caller, origin.value) if value.ty in JIT_RESULTS else None
        if item is not None and item.ty == NONE:
            continue  # a None the jitted function gives back: it hashes, the same at every call
        code_text = shown_code(origin.text)
        # The argument as written, or, when that is long (a lambda), the parameter it is passed to.
        shown = origin.text if len(origin.text) <= 24 else f"'{param}'"
        passed = f"static field {field}" if field else f"static argument {shown}"
        given = f"its value: {code_text} at {where_text(origin.location)}" if field else ""
        is_object = class_of(prop, caller, value) is not None
        # jax compares a pytree's metadata by equality: a list or a dict will do, and so does a 0-d
        # array (an array of more items raises ValueError, but its rank is not known here).
        unhashable = None if is_field else _unhashable(prop, caller, value)
        if unhashable:
            # ``a Spec instance (it defines __eq__ without __hash__, ...)``: the why to the details.
            kind, _, why = unhashable.partition(" (")
            yield make_finding(
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
                fix=_fix("RTL203", is_field, is_object)
                or (_TRACED_FIX if value.ty in JIT_RESULTS else None),
                assumptions=_guessed_list(value, origin) + _guessed_item(item, origin),
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
            # A jit built anew where each change is made has an empty cache: RTL301 tells it.
            if cause is not None and not built_each_time(
                project, site, (*cause.path, *path), builder
            ):
                when, loop = when_text(cause.driver, origin.location)
                # The headline names the object made anew; the details, what holds it and why
                # it is hashed by identity (``a new Curve instance (its __eq__ goes by ...)``).
                new = what.partition(" (")[0].replace("a new ", "a ", 1)  # "made anew" says it
                told = f"{holder} {what}".strip() if holder or new != what else ""
                yield make_finding(
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
                    # Told at the outermost argument that carries it: where it is built anew.
                    made_here=True,
                )
            continue
        if _module_functions(project, caller, origin.value):
            continue
        # Values from a loop over the axes of an array repeat: each compiles once, then hits.
        causes = (c for c in prop.value_causes(caller, value, origin_loops) if not c.driver.bounded)
        cause = next(causes, None)
        if cause is None or _equal_anew(prop, caller, replace(origin, value=value)):
            continue
        full_path = (*cause.path, *path)
        if built_each_time(project, site, full_path, builder):
            continue
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
            given = f"its value: {code_text} at {where_text(origin.location)}"
        when, loop = when_text(cause.driver, reported.location)
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
            head = f"float {fields_text(floats)} of {passed} {verb} {when}, so {jitted} re-traces"
            details = [parameter, given, f"float fields: {', '.join(floats)}", loop]
        else:
            code = "RTL201"
            head = f"{passed} changes {when}, so {jitted} re-traces"
            details = [parameter, given, loop]
        yield make_finding(
            code,
            head,
            details,
            reported.location,
            site,
            param,
            full_path,
            cause.driver,
            _fix(code, is_field, is_object)
            or (_LENGTH_FIX if a_length and code == "RTL201" else None),
            # A bool takes two values: one trace each, however long the loop runs.
            bound=Bound(f"one per value of `{field or param}`", 2)
            if value.ty in _TWO_VALUED
            else None,
        )


def _module_functions(project: Project, fn: FunctionSummary, value: Value) -> bool:
    """Whether ``value`` is one of a few functions defined at a module's top level (what a factory
    hands back: ``return coeffs, volterra_rule``), whichever one each call picks: each is one object
    for the whole run, hashed by identity, so each is traced once, and a trace of each is needed."""
    refs = value.callables
    if not refs or any(path for path, _ in refs):
        return False
    targets = [t for callee in funcrefs.called(refs) for t in project.resolve_ref(fn, callee)]
    return bool(targets) and all(
        isinstance(t, FuncTarget)
        and not t.bound
        and t.qualname in project.functions
        and project.function(t.qualname).kind == "function"
        and project.function(t.qualname).parent is None
        for t in targets
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
        for attr in project.symbols.init_fields(cls):
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
    fills it is over by then), in one order whatever the hashes: the first found is told."""
    for dep in sorted(value.deps, key=stable_repr):
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


def _fix(code: str, is_field: bool, is_object: bool) -> Fix | None:
    """The fix that fits the static value: a pytree's static field is made a leaf or kept the same,
    an object (a config, a model) is built once or taken apart; otherwise the rule's own."""
    if is_field:
        return STATIC_FIELD_FIX
    return _OBJECT_FIX.get(code) if is_object else None


# Fixes that fit the value passed: an object (a config, a model) is not made traced, it is built once
# or taken apart; a function is made once.
_OBJECT_FIX = {
    "RTL201": Fix(
        "build it once, outside the loop",
        "build the object once, outside the loop, or pass the fields that change as traced"
        " arguments",
    ),
    "RTL202": Fix(
        "pass its float fields traced",
        "pass the float fields that change as traced arguments (jnp.asarray(tol)), and build the"
        " object once, outside the loop",
    ),
    "RTL203": Fix(
        "make it a frozen dataclass",
        "make it hashable (@dataclass(frozen=True)) and build it once, or pass its fields as"
        " arguments",
    ),
    "RTL204": Fix(
        "build it once",
        "make it hashable by value (@dataclass(frozen=True)) and build it once, or pass its fields"
        " as arguments",
    ),
}
# What a jitted function returns is data: it is passed traced, not made hashable.
_TRACED_FIX = Fix(
    "make it traced",
    "make the parameter traced (drop it from static_argnums/static_argnames): jax arrays do not"
    " hash",
)
# A length of what the jitted function traces (``perm[:num]``, ``size=n``, ``jnp.zeros(n)``): each
# value is another output shape, which a traced argument cannot give.
_LENGTH_FIX = Fix(
    "pad to a fixed size and mask",
    "keep the size fixed (the largest the loop passes) and carry a mask of the items that count:"
    " the parameter sets a shape inside the jitted function (a slice length, size=, an array's"
    " length), so it cannot be made traced",
)
_FUNCTION_FIX = Fix(
    "create it once",
    "create the function once, outside the loop, and pass that same object every time",
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
    cls = class_of(prop, fn, origin.value)
    floats: list[str] = []
    for attr in object_fields(project, cls) if cls is not None else ():
        read = Arg(attribute_of(origin.value, attr), origin.location, f"{origin.text}.{attr}")
        changing = [
            (owner, part)
            for owner, part, at, _ in prop.field_candidates(fn, read, loops, ())
            if next(prop.value_causes(owner, part.value, at), None) is not None
        ]
        if not changing:
            continue
        default = project.symbols.field_default(cls, attr)  # type: ignore[arg-type]
        if (default is None or default.value.ty != FLOAT) and not all(
            _made_of_floats(prop, owner, part.value) for owner, part in changing
        ):
            return []
        floats.append(attr)
    return floats


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
    signature = prop.project.signature(target, callee)

    def passed(name: str) -> list[tuple[FunctionSummary, Value]]:
        arg = signature.arg(call, name)
        return [(fn, arg.value)] if arg is not None else []

    return _number_kind(prop, callee, made, passed, depth + 1, seen)


# Calls and parameters followed to tell whether a value is made of floats.
_FLOAT_DEPTH = 6


def _guessed_list(value: Value, origin: Arg) -> tuple[Assumption, ...]:
    """A value no store shows to be a list, taken for one because ``append`` is called on it."""
    if value.ty != LIST_LIKE:
        return ()
    text = f"`{shown_code(origin.text)}` taken for a list: `append` is called on it"
    return (Assumption("guessed-type", origin.location, text),)


def _jit_item(prop: Propagation, fn: FunctionSummary, value: Value) -> Value | None:
    """What every function a jitted call in ``fn`` may run puts at the item ``value`` is of its
    result (``codes, scale = encode_jitted(x)``), where they agree on its kind: jit hands its pytree
    back with the arrays made jax arrays, but a None is an empty subtree, None again, which hashes.
    None where ``value`` is no such item, or the functions are not known."""
    found = _item_of_call(fn, value)
    if found is None:
        return None
    (call, index), project = found, prop.project
    targets = project.site_targets.get((fn.qualname, call), ())
    bindings = [project.jit_binding(t) if isinstance(t, JitTarget) else None for t in targets]
    wrapped = [b.wrapped for b in bindings if b is not None and b.wrapped is not None]
    if not targets or len(wrapped) != len(targets):
        return None
    # In its callers' terms: an item the function takes from a helper (``codes, scale =
    # encode(x)``) is what the helper puts there.
    items = [prop.summary_of(project.function(w.qualname), False, index) for w in wrapped]
    if any(item is None for item in items):
        return None
    kinds = {item.ty for item in items if item is not None}
    return items[0] if len(kinds) == 1 else None


def _item_of_call(fn: FunctionSummary, value: Value) -> tuple[int, int] | None:
    """The call of ``fn`` (its index) and the item of its result ``value`` is, where ``value`` is
    that and nothing else: told by its dependency (a call the linker resolves) or, for a jitted
    function of ``fn``'s own, by where the object was made."""
    deps = [d for d in value.deps if isinstance(d, RetDep)]
    if deps:
        sole = len(deps) == 1 and len(value.deps) == 1 and not deps[0].below
        item = deps[0].item
        return (deps[0].call, item) if sole and item is not None else None
    made = [m for m in value.objs if isinstance(m, Made)]
    if len(made) != 1 or len(value.objs) != 1 or made[0].item is None or made[0].path:
        return None
    call = next((i for i, c in enumerate(fn.calls) if c.location == made[0].at), None)
    return (call, made[0].item) if call is not None else None


def _guessed_item(item: Value | None, origin: Arg) -> tuple[Assumption, ...]:
    """An item of a jitted call's result that the function it runs puts there as a value of
    unknown kind (what a flax ``apply`` of a method returns): an array only if it is not None."""
    if item is None or item.ty != UNKNOWN:
        return ()
    text = f"`{shown_code(origin.text)}` taken for an array: the jitted function returns it as is"
    return (Assumption("guessed-type", origin.location, text),)


def _unhashable(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty in _UNHASHABLE_NAMES:
        return _UNHASHABLE_NAMES[value.ty]
    project = prop.project
    cls = class_of(prop, fn, value)
    # The first class of the chain that defines hashing or equality decides (a subclass inherits
    # __hash__ = None); past a base that is not known (a library's), it may hash.
    for c in project.symbols.mro(cls) if cls is not None else ():
        info = project.classes[c]
        if info.unhashable:
            why = info.unhashable if c == cls else f"{info.name}: {info.unhashable}"
            return f"a {project.classes[cls].name} instance ({why})"
        if info.value_hashed or {"__hash__", "__eq__"} & info.methods.keys():
            return None
        if unknown_base(project, c):
            return None
    return None


def _identity_hashed(prop: Propagation, fn: FunctionSummary, value: Value) -> str | None:
    if value.ty in _IDENTITY_NAMES:
        return _IDENTITY_NAMES[value.ty]
    project = prop.project
    cls = class_of(prop, fn, value)
    if cls is None:
        return None
    # jax finds a static argument by ``==``: the first class of the chain that defines equality
    # decides; past a base that is not known (a library's), it may compare by value.
    for c in project.symbols.mro(cls):
        info = project.classes[c]
        if info.identity_hashed:
            return f"a new {project.classes[cls].name} instance (its __hash__ or __eq__ goes by identity)"
        if info.value_hashed or info.value_equal or unknown_base(project, c):
            return None
    return f"a new {project.classes[cls].name} instance"
