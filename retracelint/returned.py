"""What a jitted function gives back for the arguments of one call: its summary evaluated abstractly.

A leaf the function returns has the dtype its summary names (a constructor with a dtype, ``astype``, an
index function), or, when it is arithmetic on parameters (``0.5 * state + 0.5 * x``: ``Value.weak`` is
FOLLOWS, or a float made of them, FLOAT_LIKE), the dtype jax's promotion lattice gives for what the call passes for them
(``summarise/promotion.py``): a bfloat16 state blended with a float32 input comes back float32, and a
float32 one times a NumPy float64 scalar comes back float64 under x64 only. Python numbers are weak and
do not widen a typed array.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from retracelint.callgraph import FuncTarget
from retracelint.propagate import left_out
from retracelint.summarise.promotion import Typed, result_type
from retracelint.values import (
    ARRAY,
    COMPLEX,
    DICT,
    DTYPE,
    FLOAT,
    FLOAT_LIKE,
    FOLLOWS,
    LIST,
    MADE_STRONG,
    SCALARS,
    STRONG,
    TUPLE,
    UNKNOWN,
    WEAK,
    FieldDep,
    ParamDep,
    RetDep,
    Value,
    axes_fixed,
    canonical_dtype,
    dtype_kind,
    items_of,
    leaves_dtype,
    weak_class,
    weak_kind,
)

if TYPE_CHECKING:
    from retracelint.propagate import Propagation
    from retracelint.summary import Arg, FunctionSummary

# Elementwise functions of floats keep the promoted float; of ints they may not (``x / 2``, ``sqrt``).
_FLOATS = frozenset({"bfloat16", "float16", "float32", "float64"})

# What a call passes for a parameter (or a field of one, ``state.value``), as each value it may be.
Passed = Callable[[str], "list[Value] | None"]


def typed(value: Value, x64: bool) -> Typed | None:
    """A value's dtype and weak flag as jax sees it, when both are known; for a pytree, the one
    type all its leaves have (what a ``tree_map`` over it computes with, leaf by leaf)."""
    dtype, weak = dtype_kind(value, x64), weak_kind(value, x64)
    if dtype is None and value.ty in _TREES:
        return _leaves_typed(value, x64)
    if dtype is None or weak is None:
        return None
    return Typed(dtype, weak == WEAK)


_TREES = frozenset({UNKNOWN, DICT, LIST, TUPLE})  # what a tree_map may give back


def leaves_dtype_of(value: Value, x64: bool) -> str | None:
    """The dtype of a leaf, or of every leaf of a pytree of unknown structure that one strongly
    typed constructor maps (``tree_map(lambda p: jnp.zeros_like(p, dtype=jnp.bfloat16),
    params)``)."""
    if value.ty in _TREES and value.dtype is not None and value.weak == MADE_STRONG:
        return canonical_dtype(value.dtype, x64)
    return dtype_kind(value, x64)


def strong_dtype(value: Value, x64: bool) -> str | None:
    """The dtype of a strongly typed leaf, or the one every leaf of a pytree has when they are
    strongly typed: a tree one constructor maps (``leaves_dtype_of``), or a dict display of alike
    leaves (``{"w": w.astype(np.float32), "b": jnp.zeros(n, np.float32)}``: the parameters a
    ``tree_map`` of the jitted step updates leaf by leaf)."""
    if value.ty == DICT and value.dtype is None:
        kind = _leaves_typed(value, x64)
        return kind.dtype if kind is not None and not kind.weak else None
    dtype = leaves_dtype_of(value, x64)
    strong = value.weak == MADE_STRONG or weak_kind(value, x64) == STRONG
    return dtype if strong else None


def _leaves_typed(tree: Value, x64: bool) -> Typed | None:
    """The one type every leaf of ``tree`` has: a tree one strongly typed constructor maps, or a
    display whose leaves (a dict's at literal keys, all known) are alike (``{"w": jnp.zeros(d),
    "b": jnp.zeros(())}``)."""
    if tree.dtype is not None and tree.weak == MADE_STRONG:
        return Typed(canonical_dtype(tree.dtype, x64), False)
    if tree.ty == DICT and tree.keys is not None:
        leaves = list(items_of(tree).values())
        leaves = leaves if len(leaves) == len(tree.keys) else []
    else:
        leaves = list(tree.items)
    kinds = {typed(leaf, x64) for leaf in leaves}
    return kinds.pop() if leaves and len(kinds) == 1 else None


def returned_dtype(
    prop: Propagation, jitted: FunctionSummary, leaf: Value, passed: Passed, x64: bool
) -> str | None:
    """The dtype of ``leaf``, which ``jitted`` returns, when a call passes what ``passed`` says; None
    when it is not known or not strongly typed."""
    leaf = prop.resolve(jitted, leaf)  # a helper's result: what the helper computes
    if leaf.dtype is not None:
        return canonical_dtype(leaf.dtype, x64)
    if leaf.param is not None:  # given back as it came: what the call passes
        return _strong(passed(leaf.param), x64)
    taken = _parameter(leaf.dtype_of) if leaf.dtype_of is not None else None
    if taken is not None:  # ``x.astype(y.dtype)``: the dtype of what the call passes for ``y``
        return _strong(passed(taken), x64)
    if weak_class(leaf) != FOLLOWS and leaf.ty != FLOAT_LIKE:  # not arithmetic on parameters
        return None
    names = [d.name for d in leaf.deps if isinstance(d, ParamDep)]
    if not names or len(names) != len(leaf.deps):
        return None
    return _promoted(names, passed, x64)


def promoted_at_least(
    prop: Propagation, jitted: FunctionSummary, leaf: Value, passed: Passed, x64: bool
) -> str | None:
    """The least dtype ``leaf`` can be when it is arithmetic on float parameters, some of whose
    types the first call does not show (``pos + dt * vel``, ``vel`` a carried value, ``forces(pos)``
    a helper's result): what the known ones promote to; the others only widen it. None when a
    known one is no float, or none is known."""
    leaf = prop.resolve(jitted, leaf)
    if leaf.dtype is not None or leaf.ty not in (ARRAY, UNKNOWN, FLOAT_LIKE):
        return None
    if leaf.weak == MADE_STRONG:
        return None  # an operand whose dtype is decided inside (``dt.astype(clock.dtype)``)
    names = [d.name for d in leaf.deps if isinstance(d, ParamDep)]
    if not names or len(names) != len(leaf.deps):
        return None
    operands: list[Typed] = []
    for name in names:
        kind = _one(passed(name), x64)
        if kind is not None and kind.dtype not in _FLOATS:
            return None
        operands += [kind] if kind is not None else []
    result = result_type(operands, x64) if operands else None
    return result.dtype if result is not None and not result.weak else None


def _promoted(names: list[str], passed: Passed, x64: bool) -> str | None:
    """What arithmetic on the float parameters ``names`` gives for what the call passes for them,
    when strongly typed."""
    operands: list[Typed] = []
    for name in names:
        kind = _one(passed(name), x64)
        if kind is None or kind.dtype not in _FLOATS:
            return None
        operands.append(kind)
    result = result_type(operands, x64)
    return result.dtype if result is not None and not result.weak else None


# How many callers up ``as_called`` follows a parameter to what is passed for it.
_CALLERS_UP = 3


_NUMERIC_TOWER = frozenset({FLOAT, COMPLEX})


def as_called(prop: Propagation, fn: FunctionSummary, value: Value, depth: int = 0) -> Value:
    """``value`` (in ``fn``) with the dtype its callers give it: a parameter, or a field of one
    (``rod.base_time``), is what every caller passes for it, when they agree on its dtype; an array
    made with a parameter's dtype (``jnp.full((), jnp.inf, params.dtype)``) has the dtype every
    caller passes for that parameter. Else ``value`` as ``fn`` resolves it."""
    given, value = value, prop.resolve(fn, value)
    if value.dtype is not None or depth >= _CALLERS_UP:
        return value
    if value.ty == UNKNOWN and value.floor is None:
        # Resolving stops at a jit: what the function it wraps gives back decides the kind.
        result = _jitted_result(prop, fn, given, depth)
        if result is not None:
            return result
    if value.dtype_of is not None:
        taken = _parameter(value.dtype_of)
        given = _called_with(prop, fn, taken, depth) if taken is not None else []
        # A pytree's leaves of one dtype too: what a ``tree_map`` over it reads as ``p.dtype``.
        dtypes = {leaves_dtype(v) for v in given}
        if given and len(dtypes) == 1 and None not in dtypes:
            return value.with_(dtype=dtypes.pop(), dtype_of=None)
        return value
    # A parameter annotated ``float`` (``complex``) is as often given an int: PEP 484's numeric
    # tower lets an int fill either, so what the callers pass says which it is.
    tower = value.ty in _NUMERIC_TOWER and value.param is not None
    if (value.ty != UNKNOWN and not tower) or len(value.deps) != 1:
        return value
    (dep,) = value.deps
    if tower:
        given = _called_with(prop, fn, value.param, depth)
        numbers = {(v.ty, v.dtype, v.weak) for v in given}
        if len(numbers) == 1 and given[0].ty in SCALARS:
            return given[0]  # every caller passes a Python number of one kind (an int)
        return _agreed(given) or value
    if isinstance(dep, FieldDep) and not axes_fixed(dep) and dep.elem is None:
        # An attribute of an object made here (``Tracker().level``): what its class stores there,
        # a declared field's default included.
        origins = prop.made_origins(dep.made)
        given = [as_called(prop, owner, found.value, depth + 1) for owner, found, _ in origins]
        return _agreed(given) or value
    name = _parameter(value)
    if name is None:
        return value
    return _agreed(_called_with(prop, fn, name, depth)) or value


def _jitted_result(
    prop: Propagation, fn: FunctionSummary, value: Value, depth: int
) -> Value | None:
    """The kind of what a jitted call gives back (``self._compute(x)``), or a helper that hands
    one back as it is (``calculator.compute(x)``): the dtype, or the least dtype (``Value.floor``:
    an ``astype(jnp.float64)`` in it), of the wrapped function's strongly typed result where it is
    made there, whatever the call passes; None when that is not known without the arguments."""
    if len(value.deps) != 1 or not isinstance(dep := next(iter(value.deps)), RetDep):
        return None
    if dep.item is not None or dep.elem is not None or dep.below:
        return None
    jitted = prop.project.jitted_at((fn.qualname, dep.call))
    if jitted is not None:
        wrapped = jitted[1]
        back = prop.resolve(wrapped, wrapped.returns) if wrapped.returns is not None else None
        # Strongly typed whatever the call passes (a reduction, a cast): its weak type too.
        if back is None or back.ty != ARRAY or back.weak != MADE_STRONG:
            return None
        if back.dtype is None and back.floor is None:
            return None
        return Value(ty=ARRAY, dtype=back.dtype, made=back.made, weak=MADE_STRONG, floor=back.floor)
    targets = prop.project.site_targets.get((fn.qualname, dep.call), ())
    (target,) = targets if len(targets) == 1 else (None,)
    if not isinstance(target, FuncTarget):
        return None
    callee = prop.project.function(target.qualname)
    if callee.returns is None or depth >= _CALLERS_UP:
        return None
    return _jitted_result(prop, callee, callee.returns, depth + 1)


def _agreed(given: list[Value]) -> Value | None:
    """The one value ``given`` holds when all agree on kind, dtype (or least dtype) and weak type,
    one of them known."""
    kinds = {(v.ty, v.dtype, v.weak, v.floor and v.floor[0]) for v in given}
    known = given and (given[0].dtype is not None or given[0].floor is not None)
    return given[0] if len(kinds) == 1 and known else None


def _called_with(prop: Propagation, fn: FunctionSummary, name: str, depth: int) -> list[Value]:
    """What each known call of ``fn`` passes for parameter ``name`` (or a field of one), each as
    ``as_called`` makes it where it is made; empty when a call passes nothing known for it."""
    head, _, path = name.partition(".")
    out: list[Value] = []
    for caller, call, passed, _, _ in prop.calls_of(fn, head):
        if passed is None:
            # Left out: a dtype its default names is what the call makes arrays of.
            default = left_out(call, fn, head)
            if path or default.ty != DTYPE:
                continue
            out.append(default)
            continue
        origins = (
            prop.value_origins(caller, passed, path, (), 0) if path else [(caller, passed, ())]
        )
        if not origins:
            return []
        out += [as_called(prop, owner, found.value, depth + 1) for owner, found, _ in origins]
    if not out and path:
        # Called on an object no known call shows (``decoder(tokens)``): what its class's methods
        # store there (``self.embedding = ...`` in ``__init__``).
        stores = _class_stores(prop, fn, name)
        out = [as_called(prop, method, stored.value, depth + 1) for method, stored in stores]
    return out


def _class_stores(
    prop: Propagation, fn: FunctionSummary, name: str
) -> list[tuple[FunctionSummary, Arg]]:
    """What the methods of the class of method ``fn`` (its ``__init__`` too) store in ``self.attr``
    (``name``); none for a deeper path or a parameter that is not the method's ``self``."""
    head, _, attr = name.partition(".")
    symbols = prop.project.symbols
    cls = symbols.class_of_method(fn)
    if cls is None or "." in attr or not fn.params or head != fn.params[0].name:
        return []
    init = symbols.member_function(cls, "__init__")
    maker = prop.project.functions.get(init.qualname) if init is not None else None
    made = prop.init_stores(maker, attr, Value(), 0) if maker is not None else []
    return [(maker, stored) for stored in made if maker is not None] + prop.stores(cls, attr)


def _parameter(value: Value) -> str | None:
    """The parameter (or field of one, ``state.value``) that ``value`` is, if it is one."""
    if value.param is not None:
        return value.param
    deps = list(value.deps)
    return deps[0].name if len(deps) == 1 and isinstance(deps[0], ParamDep) else None


def _strong(values: list[Value] | None, x64: bool) -> str | None:
    """The one dtype every value a parameter may be has, when they are strongly typed."""
    kind = _one(values, x64)
    return kind.dtype if kind is not None and not kind.weak else None


def _one(values: list[Value] | None, x64: bool) -> Typed | None:
    """The one type every value a parameter may be has, if known."""
    kinds = {typed(value, x64) for value in values or ()}
    return kinds.pop() if len(kinds) == 1 else None
