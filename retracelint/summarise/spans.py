"""The bounds of a slice along every path of a loop body that reaches it, so that a batch moved back
at the end to keep its length (``start, end = i, i + B; if end > n: end = n; start = end - B``,
``x[max(0, n - B):n]``) is seen to have one length: the summariser's names hold the last assignment
only, which tells one of those paths."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass, replace

# Beyond this many paths the body is left to the summariser's own reading.
_MAX_PATHS = 16


@dataclass(frozen=True)
class Bounds:
    """A slice's bounds on one path, in the names the body had before it; ``floored``: the path
    raised a bound below zero to zero (``if start < 0: start = 0``, ``max(0, end - B)``), which
    happens only when the whole array is shorter than the length kept."""

    lower: ast.expr
    upper: ast.expr
    floored: bool


@dataclass(frozen=True)
class _Path:
    names: tuple[tuple[str, ast.expr], ...]
    floored: bool = False

    def get(self, name: str) -> ast.expr | None:
        return dict(self.names).get(name)

    def bound(self, name: str, value: ast.expr) -> _Path:
        return replace(self, names=(*((n, v) for n, v in self.names if n != name), (name, value)))


class _Unread(Exception):
    """A statement on the way that the paths cannot follow (a loop or ``try`` assigning a name)."""


def slice_bounds(body: list[ast.stmt], target: ast.Subscript) -> list[Bounds] | None:
    """The bounds of slice ``target`` (its first axis) on each path from the start of ``body`` to
    it; paths that leave before it (``continue``, ``break``, ``return``, ``raise``) are gone. None
    where ``body`` does not hold it, or a statement on the way cannot be followed."""
    part = target.slice
    if not isinstance(part, ast.Slice) or part.lower is None or part.upper is None:
        return None
    try:
        paths = _walk(body, [_Path(())], target)
    except _Unread:
        return None
    if paths is None:
        return None
    out = []
    for path in paths:
        for lower, low_floor in _choices(_substituted(part.lower, path)):
            for upper, _ in _choices(_substituted(part.upper, path)):
                out.append(Bounds(lower, upper, path.floored or low_floor))
    return out if len(out) <= _MAX_PATHS else None


def _walk(body: list[ast.stmt], paths: list[_Path], target: ast.AST) -> list[_Path] | None:
    """The paths at ``target`` (None: not in ``body``); raises ``_Unread`` where they are lost."""
    for stmt in body:
        if _holds(stmt, target):
            return _into(stmt, paths, target)
        paths = [after for path in paths for after in _step(stmt, path)]
        if len(paths) > _MAX_PATHS:
            raise _Unread
    return None


def _into(stmt: ast.stmt, paths: list[_Path], target: ast.AST) -> list[_Path]:
    """The paths at ``target`` inside ``stmt``, which holds it."""
    if isinstance(stmt, ast.If):
        for arm in (stmt.body, stmt.orelse):
            found = _walk(arm, paths, target)
            if found is not None:
                return found
        return paths  # in the test
    if isinstance(stmt, ast.For | ast.While | ast.With):
        found = _walk(stmt.body, paths, target)
        return paths if found is None else found
    return paths


def _step(stmt: ast.stmt, path: _Path) -> Iterator[_Path]:
    """The paths after ``stmt`` from ``path``."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        yield from _assigned(stmt.targets[0], stmt.value, path)
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        yield from _assigned(stmt.target, stmt.value, path)
    elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        name = ast.Name(stmt.target.id, ast.Load())
        yield from _assigned(stmt.target, ast.BinOp(name, stmt.op, stmt.value), path)
    elif isinstance(stmt, ast.If):
        floor = _floor_test(stmt)
        for arm in (stmt.body, stmt.orelse):
            arm_paths = [replace(path, floored=path.floored or (floor and arm is stmt.body))]
            for inner in arm:
                arm_paths = [after for p in arm_paths for after in _step(inner, p)]
            yield from arm_paths
    elif isinstance(stmt, ast.Continue | ast.Break | ast.Return | ast.Raise):
        return
    elif any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) for n in ast.walk(stmt)):
        raise _Unread  # a loop, ``with`` or ``try`` assigning something
    else:
        yield path


def _assigned(target: ast.expr, value: ast.expr, path: _Path) -> Iterator[_Path]:
    if isinstance(target, ast.Name):
        for choice, floored in _choices(_substituted(value, path)):
            yield replace(path.bound(target.id, choice), floored=path.floored or floored)
    elif (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts)
        and all(isinstance(e, ast.Name) for e in target.elts)
    ):
        # `start, end = i, i + B`: each item read before any is bound.
        items = [_substituted(v, path) for v in value.elts]
        for element, item in zip(target.elts, items, strict=True):
            path = path.bound(element.id, item)  # type: ignore[attr-defined]
        yield path
    elif any(isinstance(n, ast.Name) for n in ast.walk(target)):
        raise _Unread
    else:
        yield path  # `energies[start:end] = ...` binds no name


def _choices(node: ast.expr) -> list[tuple[ast.expr, bool]]:
    """``min(a, b)`` and ``max(a, b)`` as the argument each path takes; True for the zero of
    ``max(0, e)``, a floor."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("min", "max")
        and len(node.args) == 2
        and not node.keywords
    ):
        return [(node, False)]
    floor = node.func.id == "max"
    return [(arg, floor and _zero(arg)) for arg in node.args]


def _floor_test(stmt: ast.If) -> bool:
    """``if start < 0: start = 0`` (or ``0 > start``): a bound raised to zero."""
    test = stmt.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, ast.Lt | ast.LtE) and _zero(right) and isinstance(left, ast.Name):
        name = left.id
    elif isinstance(op, ast.Gt | ast.GtE) and _zero(left) and isinstance(right, ast.Name):
        name = right.id
    else:
        return False
    return any(
        isinstance(s, ast.Assign)
        and [ast.dump(t) for t in s.targets] == [ast.dump(ast.Name(name, ast.Store()))]
        and _zero(s.value)
        for s in stmt.body
    )


def _zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and type(node.value) is int


def _holds(stmt: ast.stmt, target: ast.AST) -> bool:
    return any(n is target for n in ast.walk(stmt))


class _Substitute(ast.NodeTransformer):
    def __init__(self, path: _Path) -> None:
        self.path = path

    def visit_Name(self, node: ast.Name) -> ast.expr:
        held = self.path.get(node.id) if isinstance(node.ctx, ast.Load) else None
        return node if held is None else held


def _substituted(node: ast.expr, path: _Path) -> ast.expr:
    """``node`` with each name the path bound replaced by what it holds (a copy: the positions
    stay, so that what the summariser reads of it is told there)."""
    if not path.names:
        return node
    return _Substitute(path).visit(copy.deepcopy(node))
