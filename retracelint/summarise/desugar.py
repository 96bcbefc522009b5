"""Spellings of a statement that Python runs alike, read as the one the analysis knows.

A ``for`` loop written out by hand with its iterator::

    it = iter(xs)
    while True:
        try:
            x = next(it)
        except StopIteration:
            break
        body

runs exactly as ``for x in xs: body`` (``break`` and ``continue`` in the body included) when
nothing else reads ``it``. The analysis knows a ``for`` well (what it walks, how often, what its
target takes from the items) and a ``while True`` hardly at all, so the tree is rewritten to the
``for``, placed on the ``iter(...)`` line where the loop starts.

Keywords packed into a dict display, ``step(x, **{"lr": lr})``, are passed as ``step(x, lr=lr)``
(Python unpacks the display into those keywords, in order): the static arguments, the flips and the
defaults left out all read a call's keywords by name.

A shape spliced onto a tuple display, ``(size,) + x.shape[1:]``, is the tuple ``(size,
*x.shape[1:])`` (tuple concatenation): an array made with it has the axes of ``x`` after the first
(which a change of ``x``'s first axis leaves alone), as the starred spelling says.
"""

from __future__ import annotations

import ast
import re
from collections import Counter


def plain(tree: ast.Module, text: str) -> ast.Module:
    """``tree`` of source ``text`` (changed in place) with every hand-written iterator loop made the
    ``for`` it spells and every call's dict display of keywords unpacked. The text decides first
    whether either spelling can occur (each walk of a whole tree costs more than the rest of the
    summary of most files)."""
    packed, spliced = _PACKED.search(text), _SPLICED.search(text)
    if packed or spliced:
        for node in ast.walk(tree):
            if packed and isinstance(node, ast.Call) and any(k.arg is None for k in node.keywords):
                node.keywords = [spelled for k in node.keywords for spelled in _unpacked(k)]
            if spliced:
                for field, value in ast.iter_fields(node):
                    if isinstance(value, ast.BinOp):
                        setattr(node, field, _spliced(value))
                    elif isinstance(value, list) and any(isinstance(v, ast.BinOp) for v in value):
                        setattr(
                            node,
                            field,
                            [_spliced(v) if isinstance(v, ast.BinOp) else v for v in value],
                        )
    return _for_loops(tree) if "StopIteration" in text else tree


# ``**{`` of a dict display unpacked into keywords; a hand-written loop must catch StopIteration; a
# shape added to (or onto) a tuple.
_PACKED = re.compile(r"\*\*\s*\{")
_SPLICED = re.compile(r"\.shape(\[[^\]]*\])?\s*\+|\+\s*[\w.]+\.shape\b")


def _spliced(node: ast.BinOp) -> ast.expr:
    """``(a,) + x.shape[1:]`` as ``(a, *x.shape[1:])``, ``x.shape[:-1] + (a,)`` as ``(*x.shape[:-1],
    a)``; any other operation as itself."""
    if not isinstance(node.op, ast.Add):
        return node
    left, right = node.left, node.right
    if isinstance(left, ast.Tuple) and _is_shape(right):
        elts = [*left.elts, _starred(right)]
    elif isinstance(right, ast.Tuple) and _is_shape(left):
        elts = [_starred(left), *right.elts]
    else:
        return node
    return ast.copy_location(ast.Tuple(elts=elts, ctx=ast.Load()), node)


def _is_shape(node: ast.expr) -> bool:
    """``x.shape`` or a slice of it."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def _starred(node: ast.expr) -> ast.Starred:
    return ast.copy_location(ast.Starred(value=node, ctx=ast.Load()), node)


def _unpacked(keyword: ast.keyword) -> list[ast.keyword]:
    """``**{"a": x, "b": y}`` as ``a=x, b=y``; any other keyword as itself."""
    display = keyword.value
    if keyword.arg is not None or not isinstance(display, ast.Dict):
        return [keyword]
    keys = [k.value if isinstance(k, ast.Constant) else None for k in display.keys]
    if not all(isinstance(k, str) and k.isidentifier() for k in keys) or len(set(keys)) < len(keys):
        return [keyword]
    return [
        ast.keyword(
            arg=key,
            value=value,
            lineno=value.lineno,
            col_offset=value.col_offset,
            end_lineno=value.end_lineno,
            end_col_offset=value.end_col_offset,
        )
        for key, value in zip(keys, display.values, strict=True)
    ]


def _for_loops(tree: ast.Module) -> ast.Module:
    names = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    if not names["iter"] or not names["next"] or _rebinds_builtins(tree):
        return tree
    # Innermost first, so that a loop nested in a hand-written one is rewritten too.
    for node in reversed(list(ast.walk(tree))):
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, _rewritten(value, names))
    return tree


def _rebinds_builtins(tree: ast.Module) -> bool:
    """Whether ``iter`` or ``next`` may name something else than the builtins anywhere."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound = node.id
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound = node.name
        elif isinstance(node, ast.alias):
            bound = node.asname or node.name
        elif isinstance(node, ast.arg):
            bound = node.arg
        else:
            continue
        if bound in ("iter", "next"):
            return True
    return False


def _rewritten(body: list[ast.stmt], names: Counter[str]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    i = 0
    while i < len(body):
        loop = _as_for(body[i], body[i + 1], names) if i + 1 < len(body) else None
        if loop is None:
            out.append(body[i])
            i += 1
        else:
            out.append(loop)
            i += 2
    return out


def _as_for(start: ast.stmt, loop: ast.stmt, names: Counter[str]) -> ast.For | None:
    """``start`` (``it = iter(xs)``) and ``loop`` (the ``while True`` taking ``next(it)``) as one
    ``for``, or None when they are not that pair or ``it`` is read anywhere else in the file."""
    iterable = _iter_call(start)
    if iterable is None or not isinstance(loop, ast.While) or loop.orelse:
        return None
    if not (isinstance(loop.test, ast.Constant) and loop.test.value is True):
        return None
    name = start.targets[0].id  # type: ignore[attr-defined]  # _iter_call checked it
    target = _next_taken(loop.body[0], name)
    # The assignment and the next() call are its only two uses.
    if target is None or len(loop.body) < 2 or names[name] != 2:
        return None
    return ast.For(
        target=target,
        iter=iterable,
        body=loop.body[1:],
        orelse=[],
        type_comment=None,
        lineno=start.lineno,
        col_offset=start.col_offset,
        end_lineno=loop.end_lineno,
        end_col_offset=loop.end_col_offset,
    )


def _iter_call(stmt: ast.stmt) -> ast.expr | None:
    """``xs`` of ``it = iter(xs)``."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return None
    call = stmt.value
    return call.args[0] if _builtin_call(call, "iter", 1) else None  # type: ignore[union-attr]


def _next_taken(stmt: ast.stmt, iterator: str) -> ast.expr | None:
    """``x`` of ``try: x = next(it) except StopIteration: break``."""
    if not (
        isinstance(stmt, ast.Try)
        and len(stmt.body) == 1
        and len(stmt.handlers) == 1
        and not stmt.orelse
        and not stmt.finalbody
    ):
        return None
    handler = stmt.handlers[0]
    if not (
        isinstance(handler.type, ast.Name)
        and handler.type.id == "StopIteration"
        and handler.name is None
        and len(handler.body) == 1
        and isinstance(handler.body[0], ast.Break)
    ):
        return None
    taken = stmt.body[0]
    if not (isinstance(taken, ast.Assign) and len(taken.targets) == 1):
        return None
    call = taken.value
    if not _builtin_call(call, "next", 1):
        return None
    arg = call.args[0]  # type: ignore[attr-defined]
    return taken.targets[0] if isinstance(arg, ast.Name) and arg.id == iterator else None


def _builtin_call(node: ast.expr, name: str, arity: int) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == name
        and len(node.args) == arity
        and not isinstance(node.args[0], ast.Starred)
        and not node.keywords
    )
