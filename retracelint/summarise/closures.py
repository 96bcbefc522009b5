"""What a function made anew for a jit reads from the function around it as part of the program it
traces (a length, an axis, a mode, a function), not as data it computes on (issue 36, how often).

A jit built around ``lambda x: x * scale`` per ``scale`` is a rebuild a user can remove: ``scale``
could be a traced argument of one jit. One built around ``lambda x: x.reshape(n, k)`` per ``n``, or
``lambda x: f(x) if mode == "fast" else g(x)`` per ``mode``, is another program per value, traced
once per value however it is built."""

from __future__ import annotations

import ast
from collections.abc import Callable

from retracelint.summarise.apis import (
    SHAPING_METHODS,
    STATIC_ARRAY_ATTRIBUTES,
    TRACED_ARRAY_METHODS,
    sets_computation,
)
from retracelint.summarise.syntax import _dotted, free_names

MadeFunction = ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef

# What a value goes through as a part of a larger one (``(n, k)``, ``n * 2``, ``not n``, ``n > 0``,
# ``cfg.depth``, ``table[k]``).
_THROUGH = (
    ast.BinOp,
    ast.UnaryOp,
    ast.Tuple,
    ast.List,
    ast.Starred,
    ast.Compare,
    ast.Attribute,
    ast.Subscript,
)
# Statements and expressions whose test or walk is Python control flow.
_CONTROL = (ast.If, ast.While, ast.IfExp, ast.Assert, ast.BoolOp)


def settings_read(node: MadeFunction, canonical: Callable[[str], str]) -> frozenset[str]:
    """The free names of ``node`` (bound in a function around it) that it reads as a setting of the
    program it traces: a length, shape or axis of an array API (``apis.sets_computation``) or of a
    shaping method, a loop count, Python control flow (a test, a walk), a key, an index or a slice
    bound, a string compared, a function called. ``canonical``: a dotted name as the module's
    imports make it."""
    return _read_as_setting(node, free_names(node), canonical)


def defaults_read(node: MadeFunction, canonical: Callable[[str], str]) -> tuple[ast.expr, ...]:
    """The defaults of the parameters of ``node`` that it reads as a setting (as
    ``settings_read``): ``lambda e, f=f: jax.grad(f)(e)`` binds ``f`` where it is made, as a
    closure would (the idiom that stops a loop's closures sharing its last item), so a new
    function there is another program. The default expressions, evaluated around ``node``."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    given = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((arg, d) for arg, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
    ]
    defaults = {arg.arg: default for arg, default in given}
    if not defaults:
        return ()  # most made functions: no second walk
    read = _read_as_setting(node, set(defaults), canonical)
    return tuple(default for name, default in defaults.items() if name in read)


def _read_as_setting(
    node: MadeFunction, names: set[str], canonical: Callable[[str], str]
) -> frozenset[str]:
    """Those of ``names`` that ``node`` reads as a setting of the program it traces."""
    parents = {child: parent for parent in ast.walk(node) for child in ast.iter_child_nodes(parent)}
    return frozenset(
        read.id
        for read in ast.walk(node)
        if isinstance(read, ast.Name)
        and isinstance(read.ctx, ast.Load)
        and read.id in names
        and _a_setting(read, parents, canonical, names)
    )


def _a_setting(
    read: ast.expr,
    parents: dict[ast.AST, ast.AST],
    canonical: Callable[[str], str],
    free: set[str],
) -> bool:
    current: ast.AST = read
    while (parent := parents.get(current)) is not None:
        if isinstance(parent, ast.Call):
            if current is parent.func:
                return True  # a function called: another function, another program
            return _setting_argument(parent, parent.args.index(current), None, canonical)
        if isinstance(parent, ast.keyword):
            call = parents.get(parent)
            return isinstance(call, ast.Call) and _setting_argument(
                call, None, parent.arg, canonical
            )
        if isinstance(parent, ast.Attribute):
            if parent.attr in STATIC_ARRAY_ATTRIBUTES:
                return False  # its shape: the same for arrays of one shape
            called = parents.get(parent)
            if isinstance(called, ast.Call) and called.func is parent:
                # ``x.sum()`` computes on data; ``model.apply(p)`` runs another object's program.
                return parent.attr not in TRACED_ARRAY_METHODS
        elif isinstance(parent, ast.Compare):
            if all(isinstance(op, ast.Is | ast.IsNot) for op in parent.ops):
                return False  # a test of its kind (``is None``): one branch for values of a kind
            strings = (parent.left, *parent.comparators)
            if any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in strings):
                return True  # ``mode == "fast"``: a mode, whatever decides on it
        elif isinstance(parent, ast.Subscript):
            if current is not parent.value:
                # A key or an index into a table closed over (``kernels[label]``): which item is
                # part of the program. An index into an array the function is given is data
                # (``snapshots.at[step]``, ``x[i]``).
                return _root(parent.value) in free
        elif isinstance(parent, ast.Slice):
            return True
        elif isinstance(parent, ast.Dict):
            return any(current is key for key in parent.keys)
        elif isinstance(parent, _CONTROL):
            return getattr(parent, "test", current) is current or isinstance(parent, ast.BoolOp)
        elif isinstance(parent, ast.For | ast.comprehension):
            return current is parent.iter  # walked in Python: its length is the program's
        elif not isinstance(parent, _THROUGH):
            return False
        current = parent
    return False


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _setting_argument(
    call: ast.Call, position: int | None, keyword: str | None, canonical: Callable[[str], str]
) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in SHAPING_METHODS:
        return True  # ``x.reshape(n, k)``: every argument a length or an axis
    dotted = _dotted(func)
    return dotted is not None and sets_computation(canonical(dotted), position, keyword)


def bound_again_first(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    after: list[ast.stmt],
    wraps: Callable[[ast.expr], bool],
) -> bool:
    """Whether the block a nested def is in binds one of the names the def closes over again to
    its jit (``train_epoch = jax.pmap(train_epoch)``, brax's trainers; ``wraps``: a jit wrapper)
    before any statement after the def names it. The def cannot run before it is named, and a
    closure reads its free names when it runs (late binding), so what it calls through such a
    name is the jitted function. A rebinding under an ``if`` or a loop is not counted: on some
    path the earlier one is still live."""
    stores = [_wrapped_again(stmt, wraps) for stmt in after]
    if not any(stores):
        return False
    free = free_names(node)
    # The statements up to the first that binds a free name again: walked only when one does.
    again = next((at for at, bound in enumerate(stores) if bound & free), None)
    return again is not None and not any(reads_name(stmt, node.name) for stmt in after[: again + 1])


def _wrapped_again(stmt: ast.stmt, wraps: Callable[[ast.expr], bool]) -> frozenset[str]:
    """The name a statement of the block itself binds to a jit of what it held (``f = jit(f)``)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return frozenset()
    target, value = stmt.targets[0], stmt.value
    if not (isinstance(target, ast.Name) and isinstance(value, ast.Call) and value.args):
        return frozenset()
    first = value.args[0]
    if isinstance(first, ast.Name) and first.id == target.id and wraps(value.func):
        return frozenset({target.id})
    return frozenset()


def reads_name(stmt: ast.stmt, name: str) -> bool:
    """Whether ``stmt`` reads ``name`` anywhere in it (a nested def's body too)."""
    return any(
        isinstance(read, ast.Name) and read.id == name and isinstance(read.ctx, ast.Load)
        for read in ast.walk(stmt)
    )
