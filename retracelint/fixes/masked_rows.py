"""RTL101 / RTL102 / RTL104 / RTL105 where the array enters the jitted function: the jitted def becomes
a plain function of the same name and signature that pads the array to a bucket of rows, calls the
jitted body (renamed, with one more argument: how many rows are real) and slices a result made of
rows back to the real ones. Every call, in whichever module or helper the array comes through, gets
the padding, so the array need not be passed to the jitted function where it is made.

The body is rewritten only where the padded rows would reach a valid result: a reduction over the
rows (``x.mean(axis=0)``, ``jnp.sum(x)``, ``.std()``, ``.max()``, a softmax) becomes the same one over
the real rows alone (``over_rows(jnp.mean, x, valid, axis=0)``: a ``where=`` mask, or the first row
standing in for the padding where no value is neutral); ``x[-1]`` becomes ``x[valid - 1]`` and the row
count in arithmetic (``x.shape[0]``, ``len(x)``) ``valid``. What the body does with the rows is
followed (``Rows``): row-wise functions (``apis.ROWWISE``), arithmetic with numbers and with values
reduced over the rows, an array indexed by the rows (a gather), ``jnp.arange`` over them, ``[:, k]``,
reductions along a later axis, ``jax.vmap`` of a function of the rest, the module's own functions
(followed through their bodies, when they reduce nothing) and number constants, and, where the ranks
are known, matrix products (a row each, or a sum over the rows made over the real ones; ``a.T @ b``
over rows of one or two axes, the padding of both zeroed). Ranks are known where the body gathers by
the array (taken for indices, one axis, into tables of vectors, two) or multiplies it as a matrix
(two), which the front checks before it pads.

The other arguments the body combines with the rows get a role (``Roles``): rows of the same count
(``y`` beside ``X``: padded too), fewer axes (a number, a vector along the rows' other axes: passed
as they are), or either (used element by element alone: padded when they have the rows' rank and
count). The role is the one the body can be followed with; where both can, and the body comes out
differently, fewer axes. The front checks every rank and role before it pads, and otherwise calls the
body with the arrays as they are, not jitted. Anything else that
touches the rows (``jnp.stack``, ``cumsum``, a shape made of the row count, a global combined with
them, whose rows the fix cannot see) refuses the fix, saying where. Arrays of rows combined with
each other are taken to share their first axis, as they do when made from the one array.

Unsafe: the body also computes rows that are thrown away (cost; a padding row may hold inf or nan
where nothing did), and the name is no longer a jitted function (``.lower`` is gone).
"""

from __future__ import annotations

import ast
import copy
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    Start,
    bound_names,
    dotted,
    has_binding,
    module_bindings,
    offset_in,
    parse_statement,
    rebound_in_functions,
)
from retracelint.model import Finding
from retracelint.summarise.apis import (
    _FLOAT_CONSTANTS,
    ROW_NORMALISERS,
    ROW_REDUCTIONS,
    ROWS_KEPT,
    ROWWISE,
    TRACED_POSITIONS,
    VECTORS,
    _array_module,
)
from retracelint.summarise.syntax import is_none

if TYPE_CHECKING:
    import libcst as cst

BUCKET = 16  # the fewest rows a padded array gets: lengths up to it share one trace
PAD_NAME = "padded_rows"
PADDED = "the array is padded to a bucket already: one trace per power of two"
_MODULES = ("jnp", "jax.numpy")
_PAD = '''
def {name}(rows, size=None, bucket={bucket}):
    """``rows`` padded with zeros along its first axis to ``size`` rows, or to the next power
    of two of at least ``bucket`` rows: one trace of a jitted function per size, not per length."""
    rows = jnp.asarray(rows)
    if size is None:
        size = max(bucket, 1 << max(len(rows) - 1, 0).bit_length())
    return jnp.zeros((size, *rows.shape[1:]), rows.dtype).at[: len(rows)].set(rows)
'''
_VMAPS = ("jax.vmap", "vmap")
_NORMS = frozenset(f"{m}.linalg.norm" for m in _MODULES)
# Array makers whose first argument is the shape: as many axes as it has items, one for a number.
_FILLED = frozenset({"zeros", "ones", "full", "empty"})
# The jit forms the fix keeps on the renamed body: what is jitted stays the same function.
_JITS = ("jax.jit", "jit")
_OVER_ROWS = '''
def {name}(reduce, x, valid, **options):
    """``reduce`` (a jax.numpy reduction) of ``x`` over its first ``valid`` rows alone: the rows
    after them are padding, which must not count."""
    x = jnp.asarray(x)
    keep = jnp.arange(x.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1)) < valid
    if reduce in (jnp.max, jnp.min):
        # no value leaves a maximum as it is in every dtype: the first row, a real one, stands in
        return reduce(jnp.where(keep, x, x[:1]), **options)
    return reduce(x, where=jnp.broadcast_to(keep, x.shape), **options)
'''
_REAL_ROWS = '''
def {name}(x, valid):
    """``x`` with its rows after the first ``valid`` made zeros: padding, which must add
    nothing to a sum over the rows (a matrix product that runs over them)."""
    x = jnp.asarray(x)
    keep = jnp.arange(x.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1)) < valid
    return jnp.where(keep, x, jnp.zeros((), x.dtype))
'''


@dataclass(frozen=True)
class Rows:
    """What an expression of the body is, once its array is padded: ``rows`` when its first axis is
    the padded one; else the value it had, ``rowless`` when no axis of it can line up with the rows
    (numbers, reductions over the rows). ``length``: the padded row count itself. ``rank``: its
    number of axes, where the ranks assumed of the arguments tell it. ``text``: the expression
    rewritten, when a reduction in it is made over the real rows."""

    rows: bool = False
    rowless: bool = False
    length: bool = False
    rank: int | None = None
    text: str | None = None
    counted: bool = False  # made from the real row count, a traced value: no shape may use it
    # rows with the rank of the argument named (made from it element by element), where one is
    like: str = ""
    # made from other arguments taken for fewer axes (or either): lined up with whatever rows it
    # meets, which the front checks (``Body.met``)
    loose: bool = False
    fewer: int = (
        0  # of a loose value: how many axes it has fewer than the arguments it is made from
    )


@dataclass(frozen=True)
class Roles:
    """The other arguments the body meets with the rows, each with what the front takes it for
    (``ROWS``, ``FEWER_AXES``, ``EITHER``); ``open``: those that may be given one (the jitted function's
    arguments but the padded one and the static ones)."""

    taken: dict[str, str] = field(default_factory=dict)
    open: frozenset[str] = frozenset()

    def given(self, name: str, role: str) -> Roles:
        return Roles({**self.taken, name: role}, self.open)


@dataclass
class Body:
    """The body's rewrites and what its result is: which parts (one, or each of a returned tuple)
    are made of rows, to be sliced back; and the ranks it was proved for, which the front checks
    (``jnp.ndim(ids) == 1``) before it pads."""

    changes: list[tuple[ast.expr, str]] = field(default_factory=list)
    returns_rows: tuple[bool, ...] = ()
    tuple_result: bool = False
    masked: bool = False  # a reduction is made over the real rows, by the helper named
    over_rows: str = ""
    ranks: dict[str, int] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    # a sum over the rows is made with their padding zeroed, by the helper named
    zeroed: bool = False
    real_rows: str = ""
    met: dict[str, str] = field(default_factory=dict)  # ``_Follow.met``
    bounds: set[str] = field(default_factory=set)  # ``_Follow.bounds``
    returned: list[Rows] = field(default_factory=list)  # what each part of the result is

    @property
    def counts(self) -> bool:
        """Whether the body is told the count of real rows."""
        return self.masked or self.zeroed


class _Refused(Exception):
    """Why the body keeps the padded rows apart no longer: the clause of a refusal, and the other
    argument it turns on, when taking that one for rows or for a number may get past it."""

    def __init__(self, clause: str, culprit: str = ""):
        super().__init__(clause)
        self.culprit = culprit


# What the front takes another argument of the jitted function for, where the body meets it with the
# rows: rows of the same count (padded too; the front checks the count), an array of fewer axes than
# the padded one, a number or a vector lined up with the rows' other axes (passed as it is; the front
# checks its rank), or either (the body only combines it with rows element by element: padded when it
# has the rows' rank and count, passed as it is otherwise).
ROWS, FEWER_AXES, EITHER = "rows", "fewer axes", "either"


# The ranks tried when the body needs them: an array of indices into a table of vectors, the
# shape of token ids and embeddings; a matrix of rows (a design matrix, returns by asset); the front
# checks them, and calls the body unpadded otherwise.
_INDEX_RANK, _TABLE_RANK, _MATRIX_RANK = 1, 2, 2
_HELPER_DEPTH = 3  # how deep the module's own functions are followed into
_ROLES = 6  # how many other arguments are given a role by trying both (each doubles the follows)


class _Follow:
    """Follows the padded rows through a body, collecting the rewrites of its reductions."""

    def __init__(
        self,
        source: Source,
        function: ast.FunctionDef,
        names: tuple[str, ...],
        rank: int | None = None,
        roles: Roles | None = None,
    ):
        parameter, self.valid, self.over_rows, self.real_rows = names
        self.padded = parameter
        self.source = source
        # tables of vectors are assumed where the rows are taken for indices into them
        self.assume = rank == _INDEX_RANK
        self.ranks: dict[str, int] = {parameter: rank} if rank is not None else {}
        self.bounds: set[str] = set()  # arguments of a matrix product, a vector or a matrix
        self.names: dict[str, Rows] = {parameter: Rows(rows=True, rank=rank, like=parameter)}
        self.masked = False
        self.zeroed = False  # the padding rows are made zeros, by the helper named
        # what the front can evaluate: the arguments the body never binds again
        args = function.args
        self.parameters = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        self.arguments = self.parameters - bound_names(function.body)
        self.depth = 0  # how deep in the module's functions the body calls with rows
        self.roles = roles or Roles()
        for name, role in self.roles.taken.items():
            rows = Rows(rows=True, like=name)  # of its own rank, whatever that is
            self.names[name] = rows if role == ROWS else Rows(rowless=True, loose=True)
        # the arguments each local is made from, to name the one a refusal turns on
        self.made_from: dict[str, frozenset[str]] = {}
        # the rank of the rows each argument taken for fewer axes (or either) meets, as the front
        # writes it
        self.met: dict[str, str] = {}

    def run(self, function: ast.FunctionDef, out: Body) -> None:
        """Follows the body's statements (assignments, then the return) into ``out``."""
        body = function.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        if body and isinstance(body[-1], ast.Return) and body[-1].value is not None:
            self._statements(body[:-1], out)
            returned = body[-1].value
            parts = returned.elts if isinstance(returned, ast.Tuple) else [returned]
            values = [self._settled(self.value(p)) for p in parts]
            out.returns_rows = tuple(v.rows for v in values)
            out.tuple_result = isinstance(returned, ast.Tuple)
            out.changes += [(p, v.text) for p, v in zip(parts, values, strict=True) if v.text]
            out.returned = values
        else:
            self._statements(body, out)
            raise _Refused("does not end by returning its result")

    def _statements(self, body: list[ast.stmt], out: Body) -> None:
        """Assignments, and loops a number of times the rows do not set (``_loop``)."""
        for stmt in body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                for target, value in _pairs(stmt.targets[0], stmt.value):
                    made = self.value(value)
                    if made.text is not None:
                        out.changes.append((value, made.text))
                    _bind(self, target, made, stmt.lineno)
                    self.note(target, value)
            elif isinstance(stmt, ast.For) and _counted(stmt):
                self._loop(stmt, out)
            else:
                raise _Refused(
                    f"has a {type(stmt).__name__.lower()} statement at line {stmt.lineno}"
                )

    def _loop(self, loop: ast.For, out: Body) -> None:
        """``for i in range(k)``, ``k`` a count the rows do not make: its body followed twice, from
        what the names are before it and then from what its first turn made them; each turn keeps
        the padding apart as straight code does when the second turn finds what the first made (the
        turns after it start from the same), and its rewrites are the same at every turn."""
        bounds = loop.iter.args  # type: ignore[attr-defined]
        counts = [self._settled(self.value(a)) for a in bounds]
        if any(c.rows or c.counted for c in counts):
            raise _Refused(f"loops as many times as it has rows at line {loop.lineno}")
        if any(self._made(a) & (self.roles.open | set(self.ranks) | {self.padded}) for a in bounds):
            # the front passes every argument to the jit, where one is traced: range needs a number
            raise _Refused(f"loops as many times as an argument says at line {loop.lineno}")
        self.names[loop.target.id] = Rows(rowless=True, rank=0)  # type: ignore[attr-defined]
        turns: list[Body] = []
        kinds: list[dict[str, Rows]] = []
        for _ in range(2):
            turns.append(Body())
            self._statements(loop.body, turns[-1])
            kinds.append(dict(self.names))
        if kinds[0] != kinds[1] or _texts(turns[0]) != _texts(turns[1]):
            raise _Refused(
                f"carries rows it changes from turn to turn in the loop at line {loop.lineno}"
            )
        out.changes += turns[1].changes

    def value(self, node: ast.expr) -> Rows:
        if isinstance(node, ast.Constant):
            number = isinstance(node.value, (int, float, complex)) and node.value is not True
            return Rows(rowless=True, rank=0 if number else None)
        if isinstance(node, ast.Name):
            if node.id in self.names or node.id in self.parameters:
                return self.names.get(node.id, Rows())
            return _numbers(self.source.tree).get(node.id, Rows())
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.MatMult):
                return self._matmul(node)
            return self._combine(node, [node.left, node.right])
        if isinstance(node, ast.UnaryOp):
            return self._combine(node, [node.operand])
        if isinstance(node, ast.Compare):
            return self._combine(node, [node.left, *node.comparators])
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, (ast.List, ast.Tuple)):
            return self._apart(node, node.elts)
        if self._touches(node):
            raise _Refused(self._uses(node))
        return Rows()

    # -- each kind ------------------------------------------------------------------------------------
    def _attribute(self, node: ast.Attribute) -> Rows:
        if dotted(node.value) in _MODULES and node.attr in _FLOAT_CONSTANTS:
            return Rows(rowless=True, rank=0)
        if self.value(node.value).rows:
            raise _Refused(self._uses(node))
        return Rows()

    def _subscript(self, node: ast.Subscript) -> Rows:
        index = node.slice
        shape = node.value
        if isinstance(shape, ast.Attribute) and shape.attr == "shape":
            return self._dimension(node, self.value(shape.value))
        held = self.value(node.value)
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        kinds = [self.value(p) if not isinstance(p, ast.Slice) else _slice(self, p) for p in parts]
        if any(k.counted for k in kinds):
            raise _Refused(f"uses the row count in {self.source.code(node)} at line {node.lineno}")
        if held.rows:
            return self._rows_indexed(node, held, parts, kinds)
        if len(parts) == 1 and kinds[0].rows:
            # a gather: row i of table[ids] is table[ids[i]]; a padding id is 0, a valid index
            table = self._assumed(node.value, _TABLE_RANK)
            rank = None if table is None or kinds[0].rank is None else table - 1 + kinds[0].rank
            return self._rewritten(node, [node.value, index], Rows(rows=True, rank=rank))
        if any(k.rows or k.length for k in kinds):
            raise _Refused(self._uses(node))
        return Rows()

    def _dimension(self, node: ast.Subscript, of: Rows) -> Rows:
        """``x.shape[k]``: the padded count for the rows' first axis, right only where rows are made
        of it (``jnp.arange``); elsewhere the real count takes its place."""
        axis = _number(node.slice)
        if not of.rows:
            return Rows(rowless=True, rank=0)
        if isinstance(axis, int) and axis < 0 and of.rank is not None:
            axis += of.rank
        if axis == 0:
            return Rows(length=True)
        if isinstance(axis, int) and axis > 0:
            return Rows(rowless=True, rank=0)
        raise _Refused(self._uses(node))

    def _rows_indexed(
        self, node: ast.Subscript, held: Rows, parts: list[ast.expr], kinds: list[Rows]
    ) -> Rows:
        """``x[:, k]``, ``x[:, None]``: every row kept where it is; ``x[-k]``: a real row, counted
        from the real count (as JAX clamps an index past the first row, so does ``valid - k``)."""
        first = parts[0]
        back = _number(first)
        if len(parts) == 1 and isinstance(back, int) and back < 0:
            rank = None if held.rank is None else held.rank - 1
            text = f"{self._text(node.value, held)}[{self.valid} - {-back}]"
            return Rows(rowless=True, rank=rank, text=text)
        whole = isinstance(first, ast.Slice) and not (first.lower or first.upper or first.step)
        if len(parts) < 2 or not whole or any(k.rows or k.length for k in kinds):
            raise _Refused(self._uses(node))
        rank = held.rank
        for part in parts[1:]:
            if rank is None:
                break
            if is_none(part):
                rank += 1
            elif isinstance(_number(part), int):
                rank -= 1
            elif not isinstance(part, ast.Slice):
                rank = None
        return self._rewritten(node, [node.value], Rows(rows=True, rank=rank))

    def _combine(self, node: ast.expr, operands: list[ast.expr]) -> Rows:
        """Arithmetic, comparisons, row-wise functions: rows with rows or with a value that has no
        axis to line up with them (a number, a reduction over the rows)."""
        values = [self._settled(v) for v in map(self.value, operands)]
        ranks = [v.rank for v in values if not v.loose]
        rank = None if None in ranks else max(ranks, default=0)  # type: ignore[type-var]
        counted = any(v.counted for v in values)
        loose = [(o, v) for o, v in zip(operands, values, strict=True) if v.loose]
        if not any(v.rows for v in values):
            rowless = all(v.rowless for v in values)
            # still lined up with whatever it meets, when the rest are numbers
            still = bool(loose) and all(v.loose or v.rank == 0 for v in values)
            fewer = min((v.fewer for _, v in loose), default=0)
            made = Rows(
                rowless=rowless,
                rank=None if loose else rank,
                counted=counted,
                loose=still,
                fewer=fewer if still else 0,
            )
            return self._rewritten(node, operands, made, values)
        for operand, value in zip(operands, values, strict=True):
            if not value.rows and not value.rowless:
                raise _Refused(self._other(operand), self._culprit(operand))
        rows = [v for v in values if v.rows]
        for operand, value in loose:
            self._meet(operand, rows, value.fewer)
        made = Rows(rows=True, rank=rank, counted=counted, like=_like(rows))
        return self._rewritten(node, operands, made, values)

    def _meet(self, operand: ast.expr, rows: list[Rows], fewer: int) -> None:
        """``operand``, made from arguments taken for fewer axes (with ``fewer`` axes than they
        have), meets ``rows``: their rank, which the front compares those arguments' with (less
        ``fewer``), is noted for each."""
        like = _like(rows)
        if like:
            rank = f"jnp.ndim({like})"
        elif len({r.rank for r in rows}) == 1 and rows[0].rank is not None:
            rank = str(rows[0].rank)
        else:
            raise _Refused(
                f"combines its rows with {self.source.code(operand)} at line {operand.lineno}, "
                "whose axes the front cannot line up with them"
            )
        if fewer:
            rank = f"{rank} + {fewer}"
        for argument in sorted(self._made(operand) & set(self.roles.taken)):
            if self.met.setdefault(argument, rank) != rank:
                raise _Refused(
                    f"combines {argument} with rows of different ranks at line {operand.lineno}"
                )

    def _matmul(self, node: ast.BinOp) -> Rows:
        """Rows times a matrix or vector of the rest, when the rows have two axes or more (a row
        each); rows of one axis times rows: a sum over the rows, made over the real ones."""
        over = self._contraction(node, node.left, node.right)
        if over is not None:
            return over
        left, right = self.value(node.left), self.value(node.right)
        if not (left.rows or right.rows):
            return self._apart(node, [node.left, node.right])
        other = right.rank if right.rank is not None else self._assumed(node.right, _TABLE_RANK)
        # a row each whether an argument is a vector or a matrix, which the front checks
        bounded = other is None and not right.rows and (left.rank or 0) >= 2
        if bounded and left.rows and self._bounded(node.right):
            values = [left, right]
            return self._rewritten(node, [node.left, node.right], Rows(rows=True), values)
        if left.rows and not right.rows and (left.rank or 0) >= 2 and other in (1, 2):
            rank = left.rank - 1 if other == 1 else left.rank  # type: ignore[operator]
            values = [left, right]
            return self._rewritten(
                node, [node.left, node.right], Rows(rows=True, rank=rank), values
            )
        if left.rows and right.rows and left.rank == 1 and right.rank in (1, 2):
            a, b = _atom(self._text(node.left, left)), _atom(self._text(node.right, right))
            self.masked = True
            if right.rank == 1:
                text = f"{self.over_rows}(jnp.sum, {a} * {b}, {self.valid})"
                return Rows(rowless=True, rank=0, text=text)
            text = f"{self.over_rows}(jnp.sum, {a}[:, None] * {b}, {self.valid}, axis=0)"
            return Rows(rowless=True, rank=1, text=text)
        raise _Refused(self._uses(node))

    def _contraction(self, node: ast.expr, left: ast.expr, right: ast.expr) -> Rows | None:
        """``a.T @ b`` (``jnp.dot(a.T, b)``), ``a`` rows of one or two axes and ``b`` rows: a sum
        over the rows, with the padding rows of both made zeros (``real_rows``), which add nothing
        however the rows are lined up (a ``b`` of three axes or more would not fit the padded ``a``:
        an error, not another number). None when ``node`` is not one."""
        if not (isinstance(left, ast.Attribute) and left.attr == "T"):
            return None
        a, b = self.value(left.value), self.value(right)
        if a.rows and not b.rows:
            raise _Refused(self._uses(node), self._culprit(right))
        if not (a.rows and b.rows):
            return None
        if a.rank not in (1, 2) or b.rank not in (1, 2, None):
            raise _Refused(
                f"uses {self.source.code(node)} at line {node.lineno}, over rows of "
                "more axes than a matrix has, or of axes it cannot tell"
            )
        self.zeroed = True
        x = f"{self.real_rows}({self._text(left.value, a)}, {self.valid})"
        y = f"{self.real_rows}({self._text(right, b)}, {self.valid})"
        rank = None if b.rank is None else a.rank + b.rank - 2
        return Rows(rowless=True, rank=rank, text=f"{x}.T @ {y}")

    def _helper(self, node: ast.Call) -> Rows | None:
        """A call of a function of this module with rows (or arrays lined up with them), its
        parameters bound to the call's values, followed through its body; None when no such value
        goes in, or it is not one the fix can follow (decorated, with defaults, keywords or more
        arguments than it names), or too deep."""
        function = _helpers(self.source.tree).get(dotted(node.func))
        if function is None or node.keywords or self.depth >= _HELPER_DEPTH:
            return None
        args = function.args
        params = [a.arg for a in args.args]
        if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults:
            return None
        if len(node.args) != len(params) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        values = [self._settled(self.value(a)) for a in node.args]
        if not any(v.rows or v.loose for v in values):
            return None  # nothing of the rows goes in: its value as it was
        inner = copy.copy(self)
        inner.names = dict(zip(params, values, strict=True))
        inner.parameters = set(params)
        inner.arguments, inner.ranks, inner.bounds = set(), {}, set()
        # its parameters made from what the call's arguments are made from
        inner.made_from = {p: self._made(a) for p, a in zip(params, node.args, strict=True)}
        inner.masked = inner.zeroed = False
        inner.depth = self.depth + 1
        out = Body()
        inner.run(function, out)
        if out.changes or inner.masked or inner.zeroed or out.tuple_result:
            raise _Refused(
                f"calls {function.name} at line {node.lineno}, which reduces its rows or gives "
                "several values: its own body would have to count the real ones"
            )
        return out.returned[0]

    def _call(self, node: ast.Call) -> Rows:
        name = dotted(node.func)
        module, _, function = name.rpartition(".")
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            if self._touches(node):
                raise _Refused(self._uses(node))
            return Rows()
        if module in _MODULES and function in ROW_REDUCTIONS and node.args:
            return self._reduce(node, f"jnp.{function}", node.args[0], node.args[1:])
        if name in _NORMS and len(node.args) == 1:
            return self._norm(node)
        if name in ROW_NORMALISERS and node.args:
            return self._reduce(node, name, node.args[0], node.args[1:], default=-1, keeps=True)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ROW_REDUCTIONS:
            held = self.value(node.func.value)
            if held.rows:
                return self._reduce(node, f"jnp.{node.func.attr}", node.func.value, node.args)
        if module in _MODULES and function in ROWWISE:
            if function == "where" and len(node.args) != 3:
                # where(condition) alone gives the indices of the true rows, not a row per row
                raise _Refused(self._uses(node))
            return self._combine(node, arguments)
        if (
            module in _MODULES
            and function == "arange"
            and len(arguments) == 1
            and self.value(arguments[0]).length
        ):
            return Rows(rows=True, rank=1)  # over the padded count: row i is i, as it was
        if name == "len" and len(node.args) == 1 and self.value(node.args[0]).rows:
            return Rows(length=True)
        if isinstance(node.func, ast.Call) and dotted(node.func.func) in _VMAPS:
            return self._vmap(node)
        if module in _MODULES and function == "concatenate":
            return self._side_by_side(node)
        if module in _MODULES and function == "dot" and len(node.args) == 2 and not node.keywords:
            over = self._contraction(node, *node.args)
            if over is not None:
                return over
        helped = self._helper(node)
        if helped is not None:
            return helped
        if module in _MODULES and function in ROWS_KEPT and len(node.args) == 1:
            return self._combine(node, arguments)
        array_module = module in _MODULES or module.startswith("jnp.") or _array_module(module)
        traced = TRACED_POSITIONS.get(function, 0) if array_module else 0
        made = self._apart(node, [node.func, *arguments], min(traced, len(node.args)))
        if module in _MODULES and function in VECTORS:
            return replace(made, rank=1, counted=False, like="", loose=False)
        if module in _MODULES and function in _FILLED and node.args:
            shape = node.args[0]  # a number, or a tuple of one per axis
            rank = len(shape.elts) if isinstance(shape, (ast.Tuple, ast.List)) else 1
            return replace(made, rank=rank)
        return made

    def _apart(self, node: ast.expr, parts: list[ast.expr], traced: int = 0) -> Rows:
        """Anything else: its value as it was, when no part of it is made of rows. ``traced``: how
        many parts after the first (a function's leading arguments) take a traced value."""
        values = [self._settled(self.value(p)) for p in parts]
        if any(v.rows for v in values):
            raise _Refused(self._uses(node))
        counted = [i for i, v in enumerate(values) if v.counted]
        if any(not 0 < i <= traced for i in counted):
            # a shape, a static argument may be made of it: the real count is traced
            raise _Refused(f"uses the row count in {self.source.code(node)} at line {node.lineno}")
        return self._rewritten(node, parts, Rows(counted=bool(counted)), values)

    def _reduce(
        self,
        node: ast.Call,
        function: str,
        of: ast.expr,
        rest: list[ast.expr],
        default: int | None = None,
        keeps: bool = False,
    ) -> Rows:
        """A reduction of rows (``keeps``: a normalisation, which keeps their shape): over them,
        made over the real ones; along a later axis, rows still."""
        held = self.value(of)
        if not held.rows:
            made = self._combine(node, [of, *rest, *(k.value for k in node.keywords)])
            return Rows(rowless=made.rowless, text=made.text)
        options = {k.arg: k.value for k in node.keywords}
        if len(rest) > 1 or (rest and "axis" in options):
            raise _Refused(self._uses(node))
        if rest:
            options["axis"] = rest[0]
        if set(options) - {"axis", "ddof", "keepdims", "dtype"}:
            raise _Refused(self._uses(node))
        if any(self.value(v).rows or self.value(v).counted for v in options.values()):
            raise _Refused(self._uses(node))
        axis = options.get("axis")
        along = _axis_of(axis, held, default)
        keepdims = "keepdims" in options
        if _later(along):
            return self._per_row(node, of, held, keeps or keepdims)
        if along not in (0, None) or (along is None and axis is not None and not is_none(axis)):
            raise self._across(node)
        texts = {k: self.source.code(v) for k, v in options.items()}
        if along == 0 and axis is None:
            texts["axis"] = "0"  # the default axis, which is the rows'
        given = [f"{k}={t}" for k, t in texts.items()]
        written = ", ".join([function, self._text(of, held), self.valid, *given])
        self.masked = True
        text = f"{self.over_rows}({written})"
        if keeps:
            return Rows(rows=True, rank=held.rank, text=text)
        if keepdims or held.rank is None:
            rank = None if along == 0 or keepdims else 0
        else:
            rank = held.rank - 1 if along == 0 else 0
        return Rows(rowless=True, rank=rank, text=text)

    def _side_by_side(self, node: ast.Call) -> Rows:
        """``jnp.concatenate([a, b], axis=-1)``: rows of one rank put side by side along a later
        axis, each row made of the same rows of each, rows still."""
        parts = node.args[0] if node.args else None
        listed = parts.elts if isinstance(parts, (ast.List, ast.Tuple)) else []
        values = [self._settled(self.value(p)) for p in listed]
        if not any(v.rows for v in values):
            return self._apart(node, [node.func, *node.args, *(k.value for k in node.keywords)])
        axes = [*node.args[1:], *(k.value for k in node.keywords if k.arg == "axis")]
        ranks = {v.rank for v in values}
        rank = ranks.pop() if len(ranks) == 1 else None
        along = _axis_of(axes[0], Rows(rank=rank)) if len(axes) == 1 else None
        if not (all(v.rows for v in values) and len(node.keywords) <= 1 and _later(along)):
            raise _Refused(self._uses(node))
        return self._rewritten(node, list(listed), Rows(rows=True, rank=rank), values)

    def _norm(self, node: ast.Call) -> Rows:
        """``jnp.linalg.norm(x)`` (no ``ord``): along a later axis, a norm per row, rows still; over
        the rows (no axis, axis 0), made with their padding zeroed (``real_rows``), which adds
        nothing to a 2-norm or a Frobenius norm."""
        of = node.args[0]
        held = self.value(of)
        options = {k.arg: k.value for k in node.keywords}
        if not held.rows:
            made = self._apart(node, [node.func, of, *options.values()])
            # of the whole of a value, a number: nothing of it lines up with the rows
            return replace(made, rowless=True, rank=0) if not options else made
        if set(options) - {"axis", "keepdims"}:
            raise _Refused(self._uses(node))
        axis = options.get("axis")
        along = _axis_of(axis, held)
        keepdims = "keepdims" in options
        if _later(along):
            return self._per_row(node, of, held, keepdims)
        if axis is not None and along != 0:
            raise self._across(node)
        self.zeroed = True
        given = [f"{self.real_rows}({self._text(of, held)}, {self.valid})"]
        given += [f"{k}={self.source.code(v)}" for k, v in options.items()]
        text = f"{self.source.code(node.func)}({', '.join(given)})"
        rank = None if keepdims or held.rank is None else 0 if axis is None else held.rank - 1
        return Rows(rowless=True, rank=rank, text=text)

    def _per_row(self, node: ast.Call, of: ast.expr, held: Rows, kept: bool) -> Rows:
        """A reduction of each row alone (along a later axis): rows still, one axis fewer unless
        ``kept``."""
        rank = held.rank if kept or held.rank is None else held.rank - 1
        return self._rewritten(node, [of], Rows(rows=True, rank=rank))

    def _across(self, node: ast.Call) -> _Refused:
        return _Refused(
            f"uses {self.source.code(node)} at line {node.lineno}, along an axis that may be the rows"
        )

    def _vmap(self, node: ast.Call) -> Rows:
        """``jax.vmap(f)(rows, ...)``: f of each row alone, when f closes over no rows."""
        mapper = node.func
        assert isinstance(mapper, ast.Call)
        values = [self.value(a) for a in node.args]
        if (
            len(mapper.args) != 1
            or mapper.keywords
            or node.keywords
            or not values
            or not all(v.rows for v in values)
        ):
            raise _Refused(self._uses(node))
        function = mapper.args[0]
        reads = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
        if isinstance(function, ast.Lambda):
            reads -= {a.arg for a in function.args.args}
        elif not isinstance(function, (ast.Name, ast.Attribute)):
            raise _Refused(self._uses(node))
        if any(self.names.get(r, Rows()).rows or self.names.get(r, Rows()).length for r in reads):
            raise _Refused(self._uses(node))
        return self._rewritten(node, node.args, Rows(rows=True), values)

    # -- helpers --------------------------------------------------------------------------------------
    def _settled(self, value: Rows) -> Rows:
        """The padded row count anywhere but where rows are made of it: the real count instead."""
        return Rows(rowless=True, rank=0, text=self.valid, counted=True) if value.length else value

    def _assumed(self, node: ast.expr, rank: int) -> int | None:
        """The rank assumed of ``node``, an argument (or an item of one) that the front can look at
        before it pads; None when no rank is assumed of it."""
        if not self.assume or not self._argument(node):
            return None
        return self.ranks.setdefault(self.source.code(node), rank)

    def _bounded(self, node: ast.expr) -> bool:
        """Whether ``node`` is an argument (or an item of one) the front can check has two axes at
        most; noted for the front when it is."""
        if not self._argument(node):
            return False
        self.bounds.add(self.source.code(node))
        return True

    def _argument(self, node: ast.expr) -> bool:
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        plain = all(
            isinstance(n, (ast.Name, ast.Subscript, ast.Constant, ast.expr_context))
            for n in ast.walk(node)
        )
        return plain and bool(names) and names <= self.arguments

    def _rewritten(
        self,
        node: ast.expr,
        parts: list[ast.expr],
        kind: Rows,
        values: list[Rows] | None = None,
    ) -> Rows:
        """``kind``, with ``node``'s text rewritten where a part of it was."""
        values = values if values is not None else [self.value(p) for p in parts]
        changed = [(p, v.text) for p, v in zip(parts, values, strict=True) if v.text is not None]
        if not changed:
            return kind
        text = _splice(self.source, node, changed)
        return replace(kind, text=text)

    def _text(self, node: ast.expr, value: Rows) -> str:
        return value.text if value.text is not None else self.source.code(node)

    def _touches(self, node: ast.AST) -> bool:
        return any(
            isinstance(n, ast.Name) and (self.names.get(n.id, Rows()).rows) for n in ast.walk(node)
        )

    def _uses(self, node: ast.expr) -> str:
        what = dotted(node.func) if isinstance(node, ast.Call) else ""
        return f"uses {what or self.source.code(node)} at line {node.lineno}"

    def _culprit(self, node: ast.expr) -> str:
        """The argument without a role yet that ``node`` is made from, when there is one."""
        free = sorted((self._made(node) & self.roles.open) - set(self.roles.taken))
        return free[0] if free else ""

    def _made(self, node: ast.expr) -> frozenset[str]:
        """The names ``node`` is made from: the arguments its locals are made from, and its own."""
        return frozenset(
            a
            for n in ast.walk(node)
            if isinstance(n, ast.Name)
            for a in self.made_from.get(n.id, {n.id})
        )

    def note(self, target: ast.expr, value: ast.expr) -> None:
        """Which arguments the names ``target`` binds are made from."""
        made = self._made(value)
        for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
            self.made_from[name] = made

    def _other(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return f"reads {node.id} at line {node.lineno}"
        return f"combines its rows with {self.source.code(node)} at line {node.lineno}"


def follow(
    source: Source,
    function: ast.FunctionDef,
    parameter: str,
    helpers: tuple[str, str, str],
    static: tuple[str, ...] = (),
) -> Body | str:
    """The body's rewrites once ``parameter`` holds padding rows past the count named by
    ``helpers`` (with the names of the functions that reduce over the real rows and zero the
    padding), and which parts of its result are rows; else what in it mixes the padding into a
    result (a clause: "uses jnp.stack at line 9"). Followed with no rank known first; then, where
    that fails, with the array taken for indices into tables of vectors, when the body gathers by
    it, or for a matrix of rows (the ranks the front then checks). The other arguments (``static``
    ones aside) the body meets with the rows are given roles (``Roles``) as the clauses ask."""
    names = (parameter, *helpers)
    args = function.args
    open_ = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    open_ -= {parameter, *static} | bound_names(function.body)
    roles = Roles(open=frozenset(open_))

    def ranked(rank: int | None) -> Body | _Refused:
        return _with_roles(partial(_follow, source, function, names, rank), roles)

    first = ranked(None)
    if isinstance(first, Body):
        return first
    indices = ranked(_INDEX_RANK)
    if isinstance(indices, Body) and len(indices.ranks) > 1:
        return indices
    matrix = ranked(_MATRIX_RANK)
    return matrix if isinstance(matrix, Body) else str(first)


def _with_roles(follow_with: Callable[[Roles], Body | _Refused], roles: Roles) -> Body | _Refused:
    """The body followed, each other argument a refusal turns on given a role: the body followed to
    its end with it taken for fewer axes and for rows (the arguments after it given theirs alike),
    either where both give the same body, else the one that gives a body (fewer axes, when both
    do). Past ``_ROLES`` arguments, fewer axes without trying rows."""
    result = follow_with(roles)
    if not (isinstance(result, _Refused) and result.culprit not in ("", *roles.taken)):
        return result
    culprit = result.culprit
    fewer = _with_roles(follow_with, roles.given(culprit, FEWER_AXES))
    if len(roles.taken) >= _ROLES:
        return fewer
    rows = _with_roles(follow_with, roles.given(culprit, ROWS))
    if isinstance(fewer, Body) and isinstance(rows, Body) and _same(fewer, rows):
        fewer.roles = {**fewer.roles, culprit: EITHER}
    return rows if isinstance(rows, Body) and not isinstance(fewer, Body) else fewer


def _same(a: Body, b: Body) -> bool:
    return (
        [(id(n), t) for n, t in a.changes] == [(id(n), t) for n, t in b.changes]
        and a.returns_rows == b.returns_rows
        and (a.masked, a.zeroed) == (b.masked, b.zeroed)
    )


def _follow(
    source: Source,
    function: ast.FunctionDef,
    names: tuple[str, ...],
    rank: int | None,
    roles: Roles,
) -> Body | _Refused:
    walker = _Follow(source, function, names, rank, roles)
    out = Body()
    try:
        walker.run(function, out)
    except _Refused as why:
        return why
    out.masked, out.over_rows, out.ranks = walker.masked, names[2], walker.ranks
    out.zeroed, out.real_rows, out.roles = walker.zeroed, names[3], walker.roles.taken
    out.met, out.bounds = walker.met, walker.bounds
    return out


def _like(rows: list[Rows]) -> str:
    """The argument whose rank rows combined element by element have: rows combined share their
    first axis, so their ranks are the same (any of theirs; the first by name, to be the same on
    every run); empty where one's is not known."""
    likes = sorted({r.like for r in rows})
    return "" if not likes or "" in likes else likes[0]


def _axis_of(axis: ast.expr | None, held: Rows, default: int | None = None) -> object:
    """The axis a reduction of ``held`` runs along (``default`` where none is named), counted from
    the first where its rank tells it."""
    along = _number(axis) if axis is not None else default
    if isinstance(along, int) and along < 0 and held.rank is not None:
        along += held.rank
    return along


def _later(along: object) -> bool:
    """An axis after the rows' (the first)."""
    return isinstance(along, int) and along > 0 and not isinstance(along, bool)


def _counted(loop: ast.For) -> bool:
    """``for i in range(...)`` with no ``else``: a loop the body can be followed through turn by
    turn (``_Follow._loop`` checks its count)."""
    counting = loop.iter
    return (
        isinstance(counting, ast.Call)
        and dotted(counting.func) == "range"
        and not counting.keywords
        and 1 <= len(counting.args) <= 3
        and isinstance(loop.target, ast.Name)
        and not loop.orelse
    )


def _texts(body: Body) -> list[tuple[int, str]]:
    return [(id(node), text) for node, text in body.changes]


def _pairs(target: ast.expr, value: ast.expr) -> list[tuple[ast.expr, ast.expr]]:
    """``a, b = x, y`` as its two assignments (each value is made before any is bound); else the
    assignment as it is."""
    if (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
    ):
        return list(zip(target.elts, value.elts, strict=True))
    return [(target, value)]


@lru_cache(maxsize=8)
def _helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module's undecorated top-level functions, by name, where one def alone binds it."""
    bound = module_bindings(tree)
    return {
        s.name: s
        for s in tree.body
        if isinstance(s, ast.FunctionDef) and not s.decorator_list and len(bound[s.name]) == 1
    }


@lru_cache(maxsize=8)
def _numbers(tree: ast.Module) -> dict[str, Rows]:
    """The module's names bound once, at its top, to a number: literals, ``jnp.pi``, arithmetic and
    element-wise functions of them (``Q = jnp.log(10.0) / 400.0``); no function rebinds them."""
    bound, rebound = module_bindings(tree), rebound_in_functions(tree)
    out: dict[str, Rows] = {}
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and len(bound[stmt.targets[0].id]) == 1
            and stmt.targets[0].id not in rebound
            and _number_expression(stmt.value, out)
        ):
            out[stmt.targets[0].id] = Rows(rowless=True, rank=0)
    return out


def _number_expression(node: ast.expr, numbers: dict[str, Rows]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id in numbers
    if isinstance(node, ast.Attribute):
        return dotted(node.value) in (*_MODULES, "math", "np", "numpy") and node.attr in (
            _FLOAT_CONSTANTS | {"pi", "e"}
        )
    if isinstance(node, ast.UnaryOp):
        return _number_expression(node.operand, numbers)
    if isinstance(node, ast.BinOp):
        return _number_expression(node.left, numbers) and _number_expression(node.right, numbers)
    if isinstance(node, ast.Call):
        module, _, name = dotted(node.func).rpartition(".")
        return (
            ((module in (*_MODULES, "np", "numpy") and name in ROWWISE) or module == "math")
            and not node.keywords
            and all(_number_expression(a, numbers) for a in node.args)
        )
    return False


def _bind(walker: _Follow, target: ast.expr, value: Rows, line: int) -> None:
    if isinstance(target, ast.Name):
        kept = replace(value, text=None)
        walker.names[target.id] = kept
    elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
        if value.rows or value.length:
            raise _Refused(f"unpacks its rows at line {line}")
        # each item of an array of fewer axes has one axis fewer still
        item = Rows(rowless=True, loose=True, fewer=value.fewer + 1) if value.loose else Rows()
        for element in target.elts:
            walker.names[element.id] = item  # type: ignore[attr-defined]
    else:
        raise _Refused(f"assigns to {ast.unparse(target)} at line {line}")


def _slice(walker: _Follow, part: ast.Slice) -> Rows:
    bounds = [b for b in (part.lower, part.upper, part.step) if b is not None]
    values = [walker.value(b) for b in bounds]
    return Rows(
        rows=any(v.rows for v in values),
        length=any(v.length for v in values),
        counted=any(v.counted for v in values),
    )


def _number(node: ast.expr | None) -> object:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return -inner if isinstance(inner, (int, float)) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    return None


def _atom(text: str) -> str:
    """``text`` as an operand: a name as it is, anything else in parentheses."""
    return text if text.isidentifier() else f"({text})"


def _splice(source: Source, node: ast.expr, changed: list[tuple[ast.expr, str]]) -> str:
    """``node``'s text with each changed part's text put in its place."""
    text = source.code(node)
    start = source.start(node)
    for part, new in sorted(changed, key=lambda c: source.start(c[0]), reverse=True):
        lo = offset_in(text, start, source.start(part))
        hi = offset_in(text, start, source.end(part))
        text = text[:lo] + new + text[hi:]
    return text


# -- the rewrite at the def ------------------------------------------------------------------------------
def pad_where_jitted(source: Source, finding: Finding, bucket: int) -> Rewrite | Refusal:
    """The jitted def of ``finding`` (in ``source``) made a padding front for its renamed body."""
    site, parameter = finding.jit_site, finding.parameter
    if site is None or not parameter:
        return Refusal("the finding names no jitted function and parameter")
    if _padded_already(source, site.name):
        return Refusal(PADDED)
    function = _top_level_def(source, site.name, site.location.line)
    if function is None:
        return Refusal(f"{site.name} is not a def at the top of {site.location.path}")
    why = _signature(function, parameter, site.static_params)
    if why:
        return Refusal(f"{site.name} {why}")
    decorators = [dotted(d.func if isinstance(d, ast.Call) else d) for d in function.decorator_list]
    if len(decorators) != 1 or not _jit_decorator(function.decorator_list[0]):
        return Refusal(f"{site.name} is not jitted by one jax.jit decorator")
    if not has_binding(source, "jnp", "jax.numpy"):
        if "jnp" in source.module_names:
            return Refusal("jnp is bound to something other than jax.numpy here")
        imports: tuple[str, ...] = ("import jax.numpy as jnp",)
    else:
        imports = ()
    valid = source.fresh_name("valid")
    over_rows, real_rows = _defined(source, _OVER_ROWS), _defined(source, _REAL_ROWS)
    named = (
        valid,
        over_rows or source.fresh_name("over_rows"),
        real_rows or source.fresh_name("real_rows"),
    )
    body = follow(source, function, parameter, named, site.static_params)
    if isinstance(body, str):
        return Refusal(f"{site.name} {body}, so padded rows would change its result")
    inner = source.fresh_name(f"{site.name}_padded")
    existing = next((n for n, b in pads(source).items() if b == bucket), None)
    pad = existing or source.fresh_name(PAD_NAME)
    helpers = [] if existing else [pad_code(pad, bucket)]
    if body.masked and not over_rows:
        helpers.append(_helper_text(_OVER_ROWS, named[1]))
    if body.zeroed and not real_rows:
        helpers.append(_helper_text(_REAL_ROWS, named[2]))
    code = _inner_code(source, function, inner, valid, body)
    if code is None:
        return Refusal(f"{site.name}'s body does not start on a line of its own")
    front = _front_code(function, (inner, valid, pad, source.fresh_name("result")), parameter, body)
    statements = [_spaced(parse_statement(t), i) for i, t in enumerate([*helpers, code, front])]
    where: Start = source.start(function)
    return Rewrite(insert_before={where: statements}, remove={where}, imports=imports, unsafe=True)


def _padded_already(source: Source, name: str) -> bool:
    """Whether this file calls ``name`` with an array a pad function of an earlier fix made."""
    made = set(pads(source))
    return any(
        isinstance(node, ast.Call)
        and dotted(node.func) == name
        and any(isinstance(a, ast.Call) and dotted(a.func) in made for a in node.args)
        for node in ast.walk(source.tree)
    )


def _spaced(statement: cst.BaseStatement, index: int) -> cst.BaseStatement:
    """Two blank lines above each def but the first, which takes those of the def it replaces."""
    import libcst as cst

    if index == 0:
        return statement
    return statement.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])


def _top_level_def(source: Source, name: str, line: int) -> ast.FunctionDef | None:
    for stmt in source.tree.body:
        if (
            isinstance(stmt, ast.FunctionDef)
            and stmt.name == name
            and min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
            <= line
            <= (stmt.end_lineno or stmt.lineno)
        ):
            return stmt
    return None


def _signature(function: ast.FunctionDef, parameter: str, static: tuple[str, ...]) -> str:
    args = function.args
    if args.vararg or args.kwarg:
        return "takes *args or **kwargs, which the padding front cannot pass on by name"
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if parameter not in names:
        return f"has no parameter {parameter}"
    if parameter in static:
        return f"takes {parameter} as a static argument"
    if names[:1] in (["self"], ["cls"]):
        return "is a method"
    return ""


def _jit_decorator(node: ast.expr) -> bool:
    """``@jax.jit`` or ``@partial(jax.jit, ...)``: the one function jitted, with its options."""
    if dotted(node) in _JITS:
        return True
    return (
        isinstance(node, ast.Call)
        and dotted(node.func).rsplit(".", 1)[-1] == "partial"
        and bool(node.args)
        and dotted(node.args[0]) in _JITS
    )


def _inner_code(
    source: Source, function: ast.FunctionDef, inner: str, valid: str, body: Body
) -> str | None:
    """The jitted def renamed, taking ``valid`` by keyword, its reductions over the real rows;
    its decorator and body as written, comments kept."""
    lines = source.text.splitlines()
    first = function.body[0].lineno
    while first - 1 > function.lineno and _blank_or_comment(lines[first - 2]):
        first -= 1
    if first == function.lineno:
        return None
    top = min(d.lineno for d in function.decorator_list)
    decorators = lines[top - 1 : function.lineno - 1]
    end = function.end_lineno or first
    text = "\n".join(lines[first - 1 : end]) + "\n"
    # the changes, from the last, by where they are in the body's text
    for node, new in sorted(body.changes, key=lambda c: source.start(c[0]), reverse=True):
        lo = offset_in(text, (first, 0), source.start(node))
        hi = offset_in(text, (first, 0), source.end(node))
        text = text[:lo] + new + text[hi:]
    # the count of real rows, where a reduction needs it
    args = _with_keyword(function.args, valid) if body.counts else function.args
    returns = f" -> {ast.unparse(function.returns)}" if function.returns else ""
    header = f"def {inner}({ast.unparse(args)}){returns}:"
    return "\n".join([*decorators, header, text])


def _blank_or_comment(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("#")


def _with_keyword(args: ast.arguments, name: str) -> ast.arguments:
    return ast.arguments(
        posonlyargs=args.posonlyargs,
        args=args.args,
        vararg=args.vararg,
        kwonlyargs=[*args.kwonlyargs, ast.arg(arg=name)],
        kw_defaults=[*args.kw_defaults, None],
        kwarg=args.kwarg,
        defaults=args.defaults,
    )


def _front_code(
    function: ast.FunctionDef, names: tuple[str, str, str, str], parameter: str, body: Body
) -> str:
    """The def that takes the jitted function's name and arguments: pads, calls, slices back."""
    inner, valid, pad, result = names
    args = function.args
    padded = {parameter} | {n for n, role in body.roles.items() if role == ROWS}

    def call(callee: str, padding: bool) -> str:
        def given(name: str) -> str:
            return f"{pad}({name})" if padding and name in padded else name

        passed = [given(a.arg) for a in (*args.posonlyargs, *args.args)]
        passed += [f"{a.arg}={given(a.arg)}" for a in args.kwonlyargs]
        if body.counts:
            passed.append(f"{valid}={valid}")
        return f"{callee}({', '.join(passed)})"

    # the ranks and roles the padding was proved for; other arrays are given as they are to the
    # body not jitted (jitted, it would trace once per length again)
    checks = [f"jnp.ndim({k}) != {r}" for k, r in body.ranks.items()]
    checks += [f"jnp.ndim({k}) > {_TABLE_RANK}" for k in sorted(body.bounds)]
    checks += [
        check
        for n, role in body.roles.items()
        if (check := _role_check(n, role, body.met.get(n), valid))
    ]
    guard = [f"if {' or '.join(checks)}:", f"    return {call(f'{inner}.__wrapped__', False)}"]
    either = [
        f"{n} = {pad}({n}) if jnp.ndim({n}) == {body.met[n]} and "
        f"jnp.shape({n})[:1] == ({valid},) else {n}"
        for n, role in body.roles.items()
        if role == EITHER and n in body.met
    ]
    padded_call = call(inner, True)
    if body.tuple_result and any(body.returns_rows):
        parts = [
            f"{result}[{i}][:{valid}]" if rows else f"{result}[{i}]"
            for i, rows in enumerate(body.returns_rows)
        ]
        tail = [
            f"{result} = {padded_call}",
            f"return ({', '.join(parts)}{',' * (len(parts) == 1)})",
        ]
    else:
        sliced = body.returns_rows == (True,)
        tail = [f"return {padded_call}[:{valid}]" if sliced else f"return {padded_call}"]
    returns = f" -> {ast.unparse(function.returns)}" if function.returns else ""
    lines = [
        f"def {function.name}({ast.unparse(args)}){returns}:",
        f'"""{function.name} of {parameter} padded to a bucket of rows: one trace per bucket."""',
        f"{valid} = len({parameter})",
        *(guard if checks else []),
        *either,
        *tail,
    ]
    return "\n    ".join(lines) + "\n"


def _role_check(name: str, role: str, met: str | None, valid: str) -> str:
    """The test that ``name`` is not what its role takes it for (``met``: the rank of the rows it
    meets, as the front writes it); empty where there is none to make."""
    if role == ROWS:
        return f"jnp.shape({name})[:1] != ({valid},)"
    if met is None:
        return ""  # it meets no rows
    if role == FEWER_AXES:
        return f"jnp.ndim({name}) >= {met}"
    return f"jnp.ndim({name}) > {met}"  # EITHER: padded when it has the rows' rank


def _defined(source: Source, template: str) -> str:
    """The name of the helper an earlier fix of this file defined from ``template``, else empty."""
    for stmt in source.tree.body:
        if (
            isinstance(stmt, ast.FunctionDef)
            and source.code(stmt) == _helper_text(template, stmt.name).strip()
        ):
            return stmt.name
    return ""


def _helper_text(template: str, name: str) -> str:
    return textwrap.dedent(template.format(name=name)).lstrip("\n")


def pads(source: Source) -> dict[str, int]:
    """The pad functions earlier fixes of this file defined, by name, with their bucket."""
    out = {}
    for stmt in source.tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.args.defaults:
            bucket = stmt.args.defaults[-1]
            if (
                isinstance(bucket, ast.Constant)
                and isinstance(bucket.value, int)
                and source.code(stmt) == pad_code(stmt.name, bucket.value).strip()
            ):
                out[stmt.name] = bucket.value
    return out


def pad_code(name: str, bucket: int) -> str:
    return textwrap.dedent(_PAD.format(name=name, bucket=bucket)).lstrip("\n")
