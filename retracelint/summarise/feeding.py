"""Which parameters feed what a function returns (``Param.read``): the names its result may be made
from, followed back from its returns and yields through bindings, stores, mutators and the
conditions and loops that decide them.

One walk of the body gathers what each binding writes and the nodes it reads; the names a
binding reads are gathered only once something it writes turns out to feed the result (most never
do), and what the statements under an ``if`` or a loop write is summed over the walk instead of
walked again per ``if`` (a walk per block made the pass quadratic in how deep blocks nest).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from retracelint.summarise.points import CHILD_FIELDS, _walk
from retracelint.summarise.syntax import _statements
from retracelint.summary import Param

# What a function returns, among the names followed (not a Python name).
_RESULT = "<result>"
# Builtins that read a function's local names without naming them.
_NAMES_BY_SCOPE = frozenset({"locals", "vars", "eval", "exec"})
# Methods that change the object they are called on from what they are given.
_MUTATORS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "put", "push", "appendleft"}
)
# What leaves a block before its end: the writes after it run or not as the block's test says.
_LEAVING = (ast.Return, ast.Yield, ast.YieldFrom, ast.Break, ast.Continue)
# The blocks whose test (or what they walk) decides what the statements under them write.
_DECIDING = frozenset({ast.If, ast.While, ast.For, ast.AsyncFor})
# The kinds of node that bind, store, mutate, leave or decide (all others only read).
_FLOWING = frozenset(
    {
        *_LEAVING,
        ast.IfExp,
        ast.Assign,
        ast.AugAssign,
        ast.AnnAssign,
        ast.NamedExpr,
        ast.For,
        ast.AsyncFor,
        ast.comprehension,
        ast.withitem,
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.Call,
    }
)
# Marks, on the walk's stack, where the statements of the innermost deciding block end.
_LEFT = object()


@dataclass(slots=True, eq=False)
class _Flow:
    """Where any name of ``written`` feeds the result, so do the names the ``reads`` load."""

    written: frozenset[str] | set[str]
    reads: tuple[ast.AST, ...]


@dataclass
class _Body:
    """What one walk of a body tells: the flows, what feeds the result from the start (the values
    returned or yielded, and the tests of conditional expressions, each deciding which arm is the
    value), and whether the body can read its names without naming them (``locals()``, ``eval``)."""

    flows: list[_Flow] = field(default_factory=list)
    results: list[ast.AST] = field(default_factory=list)
    by_scope: bool = False


def read_params(
    params: tuple[Param, ...], node: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[Param, ...]:
    """``params`` with those that nothing the function returns or yields is made from marked
    unread (``iteration`` handed only to a logger or a saver whose result is not returned); all
    read where the body can reach its names without naming them (``locals()``, ``eval``)."""
    if not params or _returned_by_name(params, node.body):
        return params
    body = _walk_body(node.body)
    if body.by_scope:
        return params
    start = _loaded(body.results)
    if all(p.name in start for p in params):
        return params
    feeding = _feeding(body.flows, start)
    return tuple(p if p.name in feeding else replace(p, read=False) for p in params)


def _returned_by_name(params: tuple[Param, ...], body: list[ast.stmt]) -> bool:
    """Whether ``return`` statements name every parameter in what they return (half the functions
    do): then all feed, whatever else does, and the walk of the whole body is not needed."""
    returned = _loaded(
        stmt.value
        for stmt in _statements(body)
        if isinstance(stmt, ast.Return) and stmt.value is not None
    )
    return all(p.name in returned for p in params)


def _feeding(flows: list[_Flow], start: set[str]) -> set[str]:
    """The least set of names holding ``start`` and ``_RESULT`` that holds the reads of every flow
    one of whose written names it holds."""
    by_name: dict[str, list[_Flow]] = {}
    for flow in flows:
        for name in flow.written:
            by_name.setdefault(name, []).append(flow)
    feeding = {_RESULT, *start}
    todo = list(feeding)
    fired: set[_Flow] = set()
    while todo:
        for flow in by_name.get(todo.pop(), ()):
            if flow in fired:
                continue
            fired.add(flow)
            new = _loaded(flow.reads) - feeding
            feeding |= new
            todo.extend(new)
    return feeding


def _walk_body(body: list[ast.stmt]) -> _Body:
    """One walk of ``body`` (nested defs, classes and lambdas too): its flows, with what each
    ``if`` and loop writes summed from the writes under it once the walk is done."""
    out = _Body()
    # What the statements under each deciding block write (a loop's target too), each with the
    # block around it; index 0 is the body itself, which decides nothing.
    written: list[set[str]] = [set()]
    outer: list[int] = [0]
    open_blocks = [0]
    # Unordered: what the walk gathers are sets. Items of a list field that are no node (a dict
    # display's ``**`` key, a keyword-only parameter's missing default) have no fields: skipped.
    stack: list[object] = list(body)
    while stack:
        node = stack.pop()
        kind = type(node)
        fields = CHILD_FIELDS.get(kind)
        if fields is None:
            if node is _LEFT:
                open_blocks.pop()
            continue
        if kind is ast.Name:
            if node.id in _NAMES_BY_SCOPE:  # type: ignore[attr-defined]
                out.by_scope = True
                return out
            continue
        block = open_blocks[-1]
        if kind in _DECIDING:
            # The block's own test and target are under it, as its statements are.
            written.append(set())
            outer.append(block)
            block = len(written) - 1
            open_blocks.append(block)
            stack.append(_LEFT)
            decided_by = node.iter if kind is ast.For or kind is ast.AsyncFor else node.test  # type: ignore[attr-defined]
            out.flows.append(_Flow(written[block], (decided_by,)))
        if kind in _FLOWING:
            _read_node(node, out, written[block])  # type: ignore[arg-type]
        for name in fields:
            child = getattr(node, name, None)
            if type(child) is list:
                stack.extend(child)
            elif child is not None:
                stack.append(child)
    # A block's writes are its enclosing block's too; inner blocks come after the outer ones.
    for block in range(len(written) - 1, 0, -1):
        written[outer[block]] |= written[block]
    return out


def _read_node(node: ast.AST, out: _Body, written: set[str]) -> None:
    """The flow ``node`` makes, and what it writes into the innermost deciding block's ``written``."""
    if isinstance(node, _LEAVING):
        written.add(_RESULT)  # what is returned, or which writes run after it
        if not isinstance(node, ast.Break | ast.Continue) and node.value is not None:
            out.results.append(node.value)
    elif isinstance(node, ast.IfExp):
        out.results.append(node.test)  # as its arms, which the walk reaches as the values they are
    elif isinstance(node, ast.Assign):
        targets = _bases_of(node.targets)
        written |= targets
        out.flows.append(_Flow(targets, (node.value,)))
    elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr):
        target = _bases(node.target)
        written |= target
        if node.value is not None:
            out.flows.append(_Flow(target, (node.value, node.target)))
    elif isinstance(node, ast.For | ast.AsyncFor):
        written |= _bases(node.target)
    elif isinstance(node, ast.comprehension):
        out.flows.append(_Flow(_bases(node.target), (node.iter,)))
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        out.flows.append(_Flow(_bases(node.optional_vars), (node.context_expr,)))
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        out.flows.append(_Flow({node.name}, (node,)))
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _MUTATORS
    ):
        target = _bases(node.func.value)
        written |= target
        out.flows.append(_Flow(target, (*node.args, *(k.value for k in node.keywords))))


def _loaded(nodes: Iterable[ast.AST]) -> set[str]:
    """The names read under ``nodes``."""
    return {n.id for n in _loads(nodes)}


def _loads(nodes: Iterable[ast.AST]) -> Iterator[ast.Name]:
    for node in nodes:
        for n in _walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                yield n


def _bases_of(targets: list[ast.expr]) -> set[str]:
    return set().union(set(), *map(_bases, targets))


def _bases(target: ast.AST) -> set[str]:
    """The names a store into ``target`` changes: ``x`` of ``x``, ``x[k]``, ``x.a.b``, each of a
    tuple's."""
    while isinstance(target, ast.Attribute | ast.Subscript | ast.Starred):
        target = target.value
    if isinstance(target, ast.Tuple | ast.List):
        return _bases_of(target.elts)
    return {target.id} if isinstance(target, ast.Name) else set()
