"""``syntax.bound_names``: the names statements bind as Python does, as far as each scope reaches:
a statement's own targets, its code without the functions and classes defined there, or all."""

from __future__ import annotations

import ast

from retracelint.summarise.syntax import bound_names

LOOP = """
for step, (x, *rest) in enumerate(batches):
    import numpy.linalg as la, os.path
    totals[key] += x
    self.count = step
    with open(path) as log, lock:
        del cache
    try:
        y = (z := f(x))
    except ValueError as err:
        pass

    def report(n):
        shown = n

    class Row:
        width = 3

    scale = lambda k: (hidden := k)
"""


def _loop() -> list[ast.stmt]:
    return ast.parse(LOOP).body


def test_targets_are_the_statement_own_not_its_blocks_nor_stored_into_objects() -> None:
    assert bound_names(_loop(), "targets") == {"step", "x", "rest"}
    body = _loop()[0].body  # type: ignore[attr-defined]
    assert bound_names(body, "targets") == {"la", "os", "log", "scale"}


def test_block_reaches_nested_blocks_and_expressions_not_nested_scopes() -> None:
    assert bound_names(_loop(), "block") == {
        *("step", "x", "rest", "la", "os", "log", "cache", "y", "z", "err"),
        *("report", "Row", "scale"),
    }


def test_nested_reaches_into_functions_classes_and_lambdas() -> None:
    assert bound_names(_loop(), "nested") - bound_names(_loop(), "block") == {
        *("n", "shown", "width", "hidden", "k"),
    }
