"""RTL401-RTL403 (and RTL201/RTL202 for static parts): what a jitted function gives back, against what
it was first given, when its result is carried to its next call (``state = step(state, x)`` in a loop,
``self.x = f(self.x)`` in a method)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from retracelint.callgraph import FuncTarget, JitBinding, Project
from retracelint.checks.common import (
    STATIC_FIELD_FIX,
    jit_site,
    jitted_text,
    made_leaf,
    make_finding,
    object_fields,
    shown_code,
    tree_node,
    trees_differ,
    when_text,
    where_text,
)
from retracelint.model import Finding, JitSite, Location, PathStep
from retracelint.objects import Origin, _is_read, _literal
from retracelint.propagate import Propagation
from retracelint.returned import as_called, promoted_at_least, returned_dtype, strong_dtype
from retracelint.summarise.promotion import (
    at_least,
    floor_of,
    kind_rank,
    promoted_floor,
)
from retracelint.summary import Arg, CallSite, Carried, FunctionSummary
from retracelint.values import (
    _NOT_NONE,
    ARRAY,
    DICT,
    FLIP_KINDS,
    FLOAT,
    FLOAT_LIKE,
    FOLLOWS,
    INT,
    JIT_OUT,
    JIT_OUT_WEAK,
    LIST,
    MADE_STRONG,
    MADE_WEAK,
    NONE,
    NP_ARRAY,
    NP_SCALAR,
    NUMPY_DATA,
    STRONG,
    TUPLE,
    UNKNOWN,
    UNSURE,
    WEAK,
    FieldDep,
    Made,
    ParamDep,
    ParamSrc,
    RetDep,
    Value,
    canonical_dtype,
    dtype_kind,
    items_of,
    kinds_differ,
    made_objects,
    weak_class,
    weak_kind,
    weak_said,
)

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL105", "RTL201", "RTL202", "RTL401", "RTL402", "RTL403")


# A flip makes one more trace, whatever its rule says of a shape that changes on every call.
_ONCE_MORE = "warning"
# What differs between the traces of a flip.
_FLIPPED = {
    "RTL105": "shape",
    "RTL401": "weak type",
    "RTL402": "dtype",
    "RTL403": "pytree structure",
}


def _carries(fn: FunctionSummary) -> bool:
    return bool(fn.carried)


# ``state = init()`` then ``state = step(state, x)`` in a loop: the first call gets the start, the next
# ones what ``step`` returned. jax keeps a weak leaf weak through jit only when every leaf it is made
# from is weak; a NamedTuple and a tuple are different pytrees (measured on jax 0.10.2).
def carried_flip_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    for fn in prop.functions_with(_carries):
        if prop.frequency.traced(fn.qualname):
            continue
        # Items of one call's result that flip together (``pos, vel = leapfrog(pos, vel, dt)``)
        # make one re-trace: told once, at the first known exactly (not ``_AT_LEAST``).
        per_call: dict[int, list[tuple[bool, Finding]]] = {}
        unflipped: dict[int, list[tuple[_CarriedCall, Value]]] = {}
        for carried in fn.carried:
            jitted = project.jitted_at((fn.qualname, carried.call))
            call = fn.calls[carried.call]
            # What the jitted call is passed, and where: this call, or a forwarder's (``__call__``
            # returning ``self._forward(self.params, x, cache)``) that this one reaches.
            through = (
                _Forwarded(jitted[0], jitted[1], fn, call, carried.name)
                if jitted is not None
                else _forwarded(prop, fn, carried.call, carried.name)
            )
            if through is None or through.wrapped.returns is None:
                continue
            binding, wrapped = through.binding, through.wrapped
            passed = next(
                (
                    (p.name, a)
                    for p in binding.params[binding.offset :]
                    if (a := binding.signature.arg(through.call, p.name)) is not None
                    and _carried_as(a.text, through.name)
                ),
                None,
            )
            param, arg = passed if passed is not None else (None, None)
            # One item of what a call returns (``return opt.apply(...)``): that call's tuple.
            whole = wrapped.returns
            if carried.item is not None and not whole.items:
                whole = _unpacked(prop, wrapped, whole) or whole
            returned = _item(whole, carried.item)
            handed = param is None or carried.later  # its result reaches the calls before it
            if handed and returned is not None and carried.start.value.param is None:
                at = _CarriedCall(fn, carried, binding, call, "", wrapped)
                yield from _handed_on(prop, at, returned)
                continue
            if handed or returned is None or binding.static_at(through.call, param):
                continue
            # A copy with some fields replaced carries the others (``data._replace(ctrl=u)``).
            replaced = (
                frozenset(n for n, _ in arg.value.fields)
                if arg.text != through.name
                else frozenset()
            )
            at = _CarriedCall(fn, carried, binding, call, param, wrapped, replaced)
            if through.owner is not fn:
                at = replace(at, passing=through)
            if carried.loop is not None:
                yield from _carried_static_parts(prop, at, returned)
            found = _told(prop, at, returned)
            if found is not None:
                per_call.setdefault(carried.call, []).append(found)
            else:
                unflipped.setdefault(carried.call, []).append((at, returned))
        # Another state the call carries stands for what its first call passes (``params, mu =
        # step(params, mu, x)``: mu promoted with params' start) when that state does not flip
        # itself: one that does (a float64 search state widening x) is the flip to tell.
        for index, steady in unflipped.items():
            names = frozenset(at.carried.name for at, _ in steady)
            for at, returned in steady if len(names) > 1 and index not in per_call else ():
                again = replace(at, steady=names - {at.carried.name})
                found = _told(prop, again, returned)
                if found is not None:
                    per_call.setdefault(index, []).append(found)
        yield from (min(told, key=lambda t: t[0])[1] for told in per_call.values())


def _told(prop: Propagation, at: _CarriedCall, returned: Value) -> tuple[bool, Finding] | None:
    """The flip of the state ``at`` carries against what the jitted function gives back
    (``returned``), as a finding, with whether its new dtype is only known to be at least one."""
    fn, carried, call = at.fn, at.carried, at.call
    loop = carried.loop
    if carried.start.value.param is not None:
        if loop is None:
            return None  # what a parameter starts as is its callers' to say (``weak.py``)
        flip = (
            _param_start_flip(prop, at, returned)
            or _param_dtype_flip(prop, at, returned)
            or _param_tree_flip(prop, at, returned)
        )
        rebound = f"in the loop at {where_text(fn.loops[loop].location)}"
    elif loop is None:
        # Stored back on every call of a method that runs repeatedly, or in a loop of it.
        again = bool(call.loops) or prop.repeated(fn.qualname)
        flip = _attribute_flip(prop, at, returned) if again else None
        rebound = f"in {fn.name}()"
    else:
        flip = _carried_flip(prop, at, returned)
        rebound = f"in the loop at {where_text(fn.loops[loop].location)}"
    if flip is None:
        return None
    code, what, where, first, then = flip
    site = jit_site(at.binding)
    # Through a forwarder: the jitted call it makes is named, and is the path's last step.
    jitted = at.passing.call if at.passing is not None else call
    head, details = _flip_sentence(
        code,
        f"{what} starts as {first} {_said(first, then)} {then}",
        f"{shown_code(call.text)}() returns it",
        site,
        jitted.text,
        f"{carried.name} = {shown_code(call.text)}(...) {rebound}",
    )
    steps = (PathStep(fn.qualname, call.text, call.location),)
    if at.passing is not None:
        steps += (PathStep(at.passing.owner.qualname, jitted.text, jitted.location),)
    found = make_finding(code, head, details, where, site, at.param, steps, severity=_ONCE_MORE)
    if carried.start.text == "None" and first != "None":
        found = replace(found, runs_with=_start_made(carried.start, where))
    return then.startswith(_AT_LEAST), found


def _start_made(start: Arg, told: Location) -> tuple[Location, ...]:
    """Where the object a carried state starts as is made, when the start told (``told``, a
    ``None``) is another binding joined with it (``cache = None`` then ``if use_cache: cache =
    Cache(...)``): the one construction its start value may be."""
    made = {m.at for m in (*start.value.objs, *start.value.elements) if isinstance(m, Made)}
    if len(made) != 1:
        return ()
    at = made.pop()
    return () if at.path != told.path or told.starts_in(at) or at.starts_in(told) else (at,)


def _node_made(prop: Propagation, start: Arg, value: Value) -> Location | None:
    """Where the one object a carried state starts as is constructed, when the start is the call
    that makes it (``self.cell.initial_state(batch)`` returning ``LSTMState(zeros, zeros)``): the
    node the step does not give back is made there, not at the call that hands it on. None for a
    start joined with other bindings (``cache = None``, then ``Cache(...)`` under a flag)."""
    made = {m for m in value.objs if isinstance(m, Made) and not m.path}
    one = made.pop() if len(made) == 1 else None
    return prop.construction_site(one) if one is not None and one.at == start.location else None


def _said(first: str, then: str) -> str:
    """What joins the two kinds of a flip in its sentence, for the place it is told: where the state
    starts, else where the wider operand or the other kind is made."""
    if first.endswith(_DEFAULT) or then == _MASK or then.startswith(_PLAIN):
        return "and is made here into"
    return "and is promoted here to" if then.endswith(_WIDER) else "here and is"


def _handed_on(prop: Propagation, at: _CarriedCall, returned: Value) -> Iterator[Finding]:
    """A name a loop rebinds to what one jitted function returns (``state, timestep =
    env_step(state, action)``) and hands, before that, to another jitted function (``agent_step(...,
    timestep, ...)``): the other one's first call gets the start (``reset``'s timestep), the next
    ones ``env_step``'s result. Compared as a carried state is (``_carried_flip``, ``at`` being
    the rebinding call) and told for the jitted function that gets it."""
    fn, carried = at.fn, at.carried
    if carried.loop is None:
        return
    flip = None
    for index, call in enumerate(fn.calls[: carried.call]):
        jitted = (
            prop.project.jitted_at((fn.qualname, index)) if carried.loop in call.loops else None
        )
        if jitted is None:
            continue
        binding = jitted[0]
        param = next(
            (
                p.name
                for p in binding.params[binding.offset :]
                if (a := binding.signature.arg(call, p.name)) is not None
                and a.text == carried.name
                and not binding.static_at(call, p.name)
            ),
            None,
        )
        if param is None:
            continue
        flip = flip or _carried_flip(prop, at, returned)
        if flip is None:
            return
        code, what, where, first, then = flip
        site = jit_site(binding)
        head, details = _flip_sentence(
            code,
            f"{what} starts as {first} {_said(first, then)} {then}",
            f"{shown_code(at.call.text)}() returns it",
            site,
            call.text,
            f"{carried.name} = {shown_code(at.call.text)}(...) in the loop at"
            f" {where_text(fn.loops[carried.loop].location)}, after {shown_code(call.text)}()"
            " is given it",
        )
        step = PathStep(fn.qualname, call.text, call.location)
        yield make_finding(code, head, details, where, site, param, (step,), severity=_ONCE_MORE)


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
        for attr in prop.project.symbols.static_fields(cls):
            own = f"{at.param}.{attr}"
            results = prop.value_origins(jitted, Arg(returned, jitted.location, ""), attr, (), 0)
            for owner, origin, _ in results:
                value = origin.value
                passed_on = value.param == own or value.objs == frozenset({own})
                if owner is not jitted or passed_on or ParamSrc(own) not in value.vsrc:
                    continue
                when, loop = when_text(prop.loop_driver(fn, carried.loop or 0), origin.location)
                float_ = value.ty in (FLOAT, FLOAT_LIKE)
                jitted_name = jitted_text(site, at.call.text)
                head = (
                    f"static field {name}.{attr} is computed anew by {jitted_name} and passed"
                    f" back {when}, so it re-traces on every call"
                )
                details = [
                    f"{jitted_name} computes {name}.{attr} of the '{at.param}' it gets, and"
                    f" {carried.name} = {shown_code(at.call.text)}(...) passes the result back",
                    loop,
                    "the static fields of a pytree are part of the cache key",
                ]
                # Computed by a helper the body calls (``state.apply_gradients(grads)``), not
                # written in it: told where the class makes the field static.
                helper = not _written_in_body(jitted, origin.location)
                declared = prop.project.symbols.static_declared(cls, attr) if helper else None
                yield make_finding(
                    "RTL202" if float_ else "RTL201",
                    head,
                    details,
                    value.made or declared or origin.location,
                    site,
                    at.param,
                    (step,),
                    prop.loop_driver(fn, carried.loop or 0),
                    STATIC_FIELD_FIX,
                )


def _written_in_body(fn: FunctionSummary, at: Location) -> bool:
    """Whether ``at`` is an expression in the body of ``fn``, not ``fn`` itself nor another
    function's code."""
    own = fn.location
    return at.path == own.path and own.line <= at.line <= own.end_line and at != own


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
    # Where the start is made, when not in ``fn``: the ``__init__`` that stores an attribute.
    start_fn: FunctionSummary | None = None
    # The other states the call carries that do not flip: their starts are what its first call
    # passes for them (``carried_flip_findings``).
    steady: frozenset[str] = frozenset()
    # The jitted call ``call`` reaches through a forwarder, which passes the other arguments.
    passing: _Forwarded | None = None


@dataclass(frozen=True)
class _Forwarded:
    """A jitted call as it is made: its binding, the function it wraps, the function that makes it
    and the call there, and the name the carried value has there."""

    binding: JitBinding
    wrapped: FunctionSummary
    owner: FunctionSummary
    call: CallSite
    name: str


def _forwarded(prop: Propagation, fn: FunctionSummary, index: int, name: str) -> _Forwarded | None:
    """The jitted call that ``fn``'s call ``index`` (passing the carried ``name``) reaches when it
    calls a function that gives back that call's whole result as it is (a model's ``__call__``
    returning ``self._forward(self.params, ids, cache)``): what the carried value comes back as is
    what the jitted function returns. None for any other call, or one passing ``name`` otherwise
    than as one of the forwarder's parameters."""
    call = fn.calls[index]
    targets = prop.project.site_targets.get((fn.qualname, index), ())
    (target,) = targets if len(targets) == 1 else (None,)
    if not isinstance(target, FuncTarget):
        return None
    owner = prop.project.function(target.qualname)
    back = owner.returns
    if back is None or back.ty not in (UNKNOWN, JIT_OUT) or len(back.deps) != 1:
        return None
    (dep,) = back.deps
    if not isinstance(dep, RetDep) or dep.item is not None or dep.elem is not None or dep.below:
        return None
    jitted = prop.project.jitted_at((owner.qualname, dep.call))
    if jitted is None:
        return None
    seen = prop.project.signature(target, owner)
    param = next(
        (
            p.name
            for p in owner.params[seen.offset :]
            if (a := seen.arg(call, p.name)) is not None and _carried_as(a.text, name)
        ),
        None,
    )
    if param is None:
        return None
    return _Forwarded(jitted[0], jitted[1], owner, owner.calls[dep.call], param)


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


def _param_dtype_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """A state that comes in as a parameter (``def relax(field)`` rebinding ``field =
    diffuse(field, alpha)`` in its loop), typed where every caller makes what it passes
    (``as_called``: a float32 plate), against the dtype the jitted function gives it back in (a
    float16 cast). Told where the callers' dtype is decided."""
    typed = as_called(prop, at.fn, at.carried.start.value)
    if typed.param is not None or typed.made is None:
        return _param_fields_retyped(prop, at, returned)
    kinds = _dtype_flip(prop, at, typed, returned)
    if kinds is not None:
        return "RTL402", at.carried.name, typed.made, *kinds
    widened = _floor_flip(prop, at, typed, returned)
    return None if widened is None else ("RTL402", at.carried.name, *widened)


def _param_fields_retyped(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """A NamedTuple or dataclass state that comes in as a parameter (``def accumulate(stats,
    batches)``), a field of which a caller makes in one dtype (``Stats(jnp.zeros((), jnp.int32),
    ...)`` in a factory) and the jitted function gives back in another (``stats.count + n * 1.0``):
    told where that caller's field is made."""
    for caller, _, passed, _ in prop.caller_args(at.fn, at.carried.name):
        flip = _fields_retyped(prop, at, caller, passed, returned)
        if flip is not None:
            return flip
    return None


def _param_tree_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """A state that comes in as a parameter, passed by a caller as another pytree node than the
    jitted function gives back (a checkpoint's ``.tolist()`` for the step's tuple): the first call
    of that run traces anew. Told where that caller's value is made."""
    then = tree_node(prop, at.jitted, prop.resolve(at.jitted, returned))
    if then is None:
        return None
    for caller, _, passed, _ in prop.caller_args(at.fn, at.carried.name):
        start = prop.resolve(caller, passed.value)
        first = tree_node(prop, caller, start)
        if first is not None and trees_differ(first, then):
            return (
                "RTL403",
                at.carried.name,
                _made_in(prop, caller, passed) or passed.location,
                first,
                then,
            )
    return None


def _made_in(prop: Propagation, fn: FunctionSummary, passed: Arg) -> Location | None:
    """Where ``passed`` (in ``fn``) is made: there, or in the function whose result it is
    (``step, params, opt_state = restore(path)``: the ``.tolist()`` in ``restore``)."""
    if passed.value.made is not None or len(passed.value.deps) != 1:
        return passed.value.made
    (dep,) = passed.value.deps
    result = prop.call_result(fn, dep, 0) if isinstance(dep, RetDep) else None
    return result.made if result is not None else None


def _given_back(prop: Propagation, at: _CarriedCall, returned: Value, name: str) -> list[Origin]:
    """Where field ``name`` of the state the jitted function returns (``returned``) is made."""
    return prop.value_origins(at.jitted, Arg(returned, at.jitted.location, ""), name, (), 0)


def _strong_back(prop: Propagation, at: _CarriedCall, made: list[Origin]) -> bool:
    """Whether the leaf the jitted function gives back, made at ``made``, is strongly typed: made
    in it or in the traced helpers it calls (a ``lax.scan`` body's environment step)."""
    kinds = {
        _made_kind(prop, at, owner, r.value) for owner, r, _ in made if _traced(prop, at, owner)
    }
    return kinds == {STRONG}


def _traced(prop: Propagation, at: _CarriedCall, owner: FunctionSummary) -> bool:
    return owner is at.jitted or (owner is not at.fn and prop.frequency.traced(owner.qualname))


def _made_kind(
    prop: Propagation, at: _CarriedCall, owner: FunctionSummary, leaf: Value
) -> str | None:
    """How weakly typed a leaf of the result is where ``owner`` makes it: in the jitted function,
    or in a helper it traces, unless made from the helper's own parameters (not the jitted
    function's, whose first call ``_result_weak`` asks)."""
    if owner is not at.jitted and any(isinstance(d, ParamDep) for d in leaf.deps):
        return None
    return _result_weak(prop, at, leaf)


def _carried_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """(rule, what, where, kind first, kind then): the pytree of the start against the jitted
    function's result, then each field of a NamedTuple or dataclass state."""
    fn, carried, jitted = at.fn, at.carried, at.jitted
    start = (
        _unpacked(prop, fn, carried.start.value)
        or _jit_result(prop, fn, carried.start.value)
        or prop.resolve(fn, carried.start.value)
    )
    given, returned = returned, _unpacked(prop, jitted, returned) or prop.resolve(jitted, returned)
    # One item of the result, a lax loop's carry, or a function the summary could not see jitted (one
    # imported from another module): the summary's loop-carried flips leave it to this check.
    if not _weak_told(at, start) and _weak_then_strong(prop, at, start, returned):
        # A weak type that arithmetic decides (``jnp.arange(n) / rate`` in a helper) is told there.
        weak_at = start.made if start.weak == MADE_WEAK else None
        return (
            "RTL401",
            carried.name,
            weak_at or carried.start.location,
            weak_said(WEAK, start),
            STRONG,
        )
    typed = as_called(prop, fn, start)
    kinds = _dtype_flip(prop, at, typed, returned)
    if kinds is not None:
        return "RTL402", carried.name, typed.made or carried.start.location, *kinds
    widened = _floor_flip(prop, at, typed, returned)
    if widened is not None:
        return "RTL402", carried.name, *widened
    relabelled = _static_relabelled(prop, at, start, returned)
    if relabelled is not None:
        return relabelled
    back = [(jitted, Arg(returned, jitted.location, ""), ())]
    if _starts_empty(prop, fn, carried.start) and _filled(prop, at, back):
        return "RTL105", carried.name, carried.start.location, _EMPTY, _FILLED
    first = tree_node(prop, fn, start)
    then = tree_node(prop, jitted, returned) or made_leaf(returned, at.param)
    grown = _keys_added(start, returned, at.param)
    if first is not None and grown is not None:
        return "RTL403", carried.name, carried.start.location, first, grown
    if start.ty == NONE and _never_none(prop, jitted, returned):
        return "RTL403", carried.name, carried.start.location, "None", "an array"
    if first is None or then is None:
        return None
    if trees_differ(first, then):
        if at.param:  # given back to itself: ``fixes/record_start.py`` starts it as the tuple
            return (
                "RTL403",
                carried.name,
                _node_made(prop, carried.start, start) or carried.start.location,
                first,
                then,
            )
        where, then = _node_told(prop, at, fn, start, given, then)  # handed to another function
        return "RTL403", carried.name, where, first, then
    item = _item_flip(prop, at, start, returned, carried.name)
    if item is not None:
        return item
    cls = min(prop.classes_of_value(fn, start), default=None)  # not a set's order: the hash seed's
    if cls is None:
        return None
    x64 = prop.x64(at.fn)
    for name in _leaf_paths(prop, fn, carried.start, cls, 0):
        if name.partition(".")[0] in at.replaced:
            continue
        starts = prop.value_origins(fn, carried.start, name, (), 0)
        results = _given_back(prop, at, returned, name)
        if len(starts) != 1 or not results:
            continue
        owner, origin, _ = starts[0]
        leaf = as_called(prop, owner, origin.value)
        if leaf.ty == NONE and all(_never_none(prop, o, r.value) for o, r, _ in results):
            return "RTL403", f"{carried.name}.{name}", origin.location, "None", "an array"
        if _starts_empty(prop, owner, origin) and _filled(prop, at, results):
            return "RTL105", f"{carried.name}.{name}", origin.location, _EMPTY, _FILLED
        added = {
            (_keys_added(leaf, r.value, None), r.value.made)
            for o, r, _ in results
            if o is at.jitted
        }
        if len(added) == 1 and (then := (grown_at := added.pop())[0]) is not None:
            # Told where the start's dict is written (a display), else where it is packed; but a
            # class's default is every instance's: told where the step adds the keys.
            first = tree_node(prop, owner, leaf) or "a dict"
            if _class_default(prop, origin) and grown_at[1] is not None:
                return "RTL403", f"{carried.name}.{name}", grown_at[1], first + _DEFAULT, then
            return "RTL403", f"{carried.name}.{name}", leaf.made or origin.location, first, then
        reshaped = _field_tree_flip(prop, at, owner, leaf, results)
        if reshaped is not None:
            return (
                "RTL403",
                f"{carried.name}.{name}",
                reshaped[0] or leaf.made or origin.location,
                *reshaped[1:],
            )
        if weak_kind(leaf, x64) == WEAK and _strong_back(prop, at, results):
            # Told where the weak leaf is made (``jnp.full(n, -1)``), not where it is packed.
            return (
                "RTL401",
                f"{carried.name}.{name}",
                leaf.made or origin.location,
                weak_said(WEAK, leaf),
                STRONG,
            )
        flip = _field_dtype_flip(prop, at, f"{carried.name}.{name}", leaf, origin, results)
        if flip is not None:
            return flip
    return None


def _field_dtype_flip(
    prop: Propagation, at: _CarriedCall, what: str, leaf: Value, origin: Arg, results: list[Origin]
) -> tuple[str, str, Location, str, str] | None:
    """RTL402 for a field of the state that starts as ``leaf`` (stored at ``origin``) and that the
    jitted function gives back (``results``) in another dtype, or promoted above it."""
    dtypes = {_dtype_flip(prop, at, leaf, r.value) for o, r, _ in results if o is at.jitted}
    if len(dtypes) == 1 and (kinds := dtypes.pop()) is not None:
        mask = _mask_made(prop, at, results) if kinds[1] == "bool" else None
        if mask is not None:
            return "RTL402", what, mask, kinds[0], _MASK
        return "RTL402", what, leaf.made or origin.location, *kinds
    widened = {_floor_flip(prop, at, leaf, r.value) for o, r, _ in results if o is at.jitted}
    if len(widened) == 1 and (found := widened.pop()) is not None:
        return "RTL402", what, *found
    return None


def _fields_retyped(
    prop: Propagation, at: _CarriedCall, owner: FunctionSummary, stored: Arg, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """RTL402 for a field of a NamedTuple or dataclass that ``owner`` stores on ``self``
    (``stored``: ``self.state = energy.start(...)`` in ``__init__``) and that the jitted function a
    method stores back gives back in another dtype (``self.state = watch(self.state, x)``)."""
    cls = min(prop.classes_of_value(owner, stored.value), default=None)
    for name in _leaf_paths(prop, owner, stored, cls, 0) if cls is not None else ():
        starts = prop.value_origins(owner, stored, name, (), 0)
        results = _given_back(prop, at, returned, name)
        if len(starts) != 1 or not results:
            continue
        maker, origin, _ = starts[0]
        leaf = as_called(prop, maker, origin.value)
        flip = _field_dtype_flip(prop, at, f"{at.carried.name}.{name}", leaf, origin, results)
        if flip is not None:
            return flip
    return None


_EMPTY = "an empty array (an axis of length 0)"
_FILLED = "filled"


def _starts_empty(prop: Propagation, owner: FunctionSummary, start: Arg) -> bool:
    """Whether a leaf starts with an axis of length 0 (``jnp.zeros((0, d))``: a buffer the first
    step is to fill)."""
    return 0 in (prop.known_axes(owner, start, arrays=True) or ())


def _emptied(
    prop: Propagation, at: _CarriedCall, fn: FunctionSummary, start: Arg, returned: Value
) -> tuple[str, Location] | None:
    """The first field of a NamedTuple or dataclass state (``start``, made in ``fn``: what
    ``__init__`` stores on ``self``) that starts empty and comes back filled: its path, and where
    the empty array is made."""
    cls = min(prop.classes_of_value(fn, start.value), default=None)
    for name in _leaf_paths(prop, fn, start, cls, 0) if cls is not None else ():
        starts = prop.value_origins(fn, start, name, (), 0)
        if len(starts) != 1 or not _starts_empty(prop, starts[0][0], starts[0][1]):
            continue
        if _filled(prop, at, _given_back(prop, at, returned, name)):
            return name, starts[0][1].location
    return None


def _filled(prop: Propagation, at: _CarriedCall, results: list[Origin]) -> bool:
    """Whether every array the jitted function gives back for a leaf that starts empty is computed
    from what the call passes, none of it a leaf of the carried state that starts empty (nor the
    state whole): it has the lengths of what it is made of, not the start's 0. A constant, or
    arithmetic on the empty leaf itself (``buf * 2``), stays empty and is no flip."""
    if not results:
        return False
    for owner, result, _ in results:
        back = prop.resolve(owner, result.value)
        if owner is not at.jitted or back.ty != ARRAY or not back.deps:
            return False
        if 0 in (prop.known_axes(owner, result, arrays=True) or ()):
            return False
        for dep in back.deps:
            if not isinstance(dep, ParamDep) or _empty_leaf(prop, at, dep.name):
                return False
    return True


def _empty_leaf(prop: Propagation, at: _CarriedCall, name: str) -> bool:
    """Whether parameter ``name`` (``data.qM``) is the carried state, or a leaf of it that starts
    empty, as far as the start shows; a leaf it does not show counts as empty."""
    head, _, path = name.partition(".")
    if head != at.param:
        return False
    if not path:
        return True
    starts = prop.value_origins(at.fn, at.carried.start, path, (), 0)
    return not starts or any(_starts_empty(prop, owner, start) for owner, start, _ in starts)


def _field_tree_flip(
    prop: Propagation,
    at: _CarriedCall,
    owner: FunctionSummary,
    leaf: Value,
    results: list[Origin],
) -> tuple[Location | None, str, str] | None:
    """(where, first, then): a field of the carried state that starts as one pytree node
    (``skip_state=()`` in ``init``) and that the jitted function, or a helper it traces, gives back
    as another (the update's ``{"should_skip": ..., "num_not_finite": ...}``), the same one
    wherever it is made. A class's instance (a FrozenDict from ``init``) given back as a plain
    container is told where the jitted function gives that back, as ``_node_told`` tells a whole
    state; else where it starts (None)."""
    first = tree_node(prop, owner, leaf)
    traced = [(o, r) for o, r, _ in results if _traced(prop, at, o)]
    backs = {tree_node(prop, o, prop.resolve(o, r.value)) for o, r in traced}
    if first is None or len(backs) != 1 or None in backs:
        return None
    then = backs.pop()
    if then is None or not trees_differ(first, then):
        return None
    plain = then.startswith(("a tuple", "a list", "a dict")) and prop.classes_of_value(owner, leaf)
    written = {r.location for o, r in traced if o is at.jitted}
    if plain and len(written) == 1:
        return written.pop(), first, _PLAIN + then.removeprefix("a ")
    return None, first, then


def _node_flip(
    prop: Propagation, at: _CarriedCall, owner: FunctionSummary, start: Value, returned: Value
) -> tuple[Location, str, str] | None:
    """(where, first, then): a state stored as one pytree node (a ``Moments`` NamedTuple a factory
    makes) that the jitted function gives back as another (the plain tuple a helper it calls
    returns)."""
    back = _unpacked(prop, at.jitted, returned) or prop.resolve(at.jitted, returned)
    first, then = tree_node(prop, owner, start), tree_node(prop, at.jitted, back)
    if first is None or then is None or not trees_differ(first, then):
        return None
    where, then = _node_told(prop, at, owner, start, returned, then)
    return where, first, then


def _node_told(
    prop: Propagation,
    at: _CarriedCall,
    owner: FunctionSummary,
    start: Value,
    returned: Value,
    then: str,
) -> tuple[Location, str]:
    """(where, node then): an attribute, or a state handed to another jitted function, that starts
    as an instance of a class (a NamedTuple, a registered dataclass) and comes back as a plain tuple,
    list or dict is told where the jitted function, or a helper it calls, writes that container
    (``return tuple((n, mean))``, a display of literal keys), the node that loses the class; else where the state starts. (A
    state a loop hands back to the same step is told where it starts, where
    ``fixes/record_start.py`` starts it as the tuple.)"""
    back = prop.resolve(at.jitted, returned)
    plain = back.made if back.ty in (TUPLE, LIST, DICT) else None
    if plain is None or not prop.classes_of_value(owner, start):
        return at.carried.start.location, then
    return plain, _PLAIN + then.removeprefix("a ")


def _static_relabelled(
    prop: Propagation, at: _CarriedCall, start: Value, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """A static field of a pytree class (``tree_flatten``'s aux data, a static field) that the
    state starts with as one literal and the jitted function gives back as others (a loader's
    ``Length(x, "angstrom")``, the step's ``Length(..., "nm")``): the treedef differs from the
    second call on. Told where the start's literal is written."""
    returned_arg = Arg(returned, at.jitted.location, "")
    for cls in sorted(prop.classes_of_value(at.fn, start)):
        for attr in prop.project.symbols.static_fields(cls):
            starts = prop.value_origins(at.fn, at.carried.start, attr, (), 0)
            backs = prop.value_origins(at.jitted, returned_arg, attr, (), 0)
            if len(starts) != 1 or not backs:
                continue
            first = _literal(starts[0][1])
            then = {_literal(origin) for _, origin, _ in backs}
            if first is None or None in then or first in then:
                continue
            shown = ", ".join(sorted(repr(value) for _, value in then if value is not None))
            return (
                "RTL403",
                f"{at.carried.name}.{attr}",
                starts[0][1].location,
                f"{first[1]!r} (static: part of the treedef)",
                shown,
            )
    return None


_NESTED = 2  # how many levels of NamedTuples or dataclasses within the state are looked into


def _leaf_paths(
    prop: Propagation, fn: FunctionSummary, start: Arg, cls: str, depth: int
) -> list[str]:
    """The fields of a NamedTuple or dataclass state (not its static ones), each followed by the
    fields within it when it starts as one too (``learner_state.timestep.reward``: a timestep an
    environment's ``restart()`` builds, carried in the learner's state)."""
    symbols = prop.project.symbols
    static = set(symbols.static_fields(cls))
    out: list[str] = []
    for name in symbols.init_fields(cls):
        if name in static:
            continue
        out.append(name)
        starts = prop.value_origins(fn, start, name, (), 0) if depth < _NESTED else []
        if len(starts) != 1:
            continue
        owner, origin, _ = starts[0]
        inner = min(
            prop.classes_of_value(owner, as_called(prop, owner, origin.value)), default=None
        )
        if inner is not None and inner != cls:
            out.extend(
                f"{name}.{path}" for path in _leaf_paths(prop, owner, origin, inner, depth + 1)
            )
    return out


_DEFAULT = ", its class's default,"  # a start every instance has (``_class_default``)


_PLAIN = "a plain "  # a class's instance given back as a container, told where that is written
_MASK = "bool (a test's result)"  # a number given back as a bool, told where the bool is made


def _mask_made(prop: Propagation, at: _CarriedCall, results: list[Origin]) -> Location | None:
    """Where the jitted function makes the bool array it gives back for a leaf that started as a
    number (``reward = jnp.logical_and(...)`` against a float32 zero at reset): a test's result
    stored where a number was is the odd one, and a cast there the fix."""
    made = {prop.resolve(o, r.value).made for o, r, _ in results if o is at.jitted}
    return made.pop() if len(made) == 1 else None


def _class_default(prop: Propagation, start: Arg) -> bool:
    """Whether ``start`` is the default a class declares for a field (``field(default_factory=
    dict)``): what every instance the constructor leaves it to starts with."""
    return any(start in cls.field_defaults.values() for cls in prop.project.classes.values())


def _item_flip(
    prop: Propagation, at: _CarriedCall, start: Value, returned: Value, what: str
) -> tuple[str, str, Location, str, str] | None:
    """An item of a tuple, list or dict state (``args = (rate, threshold)``, ``{"count": 0,
    ...}``) that starts weakly typed and comes back strong, item by item and into nested ones;
    reported where the item is written, or else where the state is made."""
    if not returned.items:
        returned = _unpacked(prop, at.jitted, returned) or returned
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
    made_in = at.start_fn or at.fn  # the start's items in the terms of where it is made
    for leaf, begin, back in pairs:
        begin = _unpacked(prop, made_in, begin) or prop.resolve(made_in, begin)
        back = _unpacked(prop, at.jitted, back) or back
        if begin.items or (begin.ty == DICT and items_of(begin)):
            found = _item_flip(prop, at, begin, back, leaf)
            if found is not None:
                return found
        elif _weak_then_strong(prop, at, begin, back):
            # A number a helper returns is reported where the helper writes it.
            return (
                "RTL401",
                leaf,
                begin.made or at.carried.start.location,
                weak_said(WEAK, begin),
                STRONG,
            )
        elif kinds := _dtype_flip(prop, at, typed := as_called(prop, made_in, begin), back):
            return "RTL402", leaf, typed.made or at.carried.start.location, *kinds
        elif widened := _floor_flip(prop, at, typed, back):
            return "RTL402", leaf, *widened
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
    first = strong_dtype(start, x64)
    if first is None:
        return None
    passed = lambda name: _first_call_values(prop, at, name)  # noqa: E731
    then = returned_dtype(prop, at.jitted, back, passed, x64)
    if then is None:
        # Arithmetic with a helper's result too: at least what the parameters promote to.
        least = promoted_at_least(prop, at.jitted, back, passed, x64)
        then = _AT_LEAST + least if least is not None and not at_least(first, least, x64) else None
    return (first, then) if then is not None and then != first else None


# A floor that is a weak node of the lattice: a float (or complex number) of whatever precision the
# other operands give, as jax promotes a Python float with an int array.
_KIND_SAID = {"float": "a float (promoted in the jitted function)", "complex": "complex"}
_KIND_OF = {"f": "a float", "b": "a float", "c": "complex"}  # by a dtype's first letter
_AT_LEAST = "at least "  # a dtype the known operands promote to, the others only widening it
_WIDER = " or wider"  # a dtype a floor says the leaf is at least (``_floor_flip``)


def _floor_flip(
    prop: Propagation, at: _CarriedCall, start: Value, back: Value
) -> tuple[Location, str, str] | None:
    """(where, dtype first, dtype then) for a strongly typed leaf that the jitted function gives
    back promoted with a strongly typed operand of a dtype it does not reach (``Value.floor``:
    ``reg * jnp.eye(n)`` is float64 under x64 whatever ``reg`` is, so a float32 state comes back
    float64): another dtype from the second call on. Told where that operand is made, but for a
    real state made complex (a gate applied to a ``jnp.zeros(n)`` state vector): no cast drops the
    imaginary part, so the state must start complex, and it is told where it starts."""
    x64 = prop.x64(at.fn)
    first = strong_dtype(start, x64)
    if first is None:
        return None
    back = prop.resolve(at.jitted, back)
    floor = floor_of(back) if back.dtype is None else None
    if floor is None:
        floor = _passed_floor(prop, at, back)
    if floor is None or at_least(first, floor[0], x64):
        return None
    then = canonical_dtype(floor[0], x64)
    said = _KIND_SAID.get(then) or f"{then}{_WIDER}"
    if kind_rank(then) > kind_rank(first) and start.made is not None:
        # Of another kind (an int state made float by ``fuel - 2.5 * thrust``, a real one made
        # complex by a gate): no cast back keeps the fraction or the imaginary part, so the state
        # must start of that kind, and it is told where it starts.
        return start.made, first, said if then in _KIND_SAID else f"{_KIND_OF[then[0]]} ({said})"
    return floor[1], first, said


def _passed_floor(prop: Propagation, at: _CarriedCall, back: Value) -> tuple[str, Location] | None:
    """The float floor of a leaf the jitted function promotes from what it is given and what it
    reads of objects (``jnp.where(accept, proposals, samples)``, ``0.8 * density + 0.2 * target``),
    for what the first call passes: proposals
    flipped on the host by a float64 NumPy matrix make it float64 or wider. What is not known only
    widens it."""
    if back.dtype is not None or back.dtype_of is not None or back.parted:
        return None
    if back.weak == MADE_STRONG or (
        weak_class(back) != FOLLOWS and back.weak != UNSURE and back.ty != FLOAT_LIKE
    ):
        # Not arithmetic on what it is given, or with an operand whose dtype is decided inside
        # (``dt.astype(clock.dtype)``). Arithmetic with an operand of unknown weak type (``2 *
        # moved`` of a bool mask) is still arithmetic on what it is given.
        return None
    if back.ty not in (ARRAY, FLOAT_LIKE):
        return None  # of unknown kind: what it depends on need not be its operands (a lax carry)
    given: list[Value] = []
    for dep in sorted(back.deps, key=str):
        if isinstance(dep, ParamDep):
            given += _first_call_values(prop, at, dep.name) or []
        elif isinstance(dep, FieldDep):
            given.append(prop.field_floor(Value(ty=ARRAY, deps=frozenset({dep}))))
    floor = promoted_floor(given)
    return floor if floor is not None and floor[0].startswith(_INEXACT) else None


_INEXACT = ("float", "bfloat", "complex")


def _passed_for(
    prop: Propagation, at: _CarriedCall, name: str
) -> list[tuple[FunctionSummary, Arg]] | None:
    """What the first call passes for parameter ``name`` (or a field of one, ``state.value``): the
    carried value as it starts, or the argument; each value it may be, with the function making it."""
    base, _, path = name.partition(".")
    call = at.passing.call if at.passing is not None else at.call
    arg = at.carried.start if base == at.param else at.binding.signature.arg(call, base)
    if arg is None:
        return None
    # Passed by a forwarder (``_Forwarded``): what it is there, in the forwarder's callers' terms.
    forwarder = at.passing.owner if at.passing is not None and base != at.param else None
    if base != at.param and forwarder is None and arg.text in at.steady:
        # Another state the call carries too (``params, mu = step(params, mu, x)``): its start.
        arg = next(
            (c.start for c in at.fn.carried if c.call == at.carried.call and c.name == arg.text),
            arg,
        )
    made_in = at.start_fn if base == at.param and at.start_fn is not None else at.fn
    made_in = forwarder or made_in
    if not path:
        return [(made_in, arg)]
    return [(owner, found) for owner, found, _ in prop.value_origins(made_in, arg, path, (), 0)]


def _first_call_values(prop: Propagation, at: _CarriedCall, name: str) -> list[Value] | None:
    passed = _passed_for(prop, at, name)
    return None if passed is None else [as_called(prop, o, a.value) for o, a in passed]


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
    if not isinstance(dep, RetDep) or dep.elem is not None:
        return None
    if dep.item is not None:
        return _nested(prop, fn, dep)
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


def _jit_result(prop: Propagation, fn: FunctionSummary, value: Value) -> Value | None:
    """What a call of a jitted function in ``fn`` gives back (``obs, state = env.reset(key)``: item
    0), as the function it wraps returns it, in ``fn``'s terms: resolving ``fn``'s value stops at
    the jit."""
    if len(value.deps) != 1:
        return None
    (dep,) = value.deps
    if not isinstance(dep, RetDep) or dep.elem is not None or dep.below:
        return None
    site = (fn.qualname, dep.call)
    jitted = prop.project.jitted_at(site)
    if jitted is None or jitted[1].returns is None:
        return None
    wrapped = jitted[1]
    returned = wrapped.returns
    if dep.item is not None:
        returned = _unpacked(prop, wrapped, returned) or returned
        if dep.item >= len(returned.items):
            return None
        returned = returned.items[dep.item]
    seen = prop.project.signature(prop.project.targets.get(site), wrapped)
    given = prop.substitute(
        prop.resolve(wrapped, returned), fn.calls[dep.call], wrapped, seen, None, caller=fn
    )
    given = prop.resolve(fn, given)
    taken = _taken_at(wrapped, returned, given.made)
    return given if taken is None else given.with_(made=taken)


def _taken_at(wrapped: FunctionSummary, item: Value, made: Location | None) -> Location | None:
    """Where the jitted function takes what it returns (``return _render(state), state``) from a
    helper that makes its kind elsewhere (``_render``, which the step calls too): the helper is not
    the one to change, the jitted function's choice of it is."""
    if made is None or made.starts_in(wrapped.location) or len(item.deps) != 1:
        return None
    (dep,) = item.deps
    if not isinstance(dep, RetDep) or dep.call >= len(wrapped.calls):
        return None
    return wrapped.calls[dep.call].location


def _nested(prop: Propagation, fn: FunctionSummary, dep: RetDep) -> Value | None:
    """Item ``dep.item`` of what call ``dep.call`` of ``fn`` returns (and the items ``dep.below``
    within it), when the one function it calls returns a tuple display there too (``return (level, trend), level``: a ``lax.scan``
    body's carry): a tuple of those items, each in ``fn``'s terms."""
    targets = prop.project.site_targets.get((fn.qualname, dep.call), ())
    if len(targets) != 1 or not isinstance(target := targets[0], FuncTarget):
        return None
    callee = prop.project.function(target.qualname)
    returns = callee.returns
    if returns is None or dep.item is None or dep.item >= len(returns.items):
        return None
    inner = returns.items[dep.item]
    for index in dep.below:  # unpacked again: ``state, _ = carry``
        if index >= len(inner.items):
            return None
        inner = inner.items[index]
    if inner.ty not in (TUPLE, LIST) or not inner.items:
        return None
    call = fn.calls[dep.call]
    items = tuple(
        prop.resolve(
            fn,
            prop.substitute(
                prop.resolve(callee, item),
                call,
                callee,
                prop.project.signature(target, callee),
                None,
                caller=fn,
            ),
        )
        for item in inner.items
    )
    return Value(ty=inner.ty, items=items)


def _weak_told(at: _CarriedCall, start: Value) -> bool:
    """Whether the summary's loop-carried flips tell the weak start already: the whole result of a
    jitted function it knows (one of the same module), passed with their ``RTL401`` taint. Of one it
    does not know, only a Python number is weighed here: a weak array (``jnp.where(mask, 1.0,
    -1.0)``) may come back weak from a lax loop whose carry this does not follow."""
    if at.carried.item is not None or at.carried.lax:
        return False
    if start.ty not in (INT, FLOAT):
        return True
    if at.passing is not None:
        return False  # the forwarder's summary sees a parameter: no flip of its own
    arg = at.binding.signature.arg(at.call, at.param)
    return arg is None or any(
        t.code == "RTL401" and t.what.startswith(f"{at.carried.name} ") for t in arg.value.shape
    )


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
    read = _read_back(prop, fn, arg.value) if depth == 0 else None
    if read is not None:
        yield replace(arg, value=read)
        return
    items = items_of(value).values() if value.ty == DICT else value.items
    for item in items:
        yield from _packed_reads(prop, fn, replace(arg, value=item), depth + 1)


def _read_back(prop: Propagation, fn: FunctionSummary, value: Value) -> Value | None:
    """A method's result that is one attribute of its object (``phase = gait.advance(walking)``
    returning ``self.phase``, which it may set first), called on an object made here: that
    attribute read, whose stores ``_field_store_flip`` weighs."""
    if len(value.deps) != 1 or not isinstance(dep := next(iter(value.deps)), RetDep):
        return None
    call = fn.calls[dep.call] if dep.call < len(fn.calls) else None
    target = prop.project.targets.get((fn.qualname, dep.call))
    if call is None or call.receiver is None or not isinstance(target, FuncTarget):
        return None
    returns = prop.project.function(target.qualname).returns
    if returns is None or returns.items or returns.ty in (DICT, LIST, TUPLE):
        return None
    attrs = {o.partition(".")[2] for o in returns.objs if isinstance(o, str)}
    objects = made_objects(call.receiver.value)
    if len(attrs) != 1 or len(returns.objs) != 1 or len(objects) != 1 or dep.item is not None:
        return None
    (attr,) = attrs
    (made,) = objects
    return Value(objs=frozenset({made.attr(attr)})) if attr and "." not in attr else None


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
    owners: dict[int, FunctionSummary] = {}  # the function storing each weak start
    for owner, origin, _, _ in prop.field_candidates(fn, arg, call.loops, ()):
        owners[id(origin)] = owner
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
            and not (prop.paths is not None and prop.paths.overwritten(owner, origin.location))
        ):
            strong.append((owner, origin))
    # A leaf that starts weak in a pytree is strong again only if the jitted result makes it so.
    leaves = [field for _, field in weak if field]
    starts = [origin for origin, field in weak if not field]
    strong = [
        (owner, origin)
        for owner, origin in strong
        if not any(_field_given_back(prop, owner, origin.value, f) for f in leaves)
        and not any(_kept_weak_store(prop, owner, origin, s) for s in starts)
    ]
    if not weak or not strong:
        return
    setter, stored = strong[0]
    attr = stored.text.partition(".")[2]
    init = prop.project.symbols.member(setter.cls, "__init__") if setter.cls else None
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
        f"{setter.name}() stores it at {where_text(stored.location)}",
    )
    # A number a closure of the function storing it gives is told where it is written.
    owner = (
        prop.project.function(init.qualname)
        if computed and isinstance(init, FuncTarget)
        else owners.get(id(where))
    )
    told = _written_in(owner, where.value, where.location) if owner is not None else None
    yield make_finding("RTL401", head, details, told or where.location, site, param, (step,))


def _kept_weak_store(prop: Propagation, owner: FunctionSummary, stored: Arg, start: Arg) -> bool:
    """Whether a store of a jitted function's result, or of an item of it (``self.lr =
    decay(self.lr)``), that the summary takes for strong is weak under jax: the jitted body computes
    the leaf from weak parameters alone (``lr * 0.99``), the stored attribute as it starts
    (``start``) among them."""
    made = [m for m in stored.value.objs if isinstance(m, Made)]
    if stored.value.ty != JIT_OUT or len(made) != 1:
        return False
    index = next((i for i, c in enumerate(owner.calls) if c.location == made[0].at), None)
    jitted = prop.project.jitted_at((owner.qualname, index)) if index is not None else None
    if index is None or jitted is None or jitted[1].returns is None:
        return False
    binding, wrapped = jitted
    call = owner.calls[index]
    param = next(
        (
            p.name
            for p in binding.params[binding.offset :]
            if (a := binding.signature.arg(call, p.name)) is not None and a.text == stored.text
        ),
        "",
    )
    whole = wrapped.returns
    if made[0].item is not None and not whole.items:
        whole = _unpacked(prop, wrapped, whole) or whole
    returned = _item(whole, made[0].item)
    carried = Carried(stored.text, start, index, made[0].item, None)
    at = _CarriedCall(owner, carried, binding, call, param, wrapped)
    return returned is not None and _result_weak(prop, at, returned) == WEAK


def _flip_sentence(
    code: str, flip: str, once: str, site: JitSite, called: str, how: str
) -> tuple[str, list[str]]:
    """The headline and details of a value that starts as one kind and becomes another (``flip``)
    once ``once``: its next call traces again."""
    head = f"{flip} once {once}, so {jitted_text(site, called)} traces again"
    return head, [how, f"a different {_FLIPPED[code]} is a different cache entry"]


def _stored_kind(prop: Propagation, owner: FunctionSummary, stored: Arg, x64: bool) -> str | None:
    """Whether a value stored in an attribute is weakly typed: as its value says, or, for what a
    method stores from its parameter (the parameter or an item of it), as every caller's argument
    says (an item of a jitted function's result or of an array is an array too)."""
    value = prop.resolve(owner, stored.value)
    kind = weak_kind(value, x64)
    if kind is None and weak_class(value) == FOLLOWS:
        # Arithmetic on the object's fields (``jnp.mod(self.phase + self.rate * self.dt, 1.0)``):
        # strong with one strong operand, wherever it is made.
        fields = [d.name for d in value.deps if isinstance(d, ParamDep)]
        own = [f.partition(".")[2] for f in fields if f.startswith("self.")]
        if any(_field_strong(prop, owner, f, x64) for f in own):
            return STRONG
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


def _field_strong(prop: Propagation, owner: FunctionSummary, name: str, x64: bool) -> bool:
    """Whether attribute ``name`` of ``owner``'s object is a strong array wherever its class stores
    it (``self.dt = jnp.float32(dt)`` in ``__init__``)."""
    if owner.cls is None or not name or "." in name:
        return False
    stores = list(prop.stores(owner.cls, name))
    init = prop.project.symbols.member(owner.cls, "__init__")
    if isinstance(init, FuncTarget):
        init_fn = prop.project.function(init.qualname)
        stores += [(init_fn, a) for a in prop.init_stores(init_fn, name, Value(), 0)]
    kinds = {weak_kind(prop.resolve(m, a.value), x64) for m, a in stores}
    return kinds == {STRONG}


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
    for field in object_fields(project, cls):
        if project.symbols.static_declared(cls, field) is not None:
            continue  # in the treedef, compared by value: its weak type is not part of the key
        for maker, given, _ in prop.made_origins(made[0].attr(field)):
            if weak_kind(prop.resolve(maker, given.value), x64) == WEAK:
                return field, given
    return None


def _field_given_back(prop: Propagation, fn: FunctionSummary, value: Value, field: str) -> bool:
    """Whether ``value`` (in ``fn``) is what a jitted call returns, a pytree whose ``field`` is not
    surely strongly typed: the jitted function computes it from that field of a parameter and Python
    numbers only (as weakly typed as it came in: jit outputs keep their weak type, and a weak int
    plus 1 stays weak), or by a call the analysis does not follow (``model.apply_gradient(g)`` of
    a parameter, returning ``self.replace(step=self.step + 1, ...)``): only a strong operand makes
    it strong, and a kind that is not known adds none."""
    returned = _jit_returned(prop, fn, value)
    made = [m for m in returned[1].objs if isinstance(m, Made) and not m.path] if returned else []
    if returned is None or len(made) != 1:
        return False
    origins = prop.made_origins(made[0].attr(field))
    return bool(origins) and all(
        owner is returned[0] and _kept_weak(prop.resolve(owner, given.value), field)
        for owner, given, _ in origins
    )


def _kept_weak(leaf: Value, field: str) -> bool:
    """Whether a leaf a jitted function returns for ``field`` may keep the weak type it came in
    with: arithmetic on that field of a parameter and Python numbers, or the result of a call not
    followed (no type, no dtype, nothing it is known to depend on)."""
    if weak_class(leaf) == FOLLOWS:
        return all(isinstance(d, ParamDep) and d.name.endswith(f".{field}") for d in leaf.deps)
    return (
        weak_class(leaf) is None
        and leaf.ty == UNKNOWN
        and not leaf.deps
        and leaf.dtype is None
        and leaf.made is None
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
# Arithmetic never gives None (it raises on None), so its result of unknown kind is not None either.
_SURELY_NOT_NONE = frozenset(
    {ARRAY, NP_ARRAY, NP_SCALAR, JIT_OUT, JIT_OUT_WEAK, INT, FLOAT, FLOAT_LIKE}
)


def _never_none(prop: Propagation, owner: FunctionSummary, leaf: Value) -> bool:
    """Whether a leaf given back is surely not None: an array or a number, or computed as one
    (a reduction, ``x.mean()``, or arithmetic with a surely strong array), here or in a helper."""
    if leaf.ty in _SURELY_NOT_NONE or leaf.weak == MADE_STRONG:
        return True
    resolved = prop.resolve(owner, leaf)
    return resolved.ty in _SURELY_NOT_NONE or resolved.weak == MADE_STRONG


def _jit_never_none(prop: Propagation, at: _CarriedCall, result: Value, returned: Value) -> bool:
    """Whether what the jitted call gives back is surely not None: typed so, or not typed at all
    (a lax loop's carry of a function imported from another module), as a jitted call's result
    is where the caller's summary sees the jit: some pytree of jax arrays."""
    back = prop.resolve(at.jitted, returned)
    return _never_none(prop, at.jitted, result) or (result.ty == UNKNOWN and back.ty == UNKNOWN)


def _attribute_flip(
    prop: Propagation, at: _CarriedCall, returned: Value
) -> tuple[str, str, Location, str, str] | None:
    """``self.x = f(self.x, ...)`` in a method that runs repeatedly, against what ``__init__`` or
    another method (``reset``) stores in ``self.x``: the kind that store starts it as, or one of
    its items (``self.x = (0.3, 0.0)``) against what ``f`` returns for that item."""
    fn, carried = at.fn, at.carried
    x64 = prop.x64(fn)
    holder = carried.name.rpartition(".")[0]
    cls = _holder_class(prop, fn, holder)
    if cls is None:
        return None
    stored = [a for a in fn.writes.get(carried.name, ()) if a.location == carried.start.location]
    if len(stored) != 1:
        return None
    result = prop.resolve(fn, stored[0].value)
    if result.ty == UNKNOWN:
        # A jitted function's result the caller's summary could not type (imported from another
        # module): what the jitted function gives back there.
        result = prop.resolve(at.jitted, returned)
    others = _attribute_starts(prop, fn, cls, carried)
    for owner, other in sorted(others, key=lambda o: o[1].location):
        # A tuple a helper returns (``self.x = make()``), item by item.
        start = _unpacked(prop, owner, other.value) or as_called(prop, owner, other.value)
        if start.ty == NONE and (_reads_fields(at) or len(others) > 1):
            # A placeholder: f reads fields of what it gets, so it never gets None; or another
            # method stores a value too (a setup run before the first call).
            continue
        if start.ty == NONE and _jit_never_none(prop, at, result, returned):
            where = _written_in(owner, start, other.location) or other.location
            return "RTL403", carried.name, where, "None", _NOT_NONE
        # The first call gets what that store holds: resolved where it is made.
        first_call = replace(
            at, carried=replace(carried, start=replace(other, value=start)), start_fn=owner
        )
        for code, kind_of, _ in FLIP_KINDS:
            first, then = kind_of(start, x64), kind_of(result, x64)
            if code == "RTL401" and _result_kept_weak(prop, first_call, result, returned):
                continue
            if kinds_differ(first, then):
                where = _written_in(owner, start, other.location) or other.location
                return code, carried.name, where, first, then  # type: ignore[return-value]
        reshaped = _node_flip(prop, first_call, owner, start, returned)
        if reshaped is not None:
            return "RTL403", carried.name, *reshaped
        # A dict the store starts with, given back with keys added (``{**self.metrics, "acc":
        # acc}``): told where the store writes the start, as a loop's carried dict is.
        grown = _keys_added(start, prop.resolve(at.jitted, returned), at.param)
        if grown is not None:
            where = _written_in(owner, start, other.location) or other.location
            return "RTL403", carried.name, where, tree_node(prop, owner, start) or "a dict", grown
        kinds = _dtype_flip(prop, first_call, start, returned)
        if kinds is not None:
            return "RTL402", carried.name, start.made or other.location, *kinds
        item = _item_flip(prop, first_call, start, returned, carried.name)
        if item is not None:
            return item
        emptied = _emptied(prop, first_call, owner, replace(other, value=start), returned)
        if emptied is not None:
            return "RTL105", f"{carried.name}.{emptied[0]}", emptied[1], _EMPTY, _FILLED
        retyped = _fields_retyped(prop, first_call, owner, other, returned)
        if retyped is not None:
            return retyped
    return None


def _holder_class(prop: Propagation, fn: FunctionSummary, holder: str) -> str | None:
    """The one class of the object whose attribute a store carries: ``fn``'s own for ``self.x``,
    else the class of the object a parameter reaches (``self.eq`` of ``self.eq.q_spline``, ``eq``
    of ``eq.q_spline``), as its callers and stores make it."""
    if not holder or (fn.cls is not None and holder == fn.params[0].name):
        return fn.cls
    classes = prop.classes_of_value(fn, Value(objs=frozenset({holder})))
    return next(iter(classes)) if len(classes) == 1 else None


def _attribute_starts(
    prop: Propagation, fn: FunctionSummary, cls: str, carried: Carried
) -> list[tuple[FunctionSummary, Arg]]:
    """What else stores the attribute ``carried`` rebinds: the class's ``__init__`` (the start),
    its other methods and the functions that set it on an instance they are given, and ``fn``'s
    own other stores of it (a fit before the loop)."""
    attr = carried.name.rpartition(".")[2]
    project, at = prop.project, carried.start.location
    others: list[tuple[FunctionSummary, Arg]] = []
    init = project.symbols.member(cls, "__init__")
    if isinstance(init, FuncTarget):
        init_fn = project.function(init.qualname)
        others += [(init_fn, a) for a in prop.init_stores(init_fn, attr, Value(), 0)]
    others += [(m, a) for m, a in prop.stores(cls, attr) if a.location != at]
    if fn.cls != cls:
        others += [(fn, a) for a in fn.writes.get(carried.name, ()) if a.location != at]
    return others


_WRITTEN = frozenset({INT, FLOAT, NONE})  # starts whose ``made`` is where they are written


def _written_in(owner: FunctionSummary, start: Value, stored: Location) -> Location | None:
    """Where a number or None that ``owner`` stores at ``stored`` is written, when a closure of
    ``owner`` gives it (``self.x = _make()``, ``_make`` returning ``0.0``): the line to change. None
    for one written at the store, or outside ``owner`` (a module's table of defaults)."""
    made, span = start.made, owner.location
    if start.ty not in _WRITTEN or made is None or made.line == stored.line:
        return None
    return made if made.starts_in(span) else None


def _result_kept_weak(prop: Propagation, at: _CarriedCall, result: Value, returned: Value) -> bool:
    """Whether the caller's summary takes a jitted function's result for strong only because some
    argument is strong (``self.params, self.lr = step(self.params, self.lr)``), while the leaf the
    jitted body gives back is computed from weak parameters alone (``lr * 0.99``): weak under jax."""
    return result.ty == JIT_OUT and _result_weak(prop, at, returned) == WEAK


def _reads_fields(at: _CarriedCall) -> bool:
    """Whether the jitted function's result is computed from fields of the carried parameter
    (``state.integral``), which None does not have."""
    returns = at.jitted.returns
    prefix = f"{at.param}."
    return returns is not None and any(
        isinstance(src, ParamSrc) and src.name.startswith(prefix) for src in returns.vsrc
    )


def _keys_added(start: Value, returned: Value, param: str | None) -> str | None:
    """A dict of known keys passed for ``param`` and handed back by the jitted function with keys
    it stored in it (``metrics["loss"] = loss``), or as a dict that surely holds a key the start
    lacks (``{**state.info, "error": err}``): the structure the next call passes, else None."""
    if start.ty != DICT or start.keys is None:
        return None
    passed_back = param is not None and returned.param == param
    if not passed_back and returned.ty != DICT:
        return None
    # An item at a literal key of a display, or stored at one: the dict surely holds that key.
    held = {name[2:-2] for name, _ in returned.fields if name.startswith("['")}
    if held <= set(start.keys):
        return None
    if passed_back or returned.keys is not None:
        given = {*start.keys, *held} if passed_back else set(returned.keys or ())
        return "a dict with keys {" + ", ".join(sorted(given)) + "}"
    return "a dict with keys {" + ", ".join(sorted(held)) + ", ...}"  # and what it spreads


def _result_weak(prop: Propagation, at: _CarriedCall, leaf: Value) -> str | None:
    """Whether a leaf the jitted function returns is weakly typed on the first call: a Python scalar
    is; a leaf made from parameters is weak only when every one of them is (the carried one as it
    starts)."""
    raw, leaf = leaf, prop.resolve(at.jitted, leaf)  # a helper's result: what it computes
    if weak_class(leaf) == WEAK:
        # A Python number, or an array made of weak values only, wherever its dtype was made
        # (``jnp.where(done, jnp.array(1.0), jnp.array(0.0))``).
        return WEAK
    if leaf.ty in NUMPY_DATA or leaf.weak == MADE_STRONG or (leaf.ty == ARRAY and leaf.made):
        # Made with a dtype (a constructor, astype) or by a reduction (jnp.sum) somewhere in its
        # computation: strong whatever the parameters are.
        return STRONG
    if leaf.ty == ARRAY and raw.weak in (None, UNSURE) and _strong_operand(prop, at.jitted, raw):
        # Promoted with a helper's surely strong result (``jnp.where(ok, norm, state.last)``,
        # ``norm`` a ``jnp.sqrt(jnp.mean(...))``): strong whatever the parameters are.
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
            value = as_called(prop, owner, found.value)
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


def _strong_operand(prop: Propagation, fn: FunctionSummary, value: Value) -> bool:
    """Whether one of the calls ``value`` is computed from returns a surely strong array."""
    results = (prop.call_result(fn, d, 0) for d in value.deps if isinstance(d, RetDep))
    return any(r is not None and r.weak == MADE_STRONG for r in results)


def _leaves_kind(value: Value, x64: bool) -> str | None:
    """The weak type of a value, or of every leaf of a tuple or list (``rate, threshold = args``
    reads some of them): None when they differ."""
    if value.ty not in (TUPLE, LIST) or not value.items:
        return weak_kind(value, x64)
    kinds = {_leaves_kind(item, x64) for item in value.items}
    return kinds.pop() if len(kinds) == 1 else None
