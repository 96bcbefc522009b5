"""What a loop carries from one iteration to the next, and what it leaves invariant."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from retracelint.summarise.apis import _ARRAY_MODULES, _GROWERS, _array_module
from retracelint.summarise.points import int_of
from retracelint.summarise.syntax import (
    ENDS_BLOCK,
    LEAVES_LOOP,
    _dotted,
    _is_name,
    _none_compared,
    bound_names,
    is_none,
)
from retracelint.values import (
    CarrySrc,
    Src,
    Value,
    join,
    read_field,
    read_path,
    with_field,
)

if TYPE_CHECKING:
    from retracelint.summarise.module import _ModulePass


_AXES = re.compile(r"\bndim\b|\.shape\b|\bshape\)|\baxes\b")


def _joined(before: dict[str, Value], after: dict[str, Value]) -> dict[str, Value]:
    """The environment after a loop (or branches): each name may hold its value from before or from
    the body (from one branch or the other)."""
    out = dict(before)
    for name, value in after.items():
        known = out.get(name)
        if known is not value:  # most names keep the same value: no join to call
            out[name] = value if known is None else join(known, value)
    return out


def _after_loop(before: dict[str, Value], after: dict[str, Value], runs: bool) -> dict[str, Value]:
    """The environment after a loop whose body ends with ``after``: what the body binds, when it
    surely runs to its end at least once (``runs``), else that or what came ``before``."""
    return {**before, **after} if runs else _joined(before, after)


def _surely_runs(node: ast.AST | None, constants: dict[str, int]) -> bool:
    """Whether a for loop surely runs its whole body at least once: over a non-empty display, or a
    non-empty ``range`` of integers written out or of module constants (``range(N_QUBITS - 1)``),
    with no ``break`` or ``continue`` of its own."""
    if not isinstance(node, ast.For) or _jumps(node.body):
        return False
    iterable = node.iter
    if isinstance(iterable, ast.List | ast.Tuple) and iterable.elts:
        return not any(isinstance(e, ast.Starred) for e in iterable.elts)
    count = _range_length(iterable, constants)
    return count is not None and count > 0


def _range_length(node: ast.expr, constants: dict[str, int]) -> int | None:
    """How many items ``range(...)`` of integers written out or of module constants gives."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and 1 <= len(node.args) <= 3
        and not node.keywords
    ):
        return None
    bounds = [int_of(arg, constants.get) for arg in node.args]
    if any(b is None for b in bounds) or bounds[2:] == [0]:
        return None
    return len(range(*bounds))  # type: ignore[arg-type]


def never_runs(stmt: ast.AST) -> bool:
    """Whether the body of ``stmt`` is switched off as written: a for loop over an empty display or
    ``range`` (``for i in range(0):``), an ``if``/``while`` whose test is a false literal
    (``if False:``, ``while 0:``)."""
    if isinstance(stmt, ast.For | ast.AsyncFor):
        iterable = stmt.iter
        if isinstance(iterable, ast.List | ast.Tuple | ast.Set | ast.Dict):
            return not (iterable.keys if isinstance(iterable, ast.Dict) else iterable.elts)
        return _range_length(iterable, {}) == 0
    if isinstance(stmt, ast.If | ast.While):
        return isinstance(stmt.test, ast.Constant) and not stmt.test.value
    return False


def _carried_out(values: dict[str, Value], names: _LoopNames, src: Src) -> dict[str, Value]:
    """The environment after one walk of a loop body, carry markers dropped: a name the body assigns
    from its own value at the previous iteration varies per iteration (``src``), unless every value
    the body gives it is loop-invariant (it keeps its old value or takes that one)."""
    out = {}
    assigned = names.assigned
    for name, value in values.items():
        carried = (
            name in assigned
            and _has_carry(value)
            and not names.steady(name)
            and _carries(value, names)
        )
        value = _drop_carry(_carried_fields(value, src) if value.fields else value)
        if name in assigned and value.dims is not None:
            # Its lengths were this iteration's: atoms made in the loop name new values each time.
            value = value.with_(dims=None)
        out[name] = value.with_(vsrc=value.vsrc | {src}) if carried else value
    return out


def _marked_fields(value: Value, name: str, paths: set[tuple[str, ...]]) -> Value:
    """``value`` of ``name`` at the head of a loop body that sets its attributes ``paths``: each
    may hold what the previous iteration set (``CarrySrc``)."""
    for path in sorted(paths):
        old = read_path(value, ".".join(path))
        value = set_path(value, path, old.with_(vsrc=old.vsrc | {CarrySrc(name)}))
    return value


def set_path(base: Value, attrs: tuple[str, ...], value: Value) -> Value:
    """``base`` once ``base.a.b = value`` has run (``attrs`` is ("a", "b"))."""
    if len(attrs) == 1:
        return with_field(base, attrs[0], value)
    inner = set_path(read_field(base, attrs[0]), attrs[1:], value)
    return with_field(base, attrs[0], inner)


def _carried_fields(value: Value, src: Src) -> Value:
    """The attributes set on an object from their values at the previous iteration vary per
    iteration (``src``): ``cfg = replace(cfg, crop=cfg.crop + 4)``, ``meter.count += 1``."""
    if not value.fields:
        return value
    fields = tuple(
        (name, _carried(v, src) if _has_carry(v) else _carried_fields(v, src))
        for name, v in value.fields
    )
    return value.with_(fields=fields)


def _carried(value: Value, src: Src) -> Value:
    value = _drop_carry(_carried_fields(value, src))
    return value.with_(vsrc=value.vsrc | {src})


def _carries(value: Value, names: _LoopNames) -> bool:
    """Whether ``value`` derives from the previous iteration's value of a name that is not steady."""

    def carries(sources: frozenset[Src]) -> bool:
        # A name whose attributes alone the body sets is the same object: what is computed from
        # it is not carried (its attributes are, ``_carried_fields``).
        return any(
            isinstance(s, CarrySrc) and s.name in names.assigned and not names.steady(s.name)
            for s in sources
        )

    return carries(value.vsrc) or any(carries(t.sources) for t in value.shape)


class _LoopNames:
    """The names a loop body binds (not descending into nested defs), and which of them are steady:
    only ever assigned loop-invariant expressions (``n = mesh.shape["x"]``, maybe under an
    ``if n is None``), computed from names the body does not bind and calling nothing but pure
    builtins. Whatever the iteration, a steady name holds its value from before the loop or that one
    value. Steadiness is worked out only for the names asked about: few are."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.assigned: set[str] = set()
        # The attributes it sets, by the name they hang off: `meter.count += 1`.
        self.stored: dict[str, set[tuple[str, ...]]] = {}
        self._plain: dict[str, list[ast.expr]] = {}  # values of `name = value` statements
        self._otherwise: set[str] = set()  # also bound by for, +=, unpacking, with, except...
        self._steady: dict[str, bool] = {}
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            kind = type(node)  # one look-up per node: loop bodies are most of a project's code
            if kind in _NOT_WALKED:
                continue
            if kind is ast.Name:
                if type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                    self.assigned.add(node.id)  # type: ignore[attr-defined]
                    self._otherwise.add(node.id)  # type: ignore[attr-defined]
                continue
            if kind is ast.Attribute and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                path = (_dotted(node) or "").split(".")
                if len(path) > 1:
                    self.stored.setdefault(path[0], set()).add(tuple(path[1:]))
            if (kind is ast.Assign or kind is ast.AnnAssign) and node.value is not None:  # type: ignore[attr-defined]
                targets = node.targets if kind is ast.Assign else [node.target]  # type: ignore[attr-defined]
                if all(type(t) is ast.Name for t in targets):
                    for target in targets:
                        self.assigned.add(target.id)
                        self._plain.setdefault(target.id, []).append(node.value)  # type: ignore[attr-defined]
                    stack.append(node.value)  # type: ignore[attr-defined]
                    continue
            # The children, as ast.iter_child_nodes finds them but without its two generators (a
            # list of nodes may also hold names or None: see _NOT_WALKED).
            for name in node._fields:
                child = getattr(node, name, None)
                if isinstance(child, list):
                    stack.extend(child)
                elif isinstance(child, ast.AST):
                    stack.append(child)

    def steady(self, name: str) -> bool:
        known = self._steady.get(name)
        if known is None:
            values = self._plain.get(name)
            known = self._steady[name] = (
                bool(values)
                and name not in self._otherwise
                and all(_invariant(v, self.assigned) for v in values)  # type: ignore[union-attr]
            )
        return known


def _invariant(node: ast.AST, assigned: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in assigned:
            return False
        if isinstance(sub, ast.Call) and not (
            isinstance(sub.func, ast.Name) and sub.func.id in _PURE_BUILTINS
        ):
            return False
        if isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await | ast.NamedExpr):
            return False
    return True


# Nested scopes, and what else a list of child nodes holds: the names of ``global x, y`` and of a
# class pattern's keywords, a dict display's None for ``**d``.
_NOT_WALKED = frozenset(
    {ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, str, type(None)}
)


_PURE_BUILTINS = {"len", "int", "float", "bool", "str", "min", "max", "abs", "round", "tuple"}


def _jumps(body: list[ast.stmt]) -> bool:
    """Whether a loop body may skip the rest of an iteration or end the loop (break, continue);
    the loops and functions nested in it keep theirs."""
    return any(isinstance(s, ast.Break | ast.Continue) for s in _own_statements(body))


def _own_statements(body: list[ast.stmt], handlers: bool = True) -> Iterator[ast.stmt]:
    """The statements of a loop body whose ``break``/``continue`` are the loop's own: not in the
    loops and functions nested in it (a nested loop's ``else`` is its own); ``handlers``: in
    ``except`` handlers too."""
    blocks = ("body", "orelse", "finalbody", "handlers", "cases")
    stack = list(body)
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            stack.extend(stmt.orelse)
            continue
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for name in blocks if handlers else blocks[:3] + blocks[4:]:
            stack.extend(getattr(stmt, name, None) or ())


def _has_carry(value: Value) -> bool:
    return any(isinstance(s, CarrySrc) for s in value.vsrc) or any(
        any(isinstance(s, CarrySrc) for s in t.sources) for t in value.shape
    )


def _drop_carry(value: Value) -> Value:
    """``value`` without carry markers, in the attributes set on it too."""
    if not _has_carry(value) and not value.fields:
        return value
    return value.with_(
        vsrc=frozenset(s for s in value.vsrc if not isinstance(s, CarrySrc)),
        shape=frozenset(
            t.with_sources(frozenset(s for s in t.sources if not isinstance(s, CarrySrc)))
            for t in value.shape
        ),
        fields=tuple((name, _drop_carry(v)) for name, v in value.fields),
    )


def _made_in_iteration(name: str, source: ast.AST, body: list[ast.stmt]) -> bool:
    """Whether, in a loop ``body``, the statement holding ``source`` comes after one at the body's
    top level that makes ``name`` anew from other values: what ``source`` rebuilds from ``name`` is
    then this iteration's (``batch = []``, filled, then ``batch = concatenate(batch)``), not the
    previous one's."""
    fresh = False
    for stmt in body:
        if any(node is source for node in ast.walk(stmt)):
            return fresh
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if any(_binds(t, name) for t in targets):
            fresh = fresh or not any(_is_name(n, name) for n in ast.walk(stmt.value))
    return False


def _binds(target: ast.expr, name: str) -> bool:
    """Whether assigning to ``target`` binds ``name``: the name itself, or one of the names a tuple
    target unpacks into (``key, *keys = random.split(key, n + 1)``: a new list of ``n`` keys)."""
    if isinstance(target, ast.Starred):
        return _binds(target.value, name)
    if isinstance(target, ast.Tuple | ast.List):
        return any(_binds(e, name) for e in target.elts)
    return _is_name(target, name)


def _grows_itself(name: str, source: ast.AST, mod: _ModulePass) -> bool:
    """``acc = concatenate([acc, x])``, ``xs = xs + [x]``: a value rebuilt larger from itself."""
    if isinstance(source, ast.BinOp) and isinstance(source.op, ast.Add):
        operands = (source.left, source.right)
        other = source.right if _is_name(source.left, name) else source.left
        return any(_is_name(o, name) for o in operands) and isinstance(
            other, ast.List | ast.Tuple | ast.ListComp
        )
    if isinstance(source, ast.Call) and source.args:
        module, _, function = mod.canonical(_dotted(source.func) or "").rpartition(".")
        if function in _GROWERS and (module in _ARRAY_MODULES or _array_module(module)):
            first = source.args[0]
            if isinstance(first, ast.List | ast.Tuple):
                return len(first.elts) > 1 and any(_is_name(e, name) for e in first.elts)
            # ``np.append(acc, x)`` adds ``x``; a join of the list's own items (``xs =
            # np.stack(xs)``) is as long as the list is now, so only what grows the list grows it
            # (and a list refilled after each flush does not: ``_refilled_per_period``).
            return function == "append" and _is_name(first, name)
    return False


def _element_aliases(node: ast.For | ast.AsyncFor) -> dict[str, ast.expr]:
    """The names a for statement binds to items of a container it walks (``for rows in
    log.values()``, ``for key, rows in self.log.items()``, ``for rows in self.blocks``), with that
    container: a list grown through such a name grows the container's own items. None when the
    body binds the name again."""
    it, target = node.iter, node.target
    bound: dict[str, ast.expr] = {}
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args:
        view, held = it.func.attr, it.func.value
        if view == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            value = target.elts[1]
            if isinstance(value, ast.Name):
                bound[value.id] = held
        elif view == "values" and isinstance(target, ast.Name):
            bound[target.id] = held
    elif isinstance(it, ast.Name | ast.Attribute) and isinstance(target, ast.Name):
        bound[target.id] = it
    if not bound:
        return bound
    rebound = {
        n.id
        for n in ast.walk(ast.Module(body=node.body, type_ignores=[]))
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    return {name: held for name, held in bound.items() if name not in rebound}


def _one_pass(body: list[ast.stmt], until: str = "") -> bool:
    """Whether a loop body leaves the loop at the end of its first pass (``return``, ``break`` or
    ``raise`` on every path through it) and never skips back to the top but from an ``except``
    handler: a retry loop (``for attempt in range(3): try: ...; return`` / ``except E: continue``)
    runs again only after an exception, not once per item. ``until``: the name a ``while res is
    None:`` waits for; setting it to what a call returns (``res = validate(args)``) ends the loop."""
    return _leaves(body, until) and not _continues(body)


def leaving_from(block: list[ast.stmt]) -> int:
    """The first statement of ``block`` (a loop's body, or a block within it) from which every path
    leaves the loop before its next turn (``return``, ``break`` or ``raise``, never ``continue``):
    ``if s == 0: continue`` then ``return apply(...)``; ``len(block)`` when there is none."""
    first, leaves = len(block), False
    for at in range(len(block) - 1, -1, -1):
        if _continues(block[at : at + 1]):
            break
        leaves = leaves or _always_leaves(block[at], "")
        if leaves:
            first = at
    return first


def _leaves(block: list[ast.stmt], until: str = "") -> bool:
    """Whether the normal end of ``block`` is never reached: a statement of it always leaves."""
    return any(_always_leaves(stmt, until) for stmt in block)


def _always_leaves(stmt: ast.stmt, until: str) -> bool:
    if isinstance(stmt, LEAVES_LOOP):
        return True
    if isinstance(stmt, ast.Assign) and until:
        # A call's result, not a literal: `res = None` keeps waiting.
        return isinstance(stmt.value, ast.Call) and any(
            isinstance(t, ast.Name) and t.id == until for t in stmt.targets
        )
    if isinstance(stmt, ast.If):
        return _leaves(stmt.body, until) and _leaves(stmt.orelse, until)
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return _leaves(stmt.body, until)
    if isinstance(stmt, ast.Try):
        # Its handlers are the exception's path; the try's own path leaves through its body, its
        # else or its finally.
        return any(_leaves(b, until) for b in (stmt.body, stmt.orelse, stmt.finalbody))
    return False


def _continues(body: list[ast.stmt]) -> bool:
    """Whether a ``continue`` of this loop (not of a nested one) runs but from an except handler."""
    return any(isinstance(s, ast.Continue) for s in _own_statements(body, handlers=False))


def _refilled_per_period(
    node: ast.If, body: list[ast.stmt], counter: str | None, assigned: set[str]
) -> frozenset[str]:
    """The lists that ``node``, an ``if`` at the top of a loop's ``body``, uses at one length every
    time it runs: its block refills them to a fixed length (``traj = traj[-1:]``, ``acts = []``,
    ``buf.clear()``), and it runs when they hold as many items as the last time: its test is their
    length (``len(buf) == size``; ``>=`` or ``>`` of a list the loop appends to once at every turn
    and nowhere else, which reaches the bound one item at a time), or every ``k``-th turn (``if i % k == 0``; ``counter``: the
    loop's own, one more at each turn) of a loop that appends to them once at every turn and
    nowhere else. ``assigned``: the names the loop body assigns (a size it sets is not fixed)."""
    if not any(stmt is node for stmt in body):
        return frozenset()
    names = {name for name in map(_refill, node.body) if name}
    test = node.test
    if not (
        names
        and isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and _invariant(test.comparators[0], assigned)
    ):
        return frozenset()
    left, op = test.left, test.ops[0]
    if isinstance(left, ast.Call) and _dotted(left.func) == "len":
        measured = left.args[0] if len(left.args) == 1 else None
        measured_names = {n for n in names if measured is not None and _is_name(measured, n)}
        if isinstance(op, ast.Eq):
            return frozenset(measured_names)
        # ``len(xs) >= k`` of a list one item longer at each turn: true first at k items.
        if isinstance(op, ast.GtE | ast.Gt) and not _jumps(body):
            return frozenset(n for n in measured_names if _appended_each_turn(body, n, node))
        return frozenset()
    periodic = (
        counter is not None
        and isinstance(op, ast.Eq)
        and isinstance(left, ast.BinOp)
        and isinstance(left.op, ast.Mod)
        and _is_name(left.left, counter)
        and _invariant(left.right, assigned)
        and not _jumps(body)
    )
    return frozenset(n for n in names if periodic and _appended_each_turn(body, n, node))


def _refill(stmt: ast.stmt) -> str | None:
    """The list name ``stmt`` refills to a fixed length: ``xs = []`` (or a display of items),
    ``xs = xs[-1:]`` (a slice of constant bounds), ``xs.clear()``."""
    if isinstance(stmt, ast.Expr) and isinstance(call := stmt.value, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "clear" and not call.args:
            return func.value.id if isinstance(func.value, ast.Name) else None
        return None
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(name := stmt.targets[0], ast.Name)
    ):
        return None
    value = stmt.value
    if isinstance(value, ast.List | ast.Tuple):
        return None if any(isinstance(e, ast.Starred) for e in value.elts) else name.id
    # The last k items or the first k: as long every time (``xs[1:]`` is not).
    sliced = value.slice if isinstance(value, ast.Subscript) else None
    if (
        isinstance(sliced, ast.Slice)
        and _is_name(value.value, name.id)  # type: ignore[union-attr]
        and sliced.step is None
        and (
            (sliced.upper is None and _constant_int(sliced.lower, -1))
            or (sliced.lower is None and _constant_int(sliced.upper, 1))
        )
    ):
        return name.id
    return None


def _constant_int(node: ast.expr | None, sign: int) -> bool:
    """Whether ``node`` is an int literal of that sign (``-2``: -1; ``4``: 1)."""
    if sign < 0:
        if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)):
            return False
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0


def _appended_each_turn(body: list[ast.stmt], name: str, branch: ast.If) -> bool:
    """Whether the loop ``body`` grows list ``name`` only by ``name.append(...)`` statements at its
    top level (one item each, at every turn), and changes it nowhere else but in ``branch``."""
    appended = False
    for stmt in body:
        if stmt is branch:
            continue
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(call := stmt.value, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "append"
            and _is_name(call.func.value, name)
        ):
            appended = True
            continue
        for sub in ast.walk(stmt):
            changed = (isinstance(sub, ast.Attribute) and _is_name(sub.value, name)) or (
                isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Store)
            )
            if changed:
                return False
    return appended


# A count of iterations: ``range(epochs)``, a progress bar over one (``trange(epochs)``,
# ``tqdm(range(n))``). A collection may be empty; a count of epochs is not written to be 0.
_COUNTERS = ("range", "trange", "tqdm.trange", "tqdm.auto.trange", "tqdm.notebook.trange")
_PROGRESS = ("tqdm", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm")


def first_pass_branch(body: list[ast.stmt], made_before: dict[str, ast.AST]) -> ast.If | None:
    """The ``if`` of a loop body that its first iteration surely runs: a record kept by beating it
    (``if val_loss < best_loss: best_loss = val_loss; best = model``) that starts at infinity (or
    None, ``best_loss is None or ...``) before the loop, reached with nothing before it that can
    leave the iteration. What its block binds is never what it was before the loop, past it."""
    for stmt in body:
        if isinstance(stmt, ast.If) and _beats_start(stmt, made_before):
            return stmt
        if any(isinstance(n, ENDS_BLOCK) for n in ast.walk(stmt)):
            return None
    return None


def counted(node: ast.AST | None, made_before: dict[str, ast.AST]) -> bool:
    """Whether a for loop walks a count of iterations (``_COUNTERS``), written there or bound to
    a name before it (``pbar = trange(epochs)``)."""
    if not isinstance(node, ast.For):
        return False
    walked = node.iter
    if isinstance(walked, ast.Name):
        walked = made_before.get(walked.id)  # type: ignore[assignment]
    if not isinstance(walked, ast.Call):
        return False
    name = _dotted(walked.func) or ""
    if name in _PROGRESS and walked.args:
        return counted(ast.For(node.target, walked.args[0], [], []), {})
    return name in _COUNTERS


def _beats_start(stmt: ast.If, made_before: dict[str, ast.AST]) -> bool:
    """``if x < best:`` (``best > x``, ``<=``) with ``best = float("inf")`` before the loop, or
    ``>`` with minus infinity, or ``best is None or ...`` with ``best = None``; its block sets
    ``best``."""
    test = stmt.test
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        test = test.values[0]
        compared = _none_compared(test)
        record = compared[0] if compared is not None and compared[1] == 1 else None
        start_ok = isinstance(record, ast.Name) and is_none(made_before.get(record.id))
    elif isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, record = test.ops[0], test.comparators[0]
        sign = (
            1 if isinstance(op, ast.Lt | ast.LtE) else -1 if isinstance(op, ast.Gt | ast.GtE) else 0
        )
        if not isinstance(record, ast.Name):
            record, sign = test.left, -sign
        start_ok = (
            sign != 0
            and isinstance(record, ast.Name)
            and _infinity(made_before.get(record.id)) == sign
        )
    else:
        return False
    return start_ok and record.id in bound_names(stmt.body, "targets")  # type: ignore[union-attr]


def _infinity(node: ast.AST | None) -> int:
    """1 for ``float("inf")``, ``math.inf``, ``np.inf``...; -1 for minus those; else 0."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_infinity(node.operand)
    if isinstance(node, ast.Attribute) and node.attr == "inf":
        return 1
    if (
        isinstance(node, ast.Call)
        and _dotted(node.func) == "float"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        text = node.args[0].value.strip().lower()
        return {"inf": 1, "+inf": 1, "infinity": 1, "-inf": -1, "-infinity": -1}.get(text, 0)
    return 0
