"""Lengths as polynomials: slice widths, constructor sizes, padding and chunking arithmetic, so that a
length that is visibly constant (``x[i:i + bs]``, ``np.pad(x, (0, size - len(x)))``) is trusted."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from retracelint.summarise.syntax import ENDS_BLOCK, _definition, _dotted, builtin_args
from retracelint.values import (
    ARRAY,
    NP_ARRAY,
    CarrySrc,
    Dep,
    Dims,
    Length,
    LoopSrc,
    ParamDep,
    ParamShapeSrc,
    Poly,
    Src,
    Value,
    combine,
    constant_length,
)

# Atoms of a polynomial: the expression an atom stands for (its sources are read when needed), or
# directly what makes it change (the atoms of a length read off a value).
Atoms = dict[str, ast.AST | frozenset]


class _Reader(Protocol):
    """What a function's walk knows when it reads a polynomial: lengths, and the source text."""

    def length_read(self, node: ast.AST, atoms: Atoms) -> Poly | None:
        """``len(x)`` or ``x.shape[k]`` as the polynomial known for it (None: not a length)."""

    def source(self, node: ast.AST) -> str: ...


def _poly(
    node: ast.AST | None,
    atoms: Atoms,
    defs: dict[str, ast.AST] | None = None,
    depth: int = 0,
    reader: _Reader | None = None,
) -> Poly:
    """``node`` as a polynomial over opaque atoms; names assigned arithmetic (or a length) locally are
    expanded, and a ``reader`` reads lengths as the polynomials known for them."""
    if node is None:
        return {}
    node = _truncated(node)
    if isinstance(node, ast.Name) and defs and depth < 4:
        definition = _truncated(defs.get(node.id))
        if (
            isinstance(definition, ast.BinOp | ast.UnaryOp | ast.Constant)
            or (reader is not None and _length_read(definition) is not None)
        ) and not _mentions(definition, node.id):  # i = i + 1 says nothing of i
            return _poly(definition, atoms, defs, depth + 1, reader)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        return {(): node.value} if node.value else {}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return {k: -v for k, v in _poly(node.operand, atoms, defs, depth, reader).items()}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        left = _poly(node.left, atoms, defs, depth, reader)
        right = _poly(node.right, atoms, defs, depth, reader)
        sign = 1 if isinstance(node.op, ast.Add) else -1
        return _add(left, right, sign)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left = _poly(node.left, atoms, defs, depth, reader)
        return _mul(left, _poly(node.right, atoms, defs, depth, reader))
    if reader is not None:
        read = reader.length_read(node, atoms)
        if read is not None:
            return read
    name = _atom_name(node, defs, reader)
    atoms[name] = node
    return {(name,): 1}


def _truncated(node: ast.AST | None) -> ast.AST | None:
    """What ``int(x)`` counts: ``x``. Sizes are whole numbers already (``int(cap - n_keep)``), and
    a fraction of one (``int(f * len(x))``) stays an atom of its own in ``x``, so two pieces
    written as complements of one total still add up to it."""
    args = builtin_args(node, "int", 1)
    return _truncated(args[0]) if args is not None else node


class _LengthReads:
    """A reader that also keeps, for each length it cannot tell, whose length it is: the value and
    the axis, to be read where the callers make that value (``Chunking``)."""

    def __init__(self, reader: _Reader, evaluate: Callable[[ast.AST], Value]) -> None:
        self.reader = reader
        self.evaluate = evaluate
        self.lengths: dict[str, tuple[Value, int]] = {}

    def length_read(self, node: ast.AST, atoms: Atoms) -> Poly | None:
        poly = self.reader.length_read(node, atoms)
        read = _length_read(node)
        if poly is not None and read is not None and len(poly) == 1:
            ((monomial, coefficient),) = poly.items()
            if (
                len(monomial) == 1
                and coefficient == 1
                and isinstance(atoms.get(monomial[0]), frozenset)
            ):
                self.lengths[monomial[0]] = (self.evaluate(read[0]), read[1])
        return poly

    def source(self, node: ast.AST) -> str:
        return self.reader.source(node)


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _atom_name(
    node: ast.AST, defs: dict[str, ast.AST] | None, reader: _Reader | None = None
) -> str:
    """An atom's name: its text, and for a local name the place it was assigned, so that a name
    assigned again is another atom."""
    text = _dotted(node) or (reader.source(node) if reader is not None else ast.unparse(node))
    definition = defs.get(node.id) if defs and isinstance(node, ast.Name) else None
    if definition is None:
        return text
    return f"{text}@{definition.lineno}:{definition.col_offset}"  # type: ignore[attr-defined]


def _length_read(node: ast.AST | None) -> tuple[ast.AST, int] | None:
    """``len(x)`` -> (x, 0), ``x.shape[k]`` -> (x, k); None for anything else."""
    kind = type(node)
    if kind is not ast.Call and kind is not ast.Subscript:
        return None
    args = builtin_args(node, "len", 1)
    if args is not None:
        return args[0], 0
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "shape"
        and isinstance(node.slice, ast.Constant)
        and type(node.slice.value) is int
        and node.slice.value >= 0
    ):
        return node.value.value, node.slice.value
    return None


def _add(left: Poly, right: Poly, sign: int) -> Poly:
    out = dict(left)
    for k, v in right.items():
        out[k] = out.get(k, 0) + sign * v
    return {k: v for k, v in out.items() if v}


def _mul(left: Poly, right: Poly) -> Poly:
    out: Poly = {}
    for lk, lv in left.items():
        for rk, rv in right.items():
            key = tuple(sorted(lk + rk))
            out[key] = out.get(key, 0) + lv * rv
    return {k: v for k, v in out.items() if v}


def _atoms_in(poly: Poly) -> set[str]:
    return {atom for monomial in poly for atom in monomial}


def _length_atom(
    node: ast.AST, axis: int, defs: dict[str, ast.AST], reader: _Reader | None = None
) -> str:
    """The atom for an unknown length of ``node``. An expression that calls something may give
    another value each time it is evaluated, so it names its own place too."""
    name = _atom_name(node, defs, reader)
    if not isinstance(node, ast.Name) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
        name = f"{name}@{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0)}"
    return f"len({name})" if axis == 0 else f"{name}.shape[{axis}]"


def _cut(dep: Dep, axis: int, atoms: Iterable[str], left: frozenset[Src]) -> Dep:
    """``dep`` once the length of ``axis`` is known (its atoms ``atoms``): it brings no more changes
    there when nothing of its length is left in it. A call's result may enter the length only
    through an atom that reads a length (``len(rows)``, ``x.shape[0]``): a length made of sizes
    alone (``MAX_ROWS``, ``n``) is cut."""
    if not dep.aligned or axis in dep.fixed:
        return dep
    if isinstance(dep, ParamDep):
        cut = not _shape_of(dep.name, left)
    else:
        cut = not any(name.startswith("len(") or ".shape[" in name for name in atoms)
    return replace(dep, fixed=dep.fixed | {axis}) if cut else dep


def _positions(value: Value) -> bool:
    """Whether an index is a 1-D array of integer positions (not a mask, not a scalar)."""
    dims = value.dims
    return (
        value.ty in (ARRAY, NP_ARRAY)
        and value.dtype != "bool"
        and dims is not None
        and dims.ranked
        and len(dims.lens) == 1
    )


def _shape_of(param: str, sources: frozenset[Src]) -> bool:
    """Whether ``sources`` include a length of parameter ``param``."""
    return any(isinstance(s, ParamShapeSrc) and s.name == param for s in sources)


def _substitute(poly: Poly, var: str, value: Poly) -> Poly | None:
    """``poly`` with atom ``var`` replaced by ``value``; None when ``var`` is not a plain term of it."""
    coefficient = poly.get((var,), 0)
    if any(var in monomial for monomial in poly if monomial != (var,)):
        return None
    rest = {k: v for k, v in poly.items() if k != (var,)}
    return _add(rest, {k: v * coefficient for k, v in value.items()}, 1)


def _min_call(node: ast.AST | None, defs: dict[str, ast.AST]) -> ast.Call | None:
    """``min(a, b, ...)``, or the elementwise ``np.minimum(a, b)`` (``jnp``'s, ``torch``'s: of two
    numbers, the smaller), as written or as a local name was assigned it."""
    if isinstance(node, ast.Name):
        node = defs.get(node.id)
    if (
        isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "min")
            or (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == "minimum"
                and len(node.args) == 2
            )
        )
        and len(node.args) >= 2
        and not node.keywords
        and not any(isinstance(a, ast.Starred) for a in node.args)
    ):
        return node
    return None


_NO_DIMS = Dims(())


@lru_cache(maxsize=64)
def _counted(n: int) -> Dims:
    """The dims of a display of ``n`` items (one object per count: displays are everywhere)."""
    return Dims((constant_length(n),))


def _per_iteration(atom: ast.AST | frozenset, loop: LoopSrc) -> bool:
    """Whether a length atom may differ between iterations of ``loop``."""
    if not isinstance(atom, frozenset):
        return True
    return loop in atom or any(isinstance(s, CarrySrc) for s in atom)


_END = "<end>"


@dataclass
class _RangeLoop:
    var: str
    start: ast.AST | None
    stop: ast.AST | None
    step: ast.AST | None


# How ``pad``'s widths cover the axes: one pair for every axis, a pair per axis, or pairs for the
# leading axes and none for the rest (``[(0, n - len(x))] + [(0, 0)] * (x.ndim - 1)``).
EVERY, EACH, LEADING = "every", "each", "leading"


def _pad_widths(node: ast.AST) -> tuple[list[tuple[ast.AST, ast.AST]], str] | None:
    """``pad``'s widths as (before, after) per axis, and how they cover the axes: ``n``, ``(a, b)``,
    ``((a, b),)`` are every axis; ``((a0, b0), (a1, b1))`` one pair per axis; a list of pairs plus
    ``[(0, 0)] * k`` the leading axes. None: not written out."""

    def pair(item: ast.AST) -> tuple[ast.AST, ast.AST] | None:
        if not isinstance(item, ast.Tuple | ast.List):
            return item, item
        if len(item.elts) == 2 and not any(isinstance(e, ast.Starred) for e in item.elts):
            return item.elts[0], item.elts[1]
        if len(item.elts) == 1 and not isinstance(item.elts[0], ast.Starred):
            return item.elts[0], item.elts[0]
        return None

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _no_widths(node.right):
        head = node.left
        if not isinstance(head, ast.Tuple | ast.List) or not head.elts:
            return None
        pairs = [pair(e) if isinstance(e, ast.Tuple | ast.List) else None for e in head.elts]
        return None if any(p is None for p in pairs) else (pairs, LEADING)  # type: ignore[return-value]
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return [(node, node)], EVERY
    if not isinstance(node, ast.Tuple | ast.List):
        return None  # a name or a call: which axes it pads is not written here
    nested = [isinstance(e, ast.Tuple | ast.List) for e in node.elts]
    if node.elts and all(nested):
        pairs = [pair(e) for e in node.elts]
        if any(p is None for p in pairs):
            return None
        return pairs, EVERY if len(pairs) == 1 else EACH  # type: ignore[return-value]
    if not any(nested):
        only = pair(node)
        return ([only], EVERY) if only is not None else None
    return None


def _no_widths(node: ast.AST) -> bool:
    """``[(0, 0)] * k`` (or ``k * [(0, 0)]``): as many axes as it says, none padded."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return False
    display = node.left if isinstance(node.left, ast.List | ast.Tuple) else node.right
    if not isinstance(display, ast.List | ast.Tuple) or len(display.elts) != 1:
        return False
    (zero,) = display.elts
    return isinstance(zero, ast.Tuple | ast.List) and all(
        isinstance(e, ast.Constant) and e.value == 0 for e in zero.elts
    )


def _common_lengths(values: list[Value]) -> tuple[Length | None, ...]:
    """Per axis, the length all ``values`` share (None where they differ or it is unknown)."""
    dims = [v.dims.lens if v.dims is not None else () for v in values]
    longest = max(len(d) for d in dims)
    out = []
    for axis in range(longest):
        seen = {d[axis] if axis < len(d) else None for d in dims}
        out.append(seen.pop() if len(seen) == 1 else None)
    return tuple(out)


def _size_argument(
    node: ast.Call,
    args: list[Value],
    kwargs: dict[str | None, Value],
    keyword: str | None,
    position: int | None,
) -> Value:
    if keyword is None and position is None:
        return combine(args, keep_shape=False)
    if keyword in kwargs:
        return kwargs[keyword]
    if position is not None and position < len(args):
        return args[position]
    return Value()


def _iterations(iterable: ast.AST | None) -> int | None:
    """How many times a loop over ``iterable`` runs, when the source spells it out: a display of
    items or ``range`` of literal integers (``enumerate``/``zip`` of those keep the count)."""
    if isinstance(iterable, ast.List | ast.Tuple | ast.Set) and not any(
        isinstance(e, ast.Starred) for e in iterable.elts
    ):
        return len(iterable.elts)
    if not isinstance(iterable, ast.Call) or not isinstance(iterable.func, ast.Name):
        return None
    args = iterable.args
    if iterable.func.id == "range" and args and not iterable.keywords:
        folded = [_folded_int(a) for a in args]
        bounds = tuple(b for b in folded if b is not None)
        if len(bounds) == len(args) <= 3 and bounds[-1:] != (0,):
            return len(range(*bounds))
    if iterable.func.id in ("enumerate", "reversed") and args:
        return _iterations(args[0])
    if iterable.func.id == "zip" and args:
        counts = [_iterations(a) for a in args]
        known = [c for c in counts if c is not None]
        return min(known) if known else None
    return None


_INT_FOLDS: dict[type, Callable[[int, int], int]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
}


def _folded_int(node: ast.expr) -> int | None:
    """An int literal, or a sum, difference or product of them as written (``range(0, 3 + 1)``)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _folded_int(node.operand)
        return -inner if inner is not None else None
    fold = _INT_FOLDS.get(type(node.op)) if isinstance(node, ast.BinOp) else None
    if fold is None:
        return None
    left, right = _folded_int(node.left), _folded_int(node.right)  # type: ignore[attr-defined]
    return fold(left, right) if left is not None and right is not None else None


def _full_chunks(
    stop: ast.AST | None,
    step: ast.AST | None,
    defs: dict[str, ast.AST],
    bound: Callable[[str], ast.expr | None] = lambda name: None,
) -> bool:
    """Whether every chunk of ``range(start, stop, step)`` is visibly full.

    Either ``stop`` is a multiple of ``step`` (``n - n % bs``, ``n // bs * bs``, literals), or the range
    stops a whole chunk before the end (``range(0, n - bs + 1, bs)``), or both are powers of two
    (``_power_of_two``: a batch padded to a bucket, chunked by a bucket), so that the smaller divides
    the larger or one chunk takes it all. ``bound``: what a name is bound to once, here or at the
    module's top level.
    """
    if stop is None or step is None:
        return False
    if _power_of_two(stop, bound) and _power_of_two(step, bound):
        return True
    atoms: dict[str, ast.AST] = {}
    step_poly = _poly(step, atoms, defs)
    stop_poly = _poly(stop, atoms, defs)
    if len(step_poly) == 1:
        ((monomial, coefficient),) = step_poly.items()
        if monomial and stop_poly.get(monomial, 0) == -coefficient:
            return True
    stop = _definition(stop, defs)
    try:
        a, b = ast.literal_eval(stop), ast.literal_eval(step)
        if isinstance(a, int) and isinstance(b, int) and b:
            return a % b == 0
    except (ValueError, SyntaxError, TypeError):
        pass
    step_text = ast.unparse(step)
    text = ast.unparse(stop).replace(" ", "")
    s = step_text.replace(" ", "")
    return f"//{s}*{s}" in text or f"%{s}" in text or f"*{s}" == text[-len(s) - 1 :]


def _tests_remainder(body: list[ast.stmt], step: ast.AST) -> bool:
    """Whether ``body`` branches on what a division by ``step`` leaves over (``if len(data) % bs:``,
    ``rest = n % bs`` then ``if rest:``): the program expects a short last chunk. A test whose branch
    only raises is a guard that no chunk is short, not such a branch."""
    wanted = ast.dump(step)

    def remainder(node: ast.AST, names: set[str]) -> bool:
        return any(
            (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) and ast.dump(n.right) == wanted)
            or (isinstance(n, ast.Name) and n.id in names)
            for n in ast.walk(node)
        )

    nodes = [n for stmt in body for n in ast.walk(stmt)]
    rests = {
        target.id
        for n in nodes
        if isinstance(n, ast.Assign) and remainder(n.value, set())
        for target in n.targets
        if isinstance(target, ast.Name)
    }
    return any(
        isinstance(n, ast.If | ast.IfExp | ast.While)
        and remainder(n.test, rests)
        and not (isinstance(n, ast.If) and all(isinstance(s, ast.Raise) for s in n.body))
        for n in nodes
    )


def _checked_multiple(
    body: list[ast.stmt], stop: ast.AST | None, step: ast.AST | None, defs: dict[str, ast.AST]
) -> bool:
    """Whether ``body`` stops unless ``stop`` is a multiple of ``step``: ``assert n % bs == 0``
    (``not n % bs``), or ``if n % bs: raise ...`` (``!= 0``, ``> 0``), ``n`` being ``stop`` as written,
    as a name bound to it, or its length read the other way (``len(x)``, ``x.shape[0]``). Past such
    a check no chunk of ``range(0, stop, step)`` is short."""
    if stop is None or step is None:
        return False
    wanted = (_size_key(stop, defs), ast.dump(step))

    def remainder(node: ast.AST) -> bool:  # `n % bs`, as the range reads it
        return (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and (_size_key(node.left, defs), ast.dump(node.right)) == wanted
        )

    def against_zero(test: ast.AST) -> ast.cmpop | None:  # the `op` of `n % bs <op> 0`
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and remainder(test.left):
            right = test.comparators[0]
            return test.ops[0] if isinstance(right, ast.Constant) and right.value == 0 else None
        return None

    def nonzero(test: ast.AST) -> bool:  # true exactly when a remainder is left
        return remainder(test) or isinstance(against_zero(test), ast.NotEq | ast.Gt)

    def divides(test: ast.AST) -> bool:  # true exactly when none is left
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return remainder(test.operand)
        return isinstance(against_zero(test), ast.Eq)

    return any(
        (isinstance(n, ast.Assert) and divides(n.test))
        or (
            isinstance(n, ast.If)
            and nonzero(n.test)
            and bool(n.body)
            and all(isinstance(s, ast.Raise) for s in n.body)
        )
        for stmt in body
        for n in ast.walk(stmt)
    )


def _end_guarded(
    body: list[ast.stmt], target: ast.AST, loop: _RangeLoop, defs: dict[str, ast.AST]
) -> bool:
    """Whether ``body``, a range loop's, leaves the iteration before the statement that holds
    ``target`` whenever its chunk would pass the range's stop: ``if i + bs > n: break`` (``>=``,
    ``continue``, ``return``, ``raise``; ``n < i + bs``, ``n - i < bs``, ``end > n`` of an ``end
    = i + bs``), so that no short chunk reaches it: the test's sides differ by the chunk's end
    less the stop, so that it holds whenever the chunk is short."""
    atoms: dict[str, ast.AST] = {}
    start = {(loop.var,): 1}
    past = _add(_add(start, _poly(loop.step, atoms, defs), 1), _poly(loop.stop, atoms, defs), -1)
    for stmt in body:
        if any(n is target for n in ast.walk(stmt)):
            return False
        test = stmt.test if isinstance(stmt, ast.If) else None
        if (
            not isinstance(test, ast.Compare)
            or len(test.ops) != 1
            or stmt.orelse  # type: ignore[union-attr]
            or not isinstance(stmt.body[-1], ENDS_BLOCK)  # type: ignore[union-attr]
        ):
            continue
        left = _poly(test.left, atoms, defs)
        gap = _add(left, _poly(test.comparators[0], atoms, defs), -1)
        sign = {ast.Gt: 1, ast.GtE: 1, ast.Lt: -1, ast.LtE: -1}.get(type(test.ops[0]))
        if sign is not None and gap == {k: sign * v for k, v in past.items()}:
            return True
    return False


def _size_key(node: ast.AST, defs: dict[str, ast.AST]) -> str:
    """``node`` as a size, for comparing: through a name bound to it, ``len(x)`` as ``x.shape[0]``."""
    node = _definition(node, defs)
    read = _length_read(node)
    return ast.dump(node) if read is None else f"{ast.dump(read[0])}.shape[{read[1]}]"


def _ceil_like(stop: ast.AST | None, defs: dict[str, ast.AST]) -> bool:
    if stop is None:
        return False
    text = ast.unparse(_definition(stop, defs)).replace(" ", "")
    return "ceil" in text or text.startswith("-(-") or bool(re.search(r"-1\)//|//\w+\+1\b", text))


# Builtins that pick one item of what they are given (``next(b for b in BUCKETS if b >= n)``).
_PICKS_ONE = frozenset({"next", "min", "max"})


def _power_of_two(
    node: ast.AST | None, bound: Callable[[str], ast.expr | None], depth: int = 0
) -> bool:
    """Whether ``node`` is surely a power of two: a literal one, ``1 << e`` or ``2 ** e``, an item
    picked from a table of powers of two (``next(b for b in BUCKETS if b >= n)``, ``max(valid)``
    of ``valid = [b for b in BUCKETS if b <= m]``), either arm of a conditional (an arm of None
    makes no chunk at all), or a name ``bound`` once to one of those."""
    if depth > 4 or node is None:
        return False
    if isinstance(node, ast.Name):
        return _power_of_two(bound(node.id), bound, depth + 1)
    if isinstance(node, ast.Constant):
        return _is_power_of_two(node.value)
    if isinstance(node, ast.IfExp):
        return all(
            (isinstance(arm, ast.Constant) and arm.value is None)
            or _power_of_two(arm, bound, depth + 1)
            for arm in (node.body, node.orelse)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
        base = node.left.value
        return (isinstance(node.op, ast.LShift) and base == 1) or (
            isinstance(node.op, ast.Pow) and base == 2
        )
    name = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
    picked = builtin_args(node, name, 1) if name in _PICKS_ONE else None
    if picked is None:
        return False
    items = bound(picked[0].id) if isinstance(picked[0], ast.Name) else picked[0]
    if not isinstance(items, ast.GeneratorExp | ast.ListComp) or len(items.generators) != 1:
        return False
    walked = items.generators[0]
    table = bound(walked.iter.id) if isinstance(walked.iter, ast.Name) else walked.iter
    return (
        isinstance(items.elt, ast.Name)
        and isinstance(walked.target, ast.Name)
        and items.elt.id == walked.target.id
        and isinstance(table, ast.List | ast.Tuple | ast.Set)
        and bool(table.elts)
        and all(isinstance(e, ast.Constant) and _is_power_of_two(e.value) for e in table.elts)
    )


def _is_power_of_two(value: object) -> bool:
    return type(value) is int and value > 0 and value & (value - 1) == 0
