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
    SETTING_BUILTINS,
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
    free = free_names(node)
    return _read_as(node, free, canonical, free, (_LENGTH, _SETTING))


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
    names = set(defaults)
    read = _read_as(node, names, canonical, names, (_LENGTH, _SETTING))
    return tuple(default for name, default in defaults.items() if name in read)


def lengths_read(
    node: ast.FunctionDef | ast.AsyncFunctionDef, canonical: Callable[[str], str]
) -> frozenset[str]:
    """The parameters of ``node`` its body reads as a length of what it traces: a slice bound
    (``perm[:num]``), a length or shape of an array API (``size=num``, ``jnp.zeros(n)``), a shaping
    method's argument. Each value is another output shape: such a parameter cannot be made traced,
    only padded to a fixed size and masked (a loop's count, ``range(n)``, can: ``lax.fori_loop``)."""
    args = node.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    return _read_as(node, params, canonical, free_names(node), (_LENGTH,))


# Keywords of an array API that set the program but no length of it.
_NOT_LENGTHS = frozenset({"dtype", "axis", "axes"})
# What a read of a name is to the program traced (``_kind``).
_LENGTH = "length"  # a length, shape, axis or count: another value is another shape
_SETTING = "setting"  # a mode, a key, a function called, a test: another value is another program


def _read_as(
    node: MadeFunction,
    names: set[str],
    canonical: Callable[[str], str],
    free: set[str],
    kinds: tuple[str, ...],
) -> frozenset[str]:
    """Those of ``names`` that ``node`` reads as one of ``kinds`` of the program it traces; an index
    into one of ``free`` (a table it closes over) picks part of the program."""
    parents = {child: parent for parent in ast.walk(node) for child in ast.iter_child_nodes(parent)}
    return frozenset(
        read.id
        for read in ast.walk(node)
        if isinstance(read, ast.Name)
        and isinstance(read.ctx, ast.Load)
        and read.id in names
        and _kind(read, parents, canonical, free) in kinds
    )


def _kind(
    read: ast.expr,
    parents: dict[ast.AST, ast.AST],
    canonical: Callable[[str], str],
    free: set[str],
) -> str | None:
    current: ast.AST = read
    while (parent := parents.get(current)) is not None:
        if isinstance(parent, ast.Call):
            if current is parent.func:
                return _SETTING  # a function called: another function, another program
            return _argument_kind(parent, parent.args.index(current), None, canonical)
        if isinstance(parent, ast.keyword):
            call = parents.get(parent)
            if not isinstance(call, ast.Call):
                return None
            return _argument_kind(call, None, parent.arg, canonical)
        if isinstance(parent, ast.Attribute):
            if parent.attr in STATIC_ARRAY_ATTRIBUTES:
                return None  # its shape: the same for arrays of one shape
            called = parents.get(parent)
            if isinstance(called, ast.Call) and called.func is parent:
                # ``x.sum()`` computes on data; ``model.apply(p)`` runs another object's program.
                return None if parent.attr in TRACED_ARRAY_METHODS else _SETTING
        elif isinstance(parent, ast.Compare):
            if all(isinstance(op, ast.Is | ast.IsNot) for op in parent.ops):
                return None  # a test of its kind (``is None``): one branch for values of a kind
            strings = (parent.left, *parent.comparators)
            if any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in strings):
                return _SETTING  # ``mode == "fast"``: a mode, whatever decides on it
        elif isinstance(parent, ast.Subscript):
            if current is not parent.value:
                # A key or an index into a table closed over (``kernels[label]``): which item is
                # part of the program. An index into an array the function is given is data
                # (``snapshots.at[step]``, ``x[i]``).
                return _SETTING if _root(parent.value) in free else None
        elif isinstance(parent, ast.Slice):
            return _LENGTH
        elif isinstance(parent, ast.Dict):
            return _SETTING if any(current is key for key in parent.keys) else None
        elif isinstance(parent, _CONTROL):
            test = getattr(parent, "test", current) is current or isinstance(parent, ast.BoolOp)
            return _SETTING if test else None
        elif isinstance(parent, ast.For | ast.comprehension):
            # walked in Python: its length is the program's
            return _LENGTH if current is parent.iter else None
        elif not isinstance(parent, _THROUGH):
            return None
        current = parent
    return None


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _argument_kind(
    call: ast.Call, position: int | None, keyword: str | None, canonical: Callable[[str], str]
) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in SHAPING_METHODS:
        return _LENGTH  # ``x.reshape(n, k)``: every argument a length or an axis
    name = _dotted(func)
    dotted = canonical(name) if name is not None else ""
    if not (name and sets_computation(dotted, position, keyword)):
        return None
    if keyword in _NOT_LENGTHS:
        return _SETTING
    # ``int(n)``, ``str(mode)``, ``range(n)``: a Python value the program is built with, not a
    # length (a loop's count may be traced, as ``lax.fori_loop``'s bound)
    return _SETTING if dotted in SETTING_BUILTINS else _LENGTH


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
