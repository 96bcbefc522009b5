"""What a value made in the body of a loop over a collection held in memory changes with (issue 36,
round 24: a static bucket size read off each detector plane's response, equal for every plane).

Walking the items of a dict or a list it holds, a loop gives each item once per walk: what is read
off an item (``2 * kernel.num_wires``, ``cfg["n"]``, ``table[key]``) takes one value per item, and
whether two items hold different values the source does not say. So "the value changes at each
iteration" is proven only where it is the loop's index or key (distinct by construction), a value
the body computes or loads per item (a call: data), or a value carried from one iteration to the next
(a count that grows, a state the items transform). This module reads that from the loop's syntax
alone; ``evidence`` asks it of findings whose driving loop walks a held collection."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeGuard

from retracelint.model import in_span
from retracelint.summarise.apis import COMMAND_LINE, COMMAND_LINE_PARSERS
from retracelint.summarise.points import last_name
from retracelint.summarise.syntax import ast_span, statement_targets

# What a name of the loop body changes with.
INDEX = "index"  # the loop's index or key: different at each iteration
ITEM = "item"  # read off the item: one value per item, equal or not
MADE = "made"  # computed or loaded per item by a call: data
CARRIED = "carried"  # made from its own value at the previous iteration

# Builtins that keep what they are given (a number converted, a length, a bound): reading them
# reads the item, where a call of anything else computes something new from it.
_READS = frozenset({"int", "float", "round", "len", "abs", "min", "max", "bool", "str", "tuple"})
# Iterating these walks keys or indices: each iteration's is another.
_KEYED = frozenset({"keys", "range"})
# Views and wrappers that walk the items of the collection they are given (their first argument, or
# the object they are called on).
_VIEWS = frozenset({"items", "values", "keys"})
_WRAPPERS = frozenset({"enumerate", "zip", "sorted", "reversed", "list", "tuple"})
_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
# The one value a name is bound to where it is the name's only binding (None: not so).
Bound = Callable[[str], ast.expr | None]
_EXPRESSIONS = (
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.Tuple,
    ast.List,
    ast.JoinedStr,
    ast.FormattedValue,
    ast.Starred,
)


@dataclass(frozen=True)
class _Body:
    """A loop's names: its index or key targets, its item targets, and, for each name its body
    binds, what it is bound to (None where it is updated in place, ``n += k``, or bound by another
    statement than an assignment: a nested loop, a ``with``)."""

    index: frozenset[str]
    items: frozenset[str]
    bound: dict[str, tuple[ast.expr | None, ...]]


@dataclass(frozen=True)
class Walk:
    """A loop as the source writes it: a for statement, or a comprehension's ``for`` (whose body
    is its element: no statement), and the code its body runs (for ``inside``)."""

    target: ast.expr
    iterable: ast.expr
    body: list[ast.stmt]
    code: ast.AST

    @staticmethod
    def of(node: ast.AST, comprehension: ast.AST | None = None) -> Walk | None:
        """The walk of a for statement, or of a ``for`` of ``comprehension`` (the expression)."""
        if isinstance(node, ast.For | ast.AsyncFor):
            return Walk(node.target, node.iter, node.body, node)
        if isinstance(node, ast.comprehension) and comprehension is not None:
            return Walk(node.target, node.iter, [], comprehension)
        return None

    def inside(self, line: int, col: int) -> bool:
        """Whether the position is in the code the body runs (not the loop's head)."""
        code = self.code
        if self.body:
            return self.body[0].lineno <= line <= (code.end_lineno or code.lineno)  # type: ignore[attr-defined]
        first, col0, last, end_col = ast_span(code)
        return in_span((line, col), (first, col0), (last, end_col))


def read_per_item(loop: Walk, carriers: Iterable[ast.expr]) -> bool:
    """Whether what ``carriers`` (expressions of ``loop``'s body, or the arguments of a call made
    there) change with at each iteration is only what they read off the loop's items: not its
    index or key, nothing a call computes, nothing carried between iterations."""
    body = _body(loop)
    kinds: set[str] = set()
    for carrier in carriers:
        kinds |= _kinds(carrier, body, ())
    return kinds == {ITEM}


def looked_up(loop: Walk, carriers: Iterable[ast.expr]) -> frozenset[str]:
    """The collections a loop over a ``range`` of indices reads ``carriers`` off (``filt`` of ``p =
    int(filt[fp])``, ``layers`` of ``n = int(layers[p])``): the root names of what the carriers, through
    the body's bindings, look up by a key that changes per iteration. Empty for any other loop: its
    items are what it walks, not rows of a table it numbers."""
    if not (isinstance(loop.iterable, ast.Call) and last_name(loop.iterable.func) == "range"):
        return frozenset()
    body = _body(loop)
    tables: set[str] = set()
    pending, seen = list(carriers), set[str]()
    while pending:
        for node in ast.walk(pending.pop()):
            if _loads(node) and node.id in body.bound and node.id not in seen:
                seen.add(node.id)
                pending.extend(v for v in body.bound[node.id] if v is not None)
            elif isinstance(node, ast.Subscript) and _kinds(node.slice, body, ()):
                root = _root_name(node.value)
                if root is not None:
                    tables.add(root)
    return frozenset(tables)


def _loads(node: ast.AST) -> TypeGuard[ast.Name]:
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)


def _root_name(node: ast.expr) -> str | None:
    """The name an attribute or subscript chain starts from (``state`` of ``state.ncan[0]``)."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def walked(iterable: ast.expr) -> ast.expr:
    """The collection a loop over ``iterable`` walks the items of (``d`` of ``enumerate(d.items())``)."""
    while isinstance(iterable, ast.Call):
        func = iterable.func
        if isinstance(func, ast.Attribute) and func.attr in _VIEWS and not iterable.args:
            iterable = func.value
        elif last_name(func) in _WRAPPERS and iterable.args:
            iterable = iterable.args[0]
        else:
            break
    return iterable


def written_out(collection: ast.expr, bound: Bound) -> bool:
    """Whether the items of ``collection`` are written out where the program is: a display
    (``{"birds": (labels, 3), ...}``), a name bound once to one, or the options a user gives on the
    command line (``sys.argv``, ``args.resolutions``): items a person wrote one by one, each for a
    setting of its own, where a collection a program builds (in a loop, from files) may repeat one."""
    if isinstance(collection, _DISPLAYS):
        return True
    if isinstance(collection, ast.Subscript):  # ``sys.argv[1:]``
        return written_out(collection.value, bound)
    if isinstance(collection, ast.Name):
        value = bound(collection.id)
        return value is not None and isinstance(value, _DISPLAYS)
    if isinstance(collection, ast.Attribute) and isinstance(collection.value, ast.Name):
        if f"{collection.value.id}.{collection.attr}" in COMMAND_LINE:
            return True
        namespace = bound(collection.value.id)
        if isinstance(namespace, ast.Subscript):  # ``args = parser.parse_known_args()[0]``
            namespace = namespace.value
        return isinstance(namespace, ast.Call) and last_name(namespace.func) in COMMAND_LINE_PARSERS
    return False


def _body(loop: Walk) -> _Body:
    index, items = _split_targets(loop.target, loop.iterable)
    bound: dict[str, list[ast.expr | None]] = {}
    for stmt in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for name in _stored(target):
                    bound.setdefault(name, []).append(stmt.value)
        elif isinstance(stmt, ast.stmt) and not isinstance(stmt, ast.AnnAssign):
            # ``n += 1``, ``for x in``, ``with ... as f``: bound by the statement itself, to no
            # one value (a bare annotation binds nothing).
            for name in (n for t in statement_targets(stmt) for n in _stored(t)):
                bound.setdefault(name, []).append(None)
    return _Body(index, items, {name: tuple(values) for name, values in bound.items()})


def _stored(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _split_targets(target: ast.expr, walked: ast.expr) -> tuple[frozenset[str], frozenset[str]]:
    """The loop's index or key names, and its item names: ``for i, x in enumerate(xs)`` (i; x),
    ``for k, v in d.items()`` (k; v), ``for i in range(len(xs))`` (i; none)."""
    call = walked if isinstance(walked, ast.Call) else None
    name = last_name(call.func) if call is not None else ""
    names = frozenset(_stored(target))
    if name in _KEYED or isinstance(walked, ast.Set):
        return names, frozenset()
    if isinstance(target, ast.Tuple) and len(target.elts) == 2 and call is not None:
        first, second = target.elts
        if name == "enumerate" and call.args:
            index, items = _split_targets(second, call.args[0])
            return frozenset(_stored(first)) | index, items
        if name == "items" and not call.args:
            return frozenset(_stored(first)), frozenset(_stored(second))
    return frozenset(), names


def _kinds(node: ast.expr, body: _Body, resolving: tuple[str, ...]) -> set[str]:
    """What ``node`` changes with per iteration (empty: nothing, it is the same each time)."""
    if isinstance(node, ast.Name):
        return _name_kinds(node.id, body, resolving)
    if isinstance(node, ast.Constant):
        return set()
    if isinstance(node, ast.Attribute):
        return _kinds(node.value, body, resolving)
    if isinstance(node, ast.Subscript):
        key = _kinds(node.slice, body, resolving)
        if _plain_key(node.slice):
            # A table looked up by the index or key (``volumes[vol_idx]``) is read per item; a
            # slice or a mask made from it (``order[:index]``, ``x[y == index]``) says its length.
            key = {ITEM if kind == INDEX else kind for kind in key}
        return _kinds(node.value, body, resolving) | key
    if isinstance(node, ast.Slice):
        parts = (node.lower, node.upper, node.step)
        return set().union(*(_kinds(p, body, resolving) for p in parts if p is not None))
    if isinstance(node, _EXPRESSIONS):
        children = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
        return set().union(*(_kinds(c, body, resolving) for c in children))
    if _reading(node):
        return set().union(*(_kinds(a, body, resolving) for a in node.args))  # type: ignore[attr-defined]
    return {MADE} if _reads_loop(node, body) else set()


def _reading(node: ast.expr) -> bool:
    """A builtin that keeps what it is given (``int(b1)``, ``len(rows)``)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _READS
        and not node.keywords
    )


def _plain_key(key: ast.expr) -> bool:
    """A key written as names and constants (``k``, ``(vol, plane)``, ``"n"``)."""
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    return all(isinstance(part, ast.Name | ast.Constant) for part in parts)


def _reads_loop(node: ast.expr, body: _Body) -> bool:
    """Whether ``node`` reads a name the loop binds (its targets or what its body binds)."""
    own = body.index | body.items | body.bound.keys()
    return any(isinstance(n, ast.Name) and n.id in own for n in ast.walk(node))


def _name_kinds(name: str, body: _Body, resolving: tuple[str, ...]) -> set[str]:
    if name in body.index:
        return {INDEX}
    values = body.bound.get(name)
    if values is None:
        return {ITEM} if name in body.items else set()
    if name in resolving or None in values:
        return {CARRIED}  # made from itself: what an iteration leaves, the next one reads
    kinds = {ITEM} if name in body.items else set()
    for value in values:
        kinds |= _kinds(value, body, (*resolving, name))  # type: ignore[arg-type]
    return kinds
