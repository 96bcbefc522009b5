"""The arms of an ``if`` that cannot both run in one call of a function (issue 36, paths).

``if use_replay: run(a, b, buffer) else: run(a, b)`` runs one arm per call of its function when the
test keeps its value through the call: two ``if``s on the same such test take the same arm, so a
call under one arm and a call under the opposite arm of the other never meet in one call. A test
keeps its value when it reads only names the function never rebinds after binding them once, nor
in a loop around the ``if`` (a parameter, a local made once from the configuration), and fields
of them, compared with constants: no call, no subscript, nothing a statement in between changes.
An ``if`` on anything else still runs one arm each time it runs, so where no loop of the function
repeats it, its own arms are exclusive (keyed by where it is)."""

from __future__ import annotations

import ast
from collections.abc import Callable

# What a test that keeps its value may be made of, besides names: fields of them, constants compared.
_STEADY_PARTS = (
    ast.Constant,
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.Load,
    ast.cmpop,
    ast.boolop,
    ast.Not,
    ast.Attribute,
)


def arm_key(
    test: ast.expr,
    rebound: Callable[[str], bool],
    repeated: bool,
    where: str,
    text: Callable[[ast.AST], str] = ast.unparse,
) -> tuple[str, bool] | None:
    """The key of ``test`` and the arm its body is (True unless the test is a negation, ``if not
    x:``, whose body is the false arm of ``x``); None where two runs of the ``if`` in one call may
    take different arms. ``rebound(name)``: whether the function may give ``name`` another value
    after a first (a second binding, or one in a loop around the ``if``); ``repeated``: whether a
    loop of the function repeats the ``if``; ``where``: the ``if``'s place, the key of a test that
    may change; ``text``: a test's source, as written (two ifs on one test are written alike)."""
    taken = True
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, taken = test.operand, not taken
    if _steady(test, rebound):
        return text(test), taken
    return None if repeated else (where, taken)


def _steady(test: ast.expr, rebound: Callable[[str], bool]) -> bool:
    # The test's shape first: asking whether a name is rebound walks the function's body, which
    # a test with a call or a subscript in it never needs.
    names = []
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif not isinstance(node, _STEADY_PARTS):
            return False
    return bool(names) and not any(map(rebound, names))


def leaves_call(block: list[ast.stmt]) -> bool:
    """Whether ``block`` ends the function's call (``return``, ``raise``) on its last statement."""
    return bool(block) and isinstance(block[-1], ast.Return | ast.Raise)
