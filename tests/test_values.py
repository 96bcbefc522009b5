"""Abstract values are made and copied about a million times on a large project, so ``Value(...)`` and
``Value.with_(...)`` take their fields by keyword without checking the names at run time. This test
checks every name the code gives them instead."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

import pytest

from retracelint.values import Value

PACKAGE = Path(__file__).resolve().parents[1] / "retracelint"


def _keywords_given_to_values(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        makes = isinstance(func, ast.Name) and func.id == "Value"
        copies = isinstance(func, ast.Attribute) and func.attr == "with_"
        if makes or copies:
            out += [(node.lineno, k.arg or "**") for k in node.keywords]
    return out


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_every_field_given_to_a_value_is_one_of_its_fields(path: Path) -> None:
    names = {f.name for f in fields(Value)}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = [(line, name) for line, name in _keywords_given_to_values(tree) if name not in names]
    assert not wrong, f"{path.name}: not fields of Value (line, name): {wrong}"


def test_the_check_sees_a_misspelt_field() -> None:
    tree = ast.parse("a = Value(ty='int', vsrcs=x)\nb = a.with_(dtpe='float32')\n")
    assert [n for _, n in _keywords_given_to_values(tree) if n not in {"ty"}] == ["vsrcs", "dtpe"]
