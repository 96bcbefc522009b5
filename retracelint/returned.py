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

from retracelint.summarise.promotion import Typed, result_type
from retracelint.values import (
    FLOAT_LIKE,
    FOLLOWS,
    WEAK,
    ParamDep,
    Value,
    canonical_dtype,
    dtype_kind,
    weak_kind,
)

if TYPE_CHECKING:
    from retracelint.propagate import Propagation
    from retracelint.summary import FunctionSummary

# Elementwise functions of floats keep the promoted float; of ints they may not (``x / 2``, ``sqrt``).
_FLOATS = frozenset({"bfloat16", "float16", "float32", "float64"})

# What a call passes for a parameter (or a field of one, ``state.value``), as each value it may be.
Passed = Callable[[str], "list[Value] | None"]


def typed(value: Value, x64: bool) -> Typed | None:
    """A value's dtype and weak flag as jax sees it, when both are known."""
    dtype, weak = dtype_kind(value, x64), weak_kind(value, x64)
    if dtype is None or weak is None:
        return None
    return Typed(dtype, weak == WEAK)


def returned_dtype(
    prop: Propagation, jitted: FunctionSummary, leaf: Value, passed: Passed, x64: bool
) -> str | None:
    """The dtype of ``leaf``, which ``jitted`` returns, when a call passes what ``passed`` says; None
    when it is not known or not strongly typed."""
    leaf = prop.resolve(jitted, leaf)  # a helper's result: what the helper computes
    if leaf.dtype is not None:
        return canonical_dtype(leaf.dtype, x64)
    if leaf.param is not None:  # given back as it came: what the call passes
        kind = _one(passed(leaf.param), x64)
        return kind.dtype if kind is not None and not kind.weak else None
    if leaf.weak != FOLLOWS and leaf.ty != FLOAT_LIKE:  # not arithmetic the summary saw
        return None
    names = [d.name for d in leaf.deps if isinstance(d, ParamDep)]
    if not names or len(names) != len(leaf.deps):
        return None
    operands: list[Typed] = []
    for name in names:
        kind = _one(passed(name), x64)
        if kind is None or kind.dtype not in _FLOATS:
            return None
        operands.append(kind)
    result = result_type(operands, x64)
    return result.dtype if result is not None and not result.weak else None


def _one(values: list[Value] | None, x64: bool) -> Typed | None:
    """The one type every value a parameter may be has, if known."""
    kinds = {typed(value, x64) for value in values or ()}
    return kinds.pop() if len(kinds) == 1 else None
