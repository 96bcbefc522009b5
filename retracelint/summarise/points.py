"""The points of a sweep the source spells out: how many items a collection written in the code
gives, and whether each gives a size of its own (``Points``).

A loop over ``[64, 128, 256]`` (or a name bound once to it, ``zip`` or ``itertools.product`` of such)
walks a few points fixed by the source; the frequency model (``Frequency.sweep``) reads these facts to
tell a sweep over a few problems from the steps of a run.
"""

from __future__ import annotations

import ast
import math
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from retracelint.summary import Points

# How many points a call over collections walks, by the call's last name: as many as its first
# argument (``enumerate``, ``tqdm``, ``np.array``), as its shortest (``zip``), or all combinations
# (``itertools.product``).
_POINTS_OF_CALL: dict[str, Callable[[list[int]], int]] = {
    **dict.fromkeys(
        ("enumerate", "reversed", "sorted", "list", "tuple", "tqdm", "array", "asarray"),
        lambda counts: counts[0],
    ),
    "zip": min,
    "product": math.prod,
}
_EVERY_ARGUMENT = frozenset({"zip", "product"})
# Calls whose result holds each item once, whatever they are given (a loop over it walks distinct
# items); ``dict.fromkeys`` too, by its last name.
_SETS = frozenset({"set", "frozenset", "fromkeys", "unique"})
# The methods that change how many items a list (or a set) holds.
_RESIZING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "add", "update"})
# Those that add what their last argument gives: an item, or the items of a collection.
_ADDING = frozenset({"append", "extend", "insert"})

# The display a name is bound to once, where nothing resizes it (None: not known).
Bound = Callable[[str], ast.expr | None]


def spelled_points(node: ast.expr | None, bound: Bound) -> Points | None:
    """The points ``node`` gives, when the source fixes them: a display of constants (``[64,
    128]``, ``[(MINMOD, 401), ...]``), ``range`` of literal integers, a name ``bound`` to one, either of two (``a if c else b``), and
    ``zip``, ``itertools.product``, ``enumerate``, ``np.array``... of those."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        if not all(map(_fixed_item, node.elts)):
            return None
        return Points(len(node.elts), _sizes(node.elts), all(map(_number, node.elts)))
    if isinstance(node, ast.Name):
        # A name bound to a call over other names (``TASKS = tuple(itertools.product(NS, KS))``)
        # follows those too, never the same name twice: a cycle of names ends.
        return spelled_points(bound(node.id), _without(bound, node.id))
    if isinstance(node, ast.IfExp):
        # ``[-1, 0, 1] if v_axis else [0]``: the points of either branch, as many as the most.
        branches = [spelled_points(branch, bound) for branch in (node.body, node.orelse)]
        known = [b for b in branches if b is not None]
        if len(known) < len(branches):
            return None
        return Points(
            max(b.count for b in known), all(b.sizes for b in known), all(b.numbers for b in known)
        )
    if isinstance(node, ast.BinOp) and _number(node.left) != _number(node.right):
        # ``2 ** np.arange(4, 10)``, ``np.arange(5) * 0.1``: a number and points give as many points.
        points = spelled_points(node.right if _number(node.left) else node.left, bound)
        if points is not None and _powers(node, bound):
            return Points(points.count, True, points.numbers)
        return points
    if not isinstance(node, ast.Call):
        return None
    name = last_name(node.func)
    if name == "range":
        return _range_points(node, bound)
    if name == "arange":
        return _arange_points(node)
    combine = _POINTS_OF_CALL.get(name)
    args = node.args[: None if name in _EVERY_ARGUMENT else 1]
    found = [spelled_points(arg, bound) for arg in args]
    known = [f for f in found if f is not None]
    if combine is None or not found or len(known) < len(found) or node.keywords:
        return None
    counts = [f.count for f in known]
    return Points(combine(counts), any(f.sizes for f in known), all(f.numbers for f in known))


def distinct_items(node: ast.expr | None, bound: Bound) -> bool:
    """Whether a loop over ``node`` walks items the source fixes, each another, however many: the
    points ``spelled_points`` reads, a ``range`` or ``arange`` of any bounds (numbered stages of a
    curriculum, sizes), a comprehension over such, a concatenation of them (``[2**i for i in
    range(4, 18)] + [58000]``), ``zip``/``product``/``enumerate``/``sorted``... of them, or a name
    ``bound`` to one; or a set, whatever it is made of (``sorted(set(cfg["sizes"]))``), each
    another by construction. A loader, a generator or a parameter (its callers say) is none of
    them."""
    if node is None:
        return False
    if spelled_points(node, bound) is not None or holds_each_once(node):
        return True
    if isinstance(node, ast.Name):
        return distinct_items(bound(node.id), _without(bound, node.id))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return distinct_items(node.left, bound) and distinct_items(node.right, bound)
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
        return all(distinct_items(comp.iter, bound) for comp in node.generators)
    if not isinstance(node, ast.Call):
        return False
    name = last_name(node.func)
    if name in ("range", "arange"):
        return True
    args = [] if node.keywords else node.args[: None if name in _EVERY_ARGUMENT else 1]
    return name in _POINTS_OF_CALL and bool(args) and all(distinct_items(a, bound) for a in args)


def holds_each_once(node: ast.AST | None) -> bool:
    """Whether ``node`` is a set, or a list, sorted or not, of one (``sorted(set(cfg["sizes"]))``):
    each item another by construction, whatever it is made of."""
    while isinstance(node, ast.Call) and last_name(node.func) in _POINTS_OF_CALL and node.args:
        node = node.args[0]
    return isinstance(node, ast.Set | ast.SetComp) or (
        isinstance(node, ast.Call) and last_name(node.func) in _SETS
    )


def gives_points(node: ast.AST | None) -> bool:
    """Whether a name bound to ``node`` can give a sweep its points: a display, a literal (a
    ``range`` bound) or a call of what ``spelled_points`` reads; anything else gives none however
    the name is bound, so no one need look."""
    if isinstance(node, ast.Constant):
        return True
    return isinstance(node, ast.expr) and spelled_points(node, unbound) is not None


def unbound(name: str) -> None:
    """No name is followed (a default, or a name met inside what a name is bound to)."""
    return None


def _without(bound: Bound, followed: str) -> Bound:
    """``bound`` less the name ``followed``, already being read."""
    return lambda name: None if name == followed else bound(name)


def walked_name(iterated: ast.expr | None) -> str | None:
    """The name a loop over ``iterated`` walks the items of, through calls that keep their count
    (``enumerate(tasks)``, ``sorted(tasks)``, ``tqdm(tasks)``): what a parameter a loop walks is
    named, so that its callers' arguments give the points. Read once per loop, where the loop is
    summarised (``LoopInfo.walked``)."""
    node = iterated
    while (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and _POINTS_OF_CALL.get(last_name(node.func)) is _POINTS_OF_CALL["enumerate"]
    ):
        node = node.args[0]
    return node.id if isinstance(node, ast.Name) else None


def numbered_name(iterated: ast.expr | None, bound: Bound) -> tuple[str, int] | None:
    """``(xs, k)`` for a loop over ``range(len(xs))`` or ``range(k, len(xs))`` (``k`` a literal
    int; ``len(xs)`` also through a name bound once to it, ``n = len(xs)``): it takes a turn per
    item of ``xs`` past the first ``k`` (``LoopInfo.numbers``)."""
    if not (isinstance(iterated, ast.Call) and last_name(iterated.func) == "range"):
        return None
    if iterated.keywords or len(iterated.args) not in (1, 2):
        return None
    *start, stop = iterated.args
    if isinstance(stop, ast.Name):
        stop = bound(stop.id) or stop
    first = start[0] if start else ast.Constant(0)
    skipped = first.value if isinstance(first, ast.Constant) else None
    counted = isinstance(stop, ast.Call) and last_name(stop.func) == "len" and len(stop.args) == 1
    if type(skipped) is not int or skipped < 0 or not counted:
        return None
    measured = stop.args[0]  # type: ignore[attr-defined]
    return (measured.id, skipped) if isinstance(measured, ast.Name) else None


def _range_points(node: ast.Call, bound: Bound) -> Points | None:
    """``range`` of literal integers, of names bound once to them (``num_runs = 3`` before
    ``for run in range(num_runs)``: the source fixes that count as surely as ``range(3)``), or of
    sums, differences and products of those (``range(0, N_EPS + 1)``)."""
    bounds = [_spelled_int(a, bound) for a in node.args]
    ints = all(b is not None for b in bounds)
    if not (ints and 0 < len(bounds) <= 3 and 0 not in bounds[2:]) or node.keywords:
        return None
    # Its items number the turns (episodes, seeds, repeats): no size of a problem each.
    return Points(len(range(*bounds)), False, True)


def _spelled_int(node: ast.expr | None, bound: Bound) -> int | None:
    """The integer ``node`` spells (``int_of``), its names read where they are ``bound`` once."""
    if node is None:
        return None
    return int_of(node, lambda name: _spelled_int(bound(name), _without(bound, name)))


_INT_OPS = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__}


def int_of(node: ast.expr, named: Callable[[str], int | None]) -> int | None:
    """An integer written out, a name whose integer ``named`` gives (a module constant), or a sum,
    difference or product of those."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.Name):
        return named(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_of(node.operand, named)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp) and type(node.op) in _INT_OPS:
        left, right = int_of(node.left, named), int_of(node.right, named)
        if left is None or right is None:
            return None
        return _INT_OPS[type(node.op)](left, right)
    return None


def _arange_points(node: ast.Call) -> Points | None:
    """``np.arange``/``jnp.arange`` of literal numbers: as many points as its length, numbers that
    number the points of a figure or a benchmark (``jnp.arange(10, 20)``), as ``range``'s do."""
    bounds = [_literal(a) for a in node.args]
    if not 0 < len(bounds) <= 3 or None in bounds or node.keywords:
        return None
    start, stop, step = ([0.0] if len(bounds) == 1 else []) + bounds + [1.0] * (len(bounds) < 3)
    if not step:
        return None
    count = math.ceil((stop - start) / step)  # type: ignore[operator]
    return Points(count, False, True) if count > 0 else None


def _powers(node: ast.BinOp, bound: Bound) -> bool:
    """Whether ``node`` raises an integer base of at least 2 to numbered points none of which is
    negative (``2 ** np.arange(4, 10, 0.5)``, ``10 ** np.arange(0, 7, 0.1)``): a geometric series
    from 1 up, the sizes of a problem spread over decades, each point a size of its own. Negative
    exponents give fractions (``10 ** np.arange(-5, -1)``: learning rates), no sizes."""
    base = _literal(node.left)
    if not isinstance(node.op, ast.Pow) or base is None or base < 2 or base != int(base):
        return False
    exponents = node.right
    if isinstance(exponents, ast.Name):
        exponents = bound(exponents.id)
    if not (isinstance(exponents, ast.Call) and last_name(exponents.func) in ("range", "arange")):
        return False
    bounds = [_literal(a) for a in exponents.args]
    if None in bounds or not bounds or exponents.keywords:
        return False
    start = bounds[0] if len(bounds) > 1 else 0.0
    step = bounds[2] if len(bounds) > 2 else 1.0
    return start >= 0 and step > 0  # type: ignore[operator]


def is_numbered(node: ast.expr | None, bound: Bound) -> bool:
    """Whether ``node`` walks numbered points whose count ``spelled_points`` gives as a loop's
    (``range``, ``arange``, a number times either, a name ``bound`` to one), not a collection
    counted by its items."""
    if isinstance(node, ast.Name):
        return is_numbered(bound(node.id), unbound)
    if isinstance(node, ast.BinOp):
        return is_numbered(node.right if _number(node.left) else node.left, bound)
    return isinstance(node, ast.Call) and last_name(node.func) in ("range", "arange")


def last_name(func: ast.expr) -> str:
    """A call's function by its last name: ``arange`` for ``np.arange``, ``zip`` for ``zip``."""
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _literal(node: ast.expr) -> float | None:
    """An int or float literal's value, signed or not (not a bool)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _literal(node.operand)
        return None if value is None else -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    return None


def _sizes(items: list[ast.expr]) -> bool:
    """Whether the points give a size each: a place of the items (the item, or one field of a
    tuple) holding an integer literal at every point, different between points (``[64, 128]``,
    ``[(MINMOD, 101), (MINMOD, 401)]``). A gain, an onset or a name per point is a setting that
    could be traced, not a new problem."""
    rows = [item.elts if isinstance(item, ast.Tuple) else [item] for item in items]
    if len({len(row) for row in rows}) != 1:
        return False
    for place in zip(*rows, strict=True):
        values = [v.value if isinstance(v, ast.Constant) else None for v in place]
        if all(type(v) is int for v in values) and (len(values) == 1 or len(set(values)) > 1):
            return True
    return False


def _number(node: ast.expr) -> bool:
    """An int or float literal, signed or not (not a bool)."""
    return _literal(node) is not None


def _fixed_item(node: ast.expr) -> bool:
    """A point of a sweep written out: a constant, a name of one, or a tuple or a dict of those
    (``{"size": 4}``, a task's settings)."""
    if isinstance(node, ast.Tuple):
        return all(map(_fixed_item, node.elts))
    if isinstance(node, ast.Dict):
        return all(key is not None and _fixed_item(key) for key in node.keys) and all(
            map(_fixed_item, node.values)
        )
    if isinstance(node, ast.UnaryOp):
        return _fixed_item(node.operand)
    return isinstance(node, ast.Constant | ast.Name | ast.Attribute)


@dataclass(frozen=True)
class BodyNames:
    """What one walk of a body (nested blocks too) tells of its names: how often each is bound
    (``stores``), which ones a method call resizes (``list.append``...: ``resized``), and what the
    plain assignments bind each to (``name = ...``, ``name: T = ...``: ``bound``). One walk for all
    names: a walk per name asked made summaries quadratic in a body's length."""

    stores: Counter[str]
    resized: frozenset[str]
    bound: dict[str, list[ast.expr]]
    # What ``append``, ``extend`` and ``insert`` add to each name, and the names some other method
    # resizes (``pop``, ``update``...): a list only filled from somewhere is as held as that is.
    added: dict[str, list[ast.expr]]
    otherwise_resized: frozenset[str]
    # The names a field or an item of is stored or deleted (``self.done = True``, ``cfg["k"] = v``).
    fields_written: frozenset[str]


# Fields that hold only a leaf this module never asks about (``Load``, ``Add``, ``Eq``...): a third of
# the nodes ``ast.walk`` gives; and those that hold a string or a number, never a node.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})
_SCALAR_FIELDS = frozenset(
    {"id", "attr", "arg", "name", "asname", "module", "level", "kind", "type_comment"}
    | {"conversion", "is_async"}
)
# The fields of each kind of node that may hold nodes walked (a constant's value is none).
CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    kind: ()
    if issubclass(kind, ast.Constant)
    else tuple(name for name in kind._fields if name not in _LEAF_FIELDS | _SCALAR_FIELDS)
    for kind in vars(ast).values()
    if isinstance(kind, type) and issubclass(kind, ast.AST)
}


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk``'s nodes in its order, less the leaves of ``_LEAF_FIELDS``, without its two
    generators per node: a body's walk is most of what asking for its names costs."""
    todo = deque([node])
    while todo:
        node = todo.popleft()
        for name in CHILD_FIELDS[type(node)]:
            field = getattr(node, name, None)
            if isinstance(field, ast.AST):
                todo.append(field)
            elif isinstance(field, list):
                todo.extend(item for item in field if isinstance(item, ast.AST))
        yield node


def body_names(body: list[ast.stmt]) -> BodyNames:
    stores: Counter[str] = Counter()
    resized: set[str] = set()
    bound: dict[str, list[ast.expr]] = {}
    added: dict[str, list[ast.expr]] = {}
    otherwise: set[str] = set()
    fields: set[str] = set()
    for node in (n for stmt in body for n in _walk(stmt)):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                stores[node.id] += 1
        elif isinstance(node, ast.Attribute | ast.Subscript):
            if isinstance(node.ctx, ast.Store | ast.Del):
                root = store_root(node)
                if isinstance(root, ast.Name):
                    fields.add(root.id)
        elif isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in _RESIZING
                and isinstance(func.value, ast.Name)
            ):
                resized.add(func.value.id)
                if func.attr in _ADDING and node.args:
                    added.setdefault(func.value.id, []).append(node.args[-1])
                else:
                    otherwise.add(func.value.id)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            bound.setdefault(node.target.id, []).append(node.value)
    return BodyNames(
        stores, frozenset(resized), bound, added, frozenset(otherwise), frozenset(fields)
    )


def store_root(node: ast.expr) -> ast.expr:
    """The name a chain of fields and items is read off (``self`` of ``self.state.done``)."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node
