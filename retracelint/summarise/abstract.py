"""Operations on abstract values that the parts of the interpreter share: elements, unpacking, what
a function exports, a jitted function's result, flips between two kinds."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace

from retracelint import funcrefs
from retracelint.funcrefs import Callee, FuncRef
from retracelint.model import Location
from retracelint.values import (
    ARRAY,
    BOOL,
    DICT,
    EMPTY,
    FLIP_KINDS,
    FLOAT,
    FUNCTION,
    INSTANCE,
    INT,
    JIT_OUT,
    JIT_OUT_WEAK,
    JIT_RESULTS,
    LAMBDA,
    LIST,
    NONE,
    NUMPY_DATA,
    PARTIAL,
    STR,
    TRANSFORM,
    TUPLE,
    AltSrc,
    Dep,
    IterDep,
    Made,
    ParamDep,
    Recent,
    RetDep,
    Src,
    Taint,
    Value,
    kinds_differ,
    localised,
    none_flip,
    parts_deps,
    position,
    shape_sources,
    typed_item,
    unaligned,
    weak_kind,
    weak_unknown,
)


def _shapes_of(values: list[Value]) -> frozenset[Src]:
    return frozenset().union(*(shape_sources(v) for v in values))


def _element(value: Value) -> Value:
    """An item of a container value: we know only that it varies with the container."""
    if value.ty == TUPLE and value.dtype is not None:  # nonzero(x): a tuple of int32 arrays
        return Value(vsrc=value.vsrc, deps=parts_deps(value), ty=ARRAY, dtype=value.dtype)
    return Value(vsrc=value.vsrc, deps=parts_deps(value))


def _item_dep(dep: Dep, item: int | None) -> Dep:
    """Item ``item`` of what ``dep`` refers to: of a call's result, or of an item already taken
    from it (the carry a ``lax.scan`` gives back, unpacked)."""
    if item is not None and isinstance(dep, ParamDep) and dep.key is None and dep.elem is None:
        # Of a parameter: its item at that position (``t, y = carry``), which each caller's tuple
        # decides (its weak type, ``weak.WeakKinds``), not the whole tuple.
        return replace(dep, key=position(item))
    if item is None or not isinstance(dep, RetDep | IterDep):
        return dep
    if isinstance(dep, RetDep) and dep.item is not None:
        return replace(dep, below=(*dep.below, item))
    return replace(dep, item=item)


def _unpacked(value: Value, item: int | None = None) -> Value:
    """Element ``item`` of the values unpacked from ``value`` (``xb, yb = batch``).

    The element of a call's result is resolved at link time; otherwise it keeps every shape change.
    Unpacking a tuple or a batch keeps axes where they were; unpacking an array gives its rows.
    """
    deps = frozenset(_item_dep(d, item) for d in value.deps)
    # `model, opt = build()`: each name is an element of what the call made.
    objs = frozenset(
        replace(o, item=item)
        for o in value.objs
        if isinstance(o, Made) and o.item is None and not o.path and item is not None
    )
    if value.ty in JIT_RESULTS:  # the parts of a jitted function's result are jax arrays too
        return Value(ty=value.ty, vsrc=value.vsrc, shape=value.shape, deps=deps, objs=objs)
    if value.ty == TUPLE and value.dtype is not None:  # nonzero(x): a tuple of int32 arrays
        return Value(vsrc=value.vsrc, shape=value.shape, deps=deps, ty=ARRAY, dtype=value.dtype)
    if value.ty == ARRAY:
        # The rows of a jax array are jax arrays (``key, sub = jax.random.split(key)``), 0-d ones
        # too, as weakly typed as it is; a NumPy array's rows may be NumPy scalars.
        row = Value(ty=ARRAY, vsrc=value.vsrc, shape=value.shape, deps=deps, weak=value.weak)
        return unaligned(typed_item(value, row))
    if value.ty in NUMPY_DATA:
        return unaligned(typed_item(value, Value(vsrc=value.vsrc, shape=value.shape, deps=deps)))
    return Value(vsrc=value.vsrc, shape=value.shape, deps=deps, objs=objs)


def _dtype_sources(values: list[Value]) -> frozenset[Src]:
    """What changes the dtypes of ``values`` (their dtype flips), as sources of a dtype made from them."""
    out: frozenset[Src] = EMPTY
    for value in values:
        for taint in value.shape:
            if taint.code == "RTL402":
                out = out | taint.sources
    return out


def _args_vsrc(args: list[Value], kwargs: dict[str | None, Value]) -> frozenset[Src]:
    out: set[Src] = set()
    for value in [*args, *kwargs.values()]:
        out |= value.vsrc
    return frozenset(out)


def _plain(value: Value) -> Value:
    """A value as a summary keeps it: lengths are facts of the walk, named by this function's atoms."""
    return value if value.dims is None else value.with_(dims=None)


def _export(value: Value | None, item: bool = False) -> Value | None:
    """A return (or yield) value as callers see it: the function's own loops are not theirs."""
    return None if value is None else _unreferenced(localised(value, item))


def _unreferenced(value: Value) -> Value:
    """A value without the functions it holds: the linker reads them from FunctionSummary.returned_refs."""
    return value.with_(callables=EMPTY, items=tuple(_unreferenced(i) for i in value.items))


def _returned(returns: Value | None, yields: Value | None) -> tuple[FuncRef, ...]:
    """The functions a function hands back: what it returns, and each item it yields."""
    out = returns.refs if returns is not None else EMPTY
    if yields is not None and yields.refs:
        out = funcrefs.union(out, funcrefs.nested(yields.refs, funcrefs.ITER))
    return tuple(sorted(out))


def _returned_at(
    points: dict[Location, tuple[Value, frozenset[Src]]],
) -> tuple[tuple[Location, tuple[FuncRef, ...]], ...]:
    """``FunctionSummary.returned_at``: each return's functions, where the returns differ in them."""
    out = tuple((at, tuple(sorted(value.refs))) for at, (value, _) in points.items())
    return out if len({refs for _, refs in out}) > 1 else ()


def _value_callees(value: Value) -> list[Callee]:
    """What calling ``value`` calls."""
    callees = funcrefs.called(value.refs)
    if not callees and value.site is not None:
        return [("jit", "", str(value.site))]
    return callees


def _jit_result(args: list[Value], kwargs: dict[str | None, Value]) -> Value:
    """A jitted function's result: arrays, weakly typed only when every input was a Python scalar
    (a weak input stays weak through jit unless it meets a strong one)."""
    given = [a for a in (*args, *kwargs.values()) if a.ty not in (NONE, STR)]  # not leaves
    weak = given and all(a.ty in (INT, FLOAT, BOOL, JIT_OUT_WEAK) for a in given)
    return Value(ty=JIT_OUT_WEAK if weak else JIT_OUT, vsrc=_args_vsrc(args, kwargs))


def _kind_flip(start: Value, then: Value, x64: bool) -> tuple[str, str, str] | None:
    for code, kind_of, _ in FLIP_KINDS:
        a, b = kind_of(start, x64), kind_of(then, x64)
        if kinds_differ(a, b):
            return code, a, b  # type: ignore[return-value]
    return None


def _weak_alternatives(
    function: str, name: str, first: Value, first_at: Location, then: Value, then_at: Location
) -> AltSrc | None:
    """Two values a condition picks between (as ``name`` in ``function``) whose weak types only
    the callers or callees tell (``MAYBE_WEAK``): one at least of unknown kind, neither of a kind
    that never has one."""
    if not (weak_unknown(first) or weak_unknown(then)):
        return None
    if not all(weak_unknown(v) or weak_kind(v) is not None for v in (first, then)):
        return None
    return AltSrc(function, name, _plain(first), first_at, _plain(then), then_at)


def _not_none(value: Value) -> Value:
    """The value where a test has ruled out None: a start as None no longer flips its structure."""
    kept = frozenset(
        t for t in value.shape if not (t.code == "RTL403" and " starts as None and is " in t.what)
    )
    return value if kept == value.shape else value.with_(shape=kept)


# Shapes ``_never_none`` gave: no flip between None and something else.
_NEVER_NONE: Recent[bool] = Recent()


def _never_none(
    shape: frozenset[Taint], parts: Sequence[frozenset[Taint]] | None = None
) -> frozenset[Taint]:
    """The taints of an array made from a value (``jnp.asarray(best)``, ``jnp.stack(rows)``):
    whatever that value was, the array is not None (``jnp.asarray(None)`` raises), so a flip
    between None and something else no longer changes a signature past it. ``parts``: the shapes
    that ``shape`` joins (an axis dropped or not), where its flips can only come from: one that
    ``_never_none`` gave, a step of a chain ``a + b + c``, is not read again."""
    read = [shape] if parts is None else [p for p in parts if p not in _NEVER_NONE]
    flips = [t for p in read for t in p if none_flip(t)]
    if flips and parts is not None:
        flips = [*flips, *map(Taint.unlabelled, flips)]
    return _NEVER_NONE.add(shape.difference(flips) if flips else shape, True)


def _fresh_kind(value: Value, node: ast.AST, receiver: Value | None) -> str | None:
    """What kind of new function object ``node`` makes each time it runs, if it makes one. Reading a
    method off an object (``self.step``, ``unit.adjust`` for an instance made here) makes a new bound
    method each time; a module's function (``np.sum``) or a class's is the same object. A parameter
    may hold either (tests pass modules: ``pipeline.step``), so it is not taken as an object."""
    if value.ty == LAMBDA:
        return "lambda"
    if value.ty == PARTIAL:
        return "partial"
    if value.ty == TRANSFORM:
        return "transformed function"
    if value.ty == FUNCTION and value.fresh:
        return "nested def"
    if receiver is not None and (receiver.ref == "<self>" or receiver.ty == INSTANCE):
        return "bound method"
    return None


def _written_number(node: ast.expr, value: Value) -> bool:
    """Whether ``node`` writes a number as it is, which decides the number's weak type where it is
    written: a literal, signed or not (``-1``), or a float constant of an array module
    (``-jnp.inf``)."""
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return isinstance(node, ast.Constant) or (isinstance(node, ast.Attribute) and value.ty == FLOAT)


def placed_leaves(value: Value, at: Location) -> Value | None:
    """``jax.device_put(x)`` (``apis.PLACES_LEAVES``) of Python numbers, or of a tuple, list or dict
    holding some: the same pytree, each Python number a jax array as weakly typed as it was (a bool
    is strong), made at ``at``; jax arrays and what is not known are kept. None when ``x`` holds no
    Python number known here (measured on jax 0.10.2: ``device_put((0, 0.0, True))`` is weak int32,
    weak float32, strong bool)."""
    if value.ty in (INT, FLOAT):
        return Value(ty=JIT_OUT_WEAK, vsrc=value.vsrc, deps=value.deps, made=at)
    if value.ty == BOOL:
        return Value(ty=ARRAY, dtype="bool", vsrc=value.vsrc, deps=value.deps, made=at)
    if value.ty in (TUPLE, LIST) and value.items:
        items = [placed_leaves(item, at) for item in value.items]
        if all(item is None for item in items):
            return None
        placed = (p or item for p, item in zip(items, value.items, strict=True))
        return value.with_(items=tuple(placed))
    if value.ty == DICT and value.fields:
        fields = [
            (name, placed_leaves(v, at) if name.startswith("[") else None)
            for name, v in value.fields
        ]
        if all(p is None for _, p in fields):
            return None
        kept = ((name, p or v) for (name, p), (_, v) in zip(fields, value.fields, strict=True))
        return value.with_(fields=tuple(kept))
    return None
