"""``apis.INT_ARITHMETIC`` is Python's arithmetic on its numbers, and jax keeps its kinds for weakly
typed scalars: each operator as Python computes it on two ints (a negative power included) and on a
float, and as jax computes it on a weak int32 scalar and a Python int. ``apis.BUILTIN_KINDS``,
``OPERAND_KIND_WITH`` and ``BUILTIN_FOLDS`` are Python's builtins on an int and on a float."""

from __future__ import annotations

import ast
import importlib.util

import pytest

from retracelint.summarise.apis import (
    BUILTIN_FOLDS,
    BUILTIN_KINDS,
    INT_ARITHMETIC,
    OPERAND_KIND_WITH,
    int_arithmetic,
)
from retracelint.values import BOOL, FLOAT, INT, STR

_KINDS = {int: INT, float: FLOAT, bool: BOOL, str: STR}
OPERATORS = sorted(INT_ARITHMETIC, key=lambda op: op.__name__)
RIGHT = ("2", "3", "-2", "0")


def _symbol(op: type[ast.operator]) -> str:
    return ast.unparse(ast.BinOp(ast.Constant(7), op(), ast.Constant(2))).split()[1]


def _kind(expression: str) -> str | None:
    try:
        return _KINDS[type(eval(expression))]
    except (ArithmeticError, ValueError):
        return None  # 7 // 0, 7 << -2: no number at all


@pytest.mark.parametrize("right", RIGHT)
@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.__name__)
def test_ints_give_the_kind_the_table_says(op: type[ast.operator], right: str) -> None:
    found = _kind(f"7 {_symbol(op)} {right}")
    if found is not None:
        assert int_arithmetic(op(), ast.parse(right, mode="eval").body) == found


@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.__name__)
def test_a_float_operand_gives_a_float(op: type[ast.operator]) -> None:
    try:
        found = _kind(f"7.5 {_symbol(op)} 2")
    except TypeError:
        return  # bitwise operators take no floats
    assert found == FLOAT


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.__name__)
def test_jax_weak_scalars_keep_the_kind(op: type[ast.operator]) -> None:
    import jax.numpy as jnp

    value = eval(f"jnp.asarray(7) {_symbol(op)} 2", {"jnp": jnp})
    assert value.weak_type
    assert {"int32": INT, "float32": FLOAT}[str(value.dtype)] == INT_ARITHMETIC[op]


@pytest.mark.parametrize("operand", ["7", "7.5"])
@pytest.mark.parametrize("name", sorted(BUILTIN_KINDS))
def test_builtins_give_the_kind_the_table_says(name: str, operand: str) -> None:
    assert _kind(f"{name}({operand})") == BUILTIN_KINDS[name]


@pytest.mark.parametrize("operand", ["7", "7.5"])
@pytest.mark.parametrize("name", sorted(OPERAND_KIND_WITH))
def test_builtins_given_the_argument_keep_the_operand_kind(name: str, operand: str) -> None:
    keyword, position = OPERAND_KIND_WITH[name]
    by_position = ", ".join([operand, *["1"] * position])
    for call in (f"{name}({by_position})", f"{name}({operand}, {keyword}=1)"):
        assert _kind(call) == _kind(operand)
    assert _kind(f"{name}({operand}, {keyword}=None)") == BUILTIN_KINDS[name]


@pytest.mark.parametrize("name", sorted(BUILTIN_FOLDS))
def test_builtin_folds_are_the_operator_from_their_start(name: str) -> None:
    op, start = BUILTIN_FOLDS[name]
    symbol = _symbol(op)
    for items in ([], [3], [3, 4], [3, 4.5]):
        folded = " ".join(f"{symbol} {x}" for x in items)
        start_value = {INT: 0, FLOAT: 0.0}[start]
        assert eval(f"{name}({items!r})") == eval(f"{start_value} {folded}")
        assert _kind(f"{name}({items!r})") == _kind(f"{start_value} {folded}")
