"""Whether a helper of the project rounds sizes to a few buckets, read from its body, not its name.

A size a helper returns is a bucket when every ``return`` gives one: a power of two (``1 <<
n.bit_length()``, ``2 ** ceil(log2(n))``, a ``c`` that a ``while c < n: c *= 2`` loop doubles), an
int written out, an item picked from a table written out (``min(b for b in BUCKETS if b >= n)``,
``BUCKETS[i]``, a loop over it), ``min``/``max`` of buckets, or what another such helper returns;
or the helper remembers its sizes (appends each new one to a collection kept across calls) and
hands back a remembered one when the new size falls within a band above it (``n <= s <= 1.2 *
n``): sizes seen before, "to avoid frequent recompilations". A helper that returns its input
(``n``, ``n + 1``) keeps every size it is given, whatever it is named.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from retracelint.summarise.points import last_name
from retracelint.summarise.sizes import _power_of_two
from retracelint.summarise.syntax import own_nodes


@dataclass(frozen=True)
class Helper:
    """A function of the project as written: its def, its file's tree and its name."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    module: ast.Module
    qualname: str


# What a call written in a helper runs, when that is one function of the project.
Resolve = Callable[[ast.Call, Helper], Helper | None]

# Conversions that keep the number they are given (also what evidence reads through).
KEEPING = frozenset({"int", "round"})
# A doubling (or halving) step of a bucket variable: ``c *= 2``, ``c <<= 1``, ``c //= 2``.
_DOUBLING = ((ast.Mult, 2), (ast.LShift, 1), (ast.FloorDiv, 2), (ast.RShift, 1))
_MAX_DEPTH = 3


# A step from a value into a part of it: ``ITEM``, any item of a collection, or an int, the item
# at that position of a tuple (``start, size = chunk``).
ITEM = "item"
Step = str | int


def buckets_sizes(
    helper: Helper, resolve: Resolve, path: tuple[Step, ...] = (), depth: int = 0
) -> bool:
    """Whether every size ``helper`` returns is one of a few buckets (``resolve``: what the calls
    it makes run); with ``path``, every size at that part of what it returns (the third item of
    each tuple of the list it returns: ``(ITEM, 2)``)."""
    returns = [n.value for n in own_nodes(helper.node.body) if isinstance(n, ast.Return)]
    if not returns:
        return False
    if not path and _remembers_in_band(helper.node, helper.module):
        return True
    reader = _Reader(helper, resolve, depth)
    return all(r is not None and reader.holds(r, path, 0) for r in returns)


class _Reader:
    def __init__(self, helper: Helper, resolve: Resolve, depth: int) -> None:
        self.of, self.resolve, self.depth = helper, resolve, depth
        self.helper, self.module = helper.node, helper.module

    def bound(self, name: str) -> ast.expr | None:
        """What ``name`` is bound to once, in the helper or at its module's top level."""
        for scope in (self.helper, self.module):
            stores = _stores(scope, name)
            if stores:
                only = stores[0] if len(stores) == 1 else None
                return only.value if isinstance(only, ast.Assign) else None
        return None

    def holds(self, node: ast.expr, path: tuple[Step, ...], steps: int) -> bool:
        """Whether the part of ``node`` at ``path`` is a bucket, whichever item it is: a display
        (an empty one holds none), lists joined with ``+``, a name whose every binding and every
        ``append`` does, or what a helper returns (a helper calling itself adds nothing)."""
        if not path:
            return self.bucket(node, steps)
        if steps > 6:
            return False
        step, rest = path[0], path[1:]
        if isinstance(node, ast.List | ast.Tuple) and step == ITEM:
            return all(self.holds(e, rest, steps + 1) for e in node.elts)
        if isinstance(node, ast.Tuple) and isinstance(step, int):
            return step < len(node.elts) and self.holds(node.elts[step], rest, steps + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and step == ITEM:
            return self.holds(node.left, path, steps + 1) and self.holds(
                node.right, path, steps + 1
            )
        if isinstance(node, ast.Name):
            return self._name_holds(node.id, path, steps)
        if isinstance(node, ast.Call):
            helper = self.resolve(node, self.of) if self.depth < _MAX_DEPTH else None
            if helper is not None and helper.qualname == self.of.qualname:
                return True  # recursion: what the other returns decide
            return helper is not None and buckets_sizes(helper, self.resolve, path, self.depth + 1)
        return False

    def _name_holds(self, name: str, path: tuple[Step, ...], steps: int) -> bool:
        stores = _stores(self.helper, name)
        if not stores or not all(
            isinstance(s, ast.Assign) and _only_name(s, name) is not None for s in stores
        ):
            return False
        appended = [
            n.args[0]
            for n in own_nodes(self.helper.body)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "append"
            and isinstance(n.func.value, ast.Name)
            and n.func.value.id == name
            and len(n.args) == 1
        ]
        if appended and path[0] != ITEM:
            return False
        return (
            all(self.holds(s.value, path, steps + 1) for s in stores)
            and all(  # type: ignore[attr-defined]
                self.holds(a, path[1:], steps + 1) for a in appended
            )
        )

    def bucket(self, node: ast.expr, steps: int) -> bool:
        if steps > 6:
            return False
        if isinstance(node, ast.Constant):
            return _int_literal(node)
        if _power_of_two(node, self.bound):
            return True
        if isinstance(node, ast.Name):
            return self._bucket_name(node.id, steps)
        if isinstance(node, ast.IfExp):
            return self.bucket(node.body, steps + 1) and self.bucket(node.orelse, steps + 1)
        if isinstance(node, ast.Subscript):
            return self.table(node.value) is not None
        if isinstance(node, ast.Call):
            return self._bucket_call(node, steps)
        return False

    def _bucket_name(self, name: str, steps: int) -> bool:
        stores = _stores(self.helper, name)
        if not stores:
            value = self.bound(name)  # a module constant
            return value is not None and self.bucket(value, steps + 1)
        plain = [s for s in stores if isinstance(s, ast.Assign)]
        loops = [s for s in stores if isinstance(s, ast.For)]
        doubled = [s for s in stores if isinstance(s, ast.AugAssign)]
        if len(plain) + len(loops) + len(doubled) != len(stores):
            return False
        return (
            all(_doubling(s) for s in doubled)
            and all(self.bucket(s.value, steps + 1) for s in plain)
            and all(self.table(s.iter) is not None for s in loops)
            and bool(plain or loops)
        )

    def _bucket_call(self, node: ast.Call, steps: int) -> bool:
        name = last_name(node.func)
        if name in KEEPING and len(node.args) == 1 and not node.keywords:
            return self.bucket(node.args[0], steps + 1)
        if name in ("min", "max", "next") and node.args:
            picked = node.args[0]
            if len(node.args) == 1 and isinstance(picked, ast.GeneratorExp | ast.ListComp):
                return self._picked_from_table(picked)
            return name != "next" and all(self.bucket(a, steps + 1) for a in node.args)
        helper = self.resolve(node, self.of) if self.depth < _MAX_DEPTH else None
        return helper is not None and buckets_sizes(helper, self.resolve, (), self.depth + 1)

    def _picked_from_table(self, items: ast.GeneratorExp | ast.ListComp) -> bool:
        """``b for b in BUCKETS if b >= n``: an item of a table written out."""
        if len(items.generators) != 1:
            return False
        walked = items.generators[0]
        return (
            isinstance(items.elt, ast.Name)
            and isinstance(walked.target, ast.Name)
            and items.elt.id == walked.target.id
            and self.table(walked.iter) is not None
        )

    def table(self, node: ast.expr) -> list[ast.expr] | None:
        """The items of a table of ints written out (``(64, 128, 256)``), here or bound once."""
        if isinstance(node, ast.Name):
            value = self.bound(node.id)
            return self.table(value) if value is not None and value is not node else None
        written = isinstance(node, ast.List | ast.Tuple | ast.Set) and bool(node.elts)
        if written and all(_int_literal(e) for e in node.elts):  # type: ignore[attr-defined]
            return node.elts  # type: ignore[attr-defined]
        return None


def _only_name(stmt: ast.Assign, name: str) -> ast.expr | None:
    """The target of ``stmt`` when it is the one name ``name``."""
    (target, *others) = stmt.targets
    return target if not others and isinstance(target, ast.Name) and target.id == name else None


def _int_literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _doubling(node: ast.AugAssign) -> bool:
    return any(
        isinstance(node.op, op) and isinstance(node.value, ast.Constant) and node.value.value == k
        for op, k in _DOUBLING
    )


def _remembers_in_band(helper: ast.FunctionDef | ast.AsyncFunctionDef, module: ast.Module) -> bool:
    """Whether ``helper`` keeps the sizes it makes in a collection that outlives the call (a
    module-level name, or an item of one) and returns an item of it when the size asked for
    falls in a band below that item (a comparison with a product: ``n <= s <= 1.2 * n``)."""
    kept = {
        _target_name(n.targets[0])
        for n in module.body
        if isinstance(n, ast.Assign) and len(n.targets) == 1
    } - {None}
    if not kept:
        return False
    # Locals that are the kept collection or an item of it: ``history = HISTORY[tag]``.
    held = set(kept)
    for node in own_nodes(helper.body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            name = _target_name(node.targets[0])
            if name is not None and _reads(node.value, held):
                held.add(name)
    appended = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("append", "add", "insert")
        and _reads(n.func.value, held)
        for n in own_nodes(helper.body)
    )
    banded = any(
        isinstance(n, ast.For)
        and _reads(n.iter, held)
        and any(_in_band(t) for t in ast.walk(n) if isinstance(t, ast.If))
        and any(isinstance(r, ast.Return) for r in ast.walk(n))
        for n in own_nodes(helper.body)
    )
    return appended and banded


def _in_band(test: ast.If) -> bool:
    """A test that compares against a product (``s <= cs * (1 + t)``): a band, not equality."""
    return any(
        isinstance(c, ast.Compare)
        and any(isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in c.ops)
        and any(
            isinstance(side, ast.BinOp) and isinstance(side.op, ast.Mult)
            for side in (c.left, *c.comparators)
        )
        for c in ast.walk(test.test)
    )


def _reads(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _target_name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _stores(scope: ast.AST, name: str) -> list[ast.stmt]:
    """The statements of ``scope``'s own code (not its nested defs') that bind ``name``: an
    assignment (unpacking too: then not one value), an augmented one, a ``for`` target."""
    return [
        node
        for node in own_nodes(scope.body)  # type: ignore[attr-defined]
        if isinstance(node, ast.stmt) and name in bound_by(node)
    ]


def bound_by(node: ast.stmt) -> set[str]:
    """The names an assignment or a ``for`` target binds (not ``self`` of ``self.x = ...``)."""
    if isinstance(node, ast.Assign):
        targets: list[ast.expr] = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For):
        targets = [node.target]
    else:
        return set()
    return {
        n.id
        for t in targets
        for n in ast.walk(t)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
