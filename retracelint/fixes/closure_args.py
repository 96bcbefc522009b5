"""RTL301: a function jitted anew at every call because it closes over values of that call (a nested def
or a lambda reading the enclosing function's parameters or locals, or ``self.x``) is jitted once at module
level, with those values made its arguments: the nested function moves out with one keyword-only
parameter per value, ``f_jit = jax.jit(f)`` is built once above the function that made it, and where it
was built the call passes the values (``partial(f_jit, samples=samples)``, or ``f_jit(x, samples=samples)``
where it was called at once).

A value goes in traced when every use of it in the function (and in the module's functions it is handed
to) works on a traced array: arithmetic, indexing it, array methods, array APIs' traced arguments.
Anything that needs it concrete (control flow, ``range``, a slice bound, a shape, a call of it) makes it a
static argument, which must be hashable. Whether a value is an array, a number or a hashable object is
not known before the program runs, so the fix is unsafe (``--unsafe-fixes``). A value passed to a
function whose use of it is not known, a value bound again after the jit is built or changed in place,
``self`` used other than as ``self.x``, and a function that needs another nested function are reasons to
leave the file alone.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from retracelint.fixes.base import (
    BUILTINS,
    Refusal,
    Rewrite,
    Source,
    dotted,
    has_binding,
    module_bindings,
    parse_expression,
    parse_statement,
    rebound_in_functions,
)
from retracelint.fixes.rebuilt_jit import jit_decorator, may_mutate, not_module_stable
from retracelint.model import Finding
from retracelint.summarise.apis import (
    _REPLACES,
    _TRANSFORMS,
    NEW_ARRAY_METHODS,
    STATIC_ARRAY_ATTRIBUTES,
    TRACED_ARRAY_METHODS,
    accepts_traced,
)

if TYPE_CHECKING:
    import libcst as cst

_JITS = frozenset({"jax.jit", "jit"})
# Transforms that pass keyword arguments through to the function as they are (vmap maps them).
_PASS_KEYWORDS = frozenset({"jax.grad", "jax.value_and_grad", "grad", "value_and_grad"})
_ARRAY_PREFIXES = ("jax.numpy.", "jax.nn.", "jax.lax.", "jax.scipy.", "jax.random.", "jnp.", "lax.")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_THROUGH = (ast.BinOp, ast.Compare, ast.Tuple, ast.List)
_CONTROL = (ast.If, ast.While, ast.Assert, ast.BoolOp, ast.comprehension)
# Builtins that give a Python value of a traced array too (its length is part of its shape).
_SHAPE_OF = frozenset({"len"})
FOLLOW_DEPTH = 3  # how deep the module's functions a value is handed to are followed


@dataclass(frozen=True)
class _Value:
    """A value the jitted function closes over: the parameter it becomes, what the call passes, and
    whether it must be static."""

    param: str
    passed: str
    static: bool


@dataclass(frozen=True)
class _Target:
    """What is jitted: the function node, the nested def (None for a lambda), the enclosing function."""

    fn: ast.FunctionDef | ast.Lambda
    fdef: ast.FunctionDef | None
    owner: ast.FunctionDef | ast.AsyncFunctionDef
    decorated: bool
    bound: ast.Call | None = (
        None  # ``partial(f, k=v)``: f a module-level def, the keywords its values
    )
    keywords: tuple[
        str, ...
    ] = ()  # the decorator's ``static_argnums=...``, kept where it is jitted


def pass_closed_over(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if node is None:
        return Refusal("no jit call at the finding's position")
    target = _target(source, node)
    if isinstance(target, Refusal):
        return target
    top = next(
        (a for a in reversed(list(source.ancestors(target.owner))) if a is not source.tree), None
    )
    top = top if isinstance(top, ast.stmt) else target.owner
    if top not in source.tree.body:
        return Refusal("the function that jits it is not at module level or in a class there")
    reads = {n.id for n in _free_loads(target.fn)} if target.bound is None else set()
    if reads & {"super", "__class__"}:
        return Refusal("it calls super(), which only works where the class defines it")
    if target.fdef is not None and target.fdef.name in reads:
        return Refusal(f"{target.fdef.name} calls itself")
    values = _values(source, target, node)
    if isinstance(values, Refusal):
        return values
    inside = {id(n) for n in ast.walk(target.bound or target.fn)}
    wrapper_names = {
        n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in inside
    } - ({target.fdef.name} if target.fdef else set())
    if target.bound is not None:
        wrapper_names.add(target.fn.name)  # type: ignore[union-attr]
    if target.fdef is not None:
        defaults = [*target.fdef.args.defaults, *target.fdef.args.kw_defaults]
        wrapper_names |= {n for d in defaults if d is not None for n in _names_read(d)}
    unstable = not_module_stable(source, wrapper_names, top, [])
    if unstable:
        return Refusal(f"building it once needs {', '.join(sorted(unstable))} at module level")
    return _rewrite(source, target, node, values, top)


# -- what is jitted ----------------------------------------------------------------------------------------
def _target(source: Source, node: ast.expr) -> _Target | Refusal:
    holder = source.parent(node)
    if isinstance(holder, ast.FunctionDef) and node in holder.decorator_list:
        keywords = jit_decorator(node)
        if len(holder.decorator_list) != 1 or keywords is None:
            return Refusal("the jitted def has other decorators")
        listed = tuple(source.code(k) for k in keywords)
        return _nested(source, holder, holder, decorated=True, keywords=listed)
    if not isinstance(node, ast.Call) or dotted(node.func) not in _JITS or len(node.args) != 1:
        return Refusal("the finding is not at a jax.jit(...) call of one function")
    if any(k.arg in ("static_argnums", "static_argnames") or k.arg is None for k in node.keywords):
        return Refusal("the jit call lists static parameters already")
    wrapped = node.args[0]
    if isinstance(wrapped, ast.Call) and dotted(wrapped.func) in ("partial", "functools.partial"):
        return _bound(source, node, wrapped)
    while isinstance(wrapped, ast.Call) and dotted(wrapped.func) in _PASS_KEYWORDS:
        if len(wrapped.args) != 1:
            return Refusal("a transform of it takes more than the function")
        wrapped = wrapped.args[0]
    if isinstance(wrapped, ast.Lambda):
        owner = _owner(source, wrapped)
        if owner is None:
            return Refusal("the lambda is not in a function")
        return _Target(wrapped, None, owner, decorated=False)
    if not isinstance(wrapped, ast.Name):
        return Refusal("what is jitted is not a function defined here")
    owner = _owner(source, node)
    fdef = owner and next(
        (s for s in owner.body if isinstance(s, ast.FunctionDef) and s.name == wrapped.id), None
    )
    if fdef is None or owner is None:
        return Refusal(f"{wrapped.id} is not a def in the function that jits it")
    if fdef.decorator_list:
        return Refusal(f"{wrapped.id} has decorators")
    loads = [n for n in ast.walk(owner) if isinstance(n, ast.Name) and n.id == wrapped.id]
    if len(loads) != 1:
        return Refusal(f"{wrapped.id} is used other than by this jit call")
    return _nested(source, fdef, node, decorated=False)


def _bound(source: Source, node: ast.Call, bound: ast.Call) -> _Target | Refusal:
    """``jax.jit(partial(f, k=v))``: f, a def at module level, is jitted once, and the call passes
    the keywords."""
    owner = _owner(source, node)
    if owner is None:
        return Refusal("the jit call is not in a function")
    name = dotted(bound.args[0]) if len(bound.args) == 1 else ""
    fdef = _module_def(source, name)
    if fdef is None:
        return Refusal("the partial binds positional arguments, or a function not defined here")
    if any(k.arg is None for k in bound.keywords):
        return Refusal("the partial binds **keywords")
    return _Target(fdef, None, owner, decorated=False, bound=bound)


def _nested(
    source: Source,
    fdef: ast.FunctionDef,
    at: ast.AST,
    decorated: bool,
    keywords: tuple[str, ...] = (),
) -> _Target | Refusal:
    owner = _owner(source, fdef)
    if owner is None or source.parent(fdef) is not owner:
        return Refusal("the jitted def is not in the body of a function")
    bindings = [
        n
        for n in _own_names(owner, fdef.name)
        if n is not fdef and not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    ]
    if bindings:
        return Refusal(f"{fdef.name} is bound again in {owner.name}")
    if any(
        isinstance(n, (ast.Nonlocal, ast.Global, ast.Yield, ast.YieldFrom)) for n in ast.walk(fdef)
    ):
        return Refusal(f"{fdef.name} declares nonlocal or global names, or yields")
    return _Target(fdef, fdef, owner, decorated, keywords=keywords)


def _owner(source: Source, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    scope = next((a for a in source.ancestors(node) if isinstance(a, _SCOPES)), None)
    return scope if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _own_names(owner: ast.AST, name: str) -> list[ast.AST]:
    """Where ``owner``'s own scope (nested scopes left out, but their defs counted) names ``name``."""
    out: list[ast.AST] = []
    for node in _walk_scope(owner):
        if (
            (isinstance(node, ast.Name) and node.id == name)
            or (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and node.name == name
            )
            or (isinstance(node, ast.arg) and node.arg == name)
        ):
            out.append(node)
    return out


def _walk_scope(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope``'s own body and parameters; a nested scope's own body is not entered (its
    decorators and defaults are, evaluated where it is)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend([*node.decorator_list, *node.args.defaults])
            stack.extend(d for d in node.args.kw_defaults if d is not None)
        elif isinstance(node, ast.Lambda):
            stack.extend(
                [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
            )
        elif isinstance(node, ast.ClassDef):
            stack.extend([*node.decorator_list, *node.bases])
        else:
            stack.extend(ast.iter_child_nodes(node))


def _free_loads(fn: ast.AST) -> list[ast.Name]:
    """The reads in ``fn`` (its nested scopes too, a class's methods among them) of names no scope
    inside it binds."""
    out: list[ast.Name] = []

    def visit(scope: ast.AST, bound: frozenset[str]) -> None:
        own = set(bound) | _binds(scope)
        # What a class body binds is not seen by the functions inside it (Python's class scope).
        inner = bound if isinstance(scope, ast.ClassDef) else frozenset(own)
        for node in _walk_scope(scope):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in own:
                out.append(node)
            elif isinstance(node, _SCOPES):
                visit(node, inner)

    visit(fn, frozenset())
    return out


def _binds(scope: ast.AST) -> set[str]:
    names = (
        {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
        if isinstance(scope, _FUNCTIONS)
        else set()
    )
    for node in _walk_scope(scope):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def _names_read(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


# -- the values it closes over -----------------------------------------------------------------------------
def _values(source: Source, target: _Target, node: ast.AST) -> list[_Value] | Refusal:
    if target.bound is not None:
        return _keyword_values(source, target.fn, target.bound)
    owner, fn = target.owner, target.fn
    local = _binds(owner) - ({target.fdef.name} if target.fdef else set())
    self_name = _self_name(source, owner)
    site = next(a for a in [node, *source.ancestors(node)] if isinstance(a, ast.stmt))
    taken: set[str] = _binds(fn) | {n.id for n in _free_loads(fn)}
    values: list[_Value] = []
    reads: dict[str, list[ast.expr]] = {}
    made_here = {
        n.name for n in _walk_scope(owner) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    } | {
        t.id
        for n in _walk_scope(owner)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    results = {
        t.id
        for n in _walk_scope(owner)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
        for target in n.targets
        for t in ast.walk(target)
        if isinstance(t, ast.Name)
    }
    for load in _free_loads(fn):
        if load.id not in local:
            continue
        if load.id == self_name:
            attribute = source.parent(load)
            if not isinstance(attribute, ast.Attribute) or not isinstance(attribute.ctx, ast.Load):
                return Refusal(f"it uses {self_name} other than by reading its attributes")
            key = f"{self_name}.{attribute.attr}"
            if _is_method(source, owner, attribute.attr):
                return Refusal(f"it calls the method {key}, which reads {self_name} when traced")
            reads.setdefault(key, []).append(attribute)
            continue
        reads.setdefault(load.id, []).append(load)
    for key, uses in sorted(reads.items()):
        late = _changed_later(source, owner, key, site, fn)
        if late:
            return Refusal(f"{key} {late}")
        static = why_static(source, fn, uses, FOLLOW_DEPTH)
        if isinstance(static, Refusal):
            return static
        unhashable = unhashable_static(source, key, uses, static) if static else None
        if unhashable is not None:
            return unhashable
        if static is not None and key in made_here:
            return Refusal(f"it closes over {key}, a function made anew at each call")
        if (static == "calls it" or str(static).endswith("as the function")) and key in results:
            # a function a call makes (a closure, a vjp's pullback): a new static value each time
            return Refusal(f"it closes over {key}, a function made by a call at each call")
        param = key.rsplit(".", 1)[-1]
        if "." in key:
            param = _fresh(param, taken)
        taken.add(param)
        values.append(_Value(param, key, static is not None))
    return sorted(values, key=lambda v: v.param)


def _keyword_values(source: Source, fdef: ast.AST, bound: ast.Call) -> list[_Value] | Refusal:
    values = []
    params = {a.arg for a in ast.walk(fdef.args) if isinstance(a, ast.arg)}  # type: ignore[attr-defined]
    for keyword in bound.keywords:
        if keyword.arg not in params:
            return Refusal(
                f"the partial binds {keyword.arg}, which is no parameter of the function"
            )
        uses = [
            n
            for n in ast.walk(fdef)
            if isinstance(n, ast.Name) and n.id == keyword.arg and isinstance(n.ctx, ast.Load)
        ]
        static = why_static(source, fdef, uses, FOLLOW_DEPTH)
        if isinstance(static, Refusal):
            return static
        unhashable = unhashable_static(source, keyword.arg, uses, static) if static else None
        if unhashable is not None:
            return unhashable
        values.append(_Value(keyword.arg, ast.unparse(keyword.value), static is not None))
    return values


def _self_name(source: Source, owner: ast.AST) -> str | None:
    """The name of ``self`` in a method of a module-level class."""
    if isinstance(source.parent(owner), ast.ClassDef) and owner.args.args:
        decorators = {dotted(d) for d in owner.decorator_list}
        if not decorators & {"staticmethod", "classmethod"}:
            return owner.args.args[0].arg
    return None


def _is_method(source: Source, owner: ast.AST, attr: str) -> bool:
    cls = source.parent(owner)
    return any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == attr
        for s in getattr(cls, "body", [])
    ) or attr.startswith("__")


def _fresh(base: str, taken: set[str]) -> str:
    name, n = base, 2
    while name in taken or name in BUILTINS:
        name, n = f"{base}_{n}", n + 1
    return name


def _changed_later(
    source: Source, owner: ast.AST, key: str, site: ast.stmt, fn: ast.AST
) -> str | None:
    """Why the value the jitted function would read when traced may differ from the one passed where it
    is built: bound (or, for ``self.x``, assigned) at or after that statement or in a loop around it,
    or changed in place."""
    loops = {id(a) for a in source.ancestors(site) if isinstance(a, _LOOPS)}
    base, _, attr = key.partition(".")
    for node in _walk_scope(owner):
        if attr:
            bound = (
                isinstance(node, ast.Attribute)
                and node.attr == attr
                and isinstance(node.value, ast.Name)
                and node.value.id == base
                and not isinstance(node.ctx, ast.Load)
            )
        else:
            bound = (
                isinstance(node, ast.Name) and node.id == key and not isinstance(node.ctx, ast.Load)
            )
        if not bound:
            continue
        if node.lineno >= site.lineno:
            return "is assigned after the jit is built"
        if any(id(a) in loops for a in source.ancestors(node)):
            return "is assigned in the loop that builds the jit"
    if not attr and may_mutate(source, owner, key, fn, handed=False, pure=NEW_ARRAY_METHODS):
        return "is changed in place"
    return None


def why_static(
    source: Source,
    fn: ast.AST,
    uses: list[ast.expr],
    depth: int,
    leaves: frozenset[str] = frozenset(),
) -> str | Refusal | None:
    """Why the value read at ``uses`` (in ``fn``) must be static, None when a traced one works, or a
    refusal when a use is not known. ``leaves``: fields that are leaves of every object, so that a
    copy made with one of them set to the value (``dataclasses.replace``) holds it as it is."""
    pending, seen = list(uses), set()
    while pending:
        current = pending.pop()
        use = _use(source, current, depth, leaves)
        if isinstance(use, list):
            for name in use:
                if name not in seen:
                    seen.add(name)
                    pending.extend(
                        n
                        for n in ast.walk(fn)
                        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                    )
            continue
        if use is not None:
            return use
    return None


def unhashable_static(
    source: Source, key: str, uses: list[ast.expr], static: str
) -> Refusal | None:
    """A value read as an array or a container (indexed, an array method or attribute) that must also
    be static: a static argument must be hashable, which an array, a list or a dict is not."""
    for use in uses:
        parent = source.parent(use)
        indexed = isinstance(parent, ast.Subscript) and parent.value is use
        method = isinstance(parent, ast.Attribute) and (
            parent.attr in TRACED_ARRAY_METHODS or parent.attr in STATIC_ARRAY_ATTRIBUTES
        )
        if indexed or method:
            return Refusal(
                f"{key} is read as an array or a container, and {static}: a static argument must be"
                " hashable"
            )
    return None


def _use(
    source: Source, node: ast.expr, depth: int, leaves: frozenset[str] = frozenset()
) -> str | list[str] | Refusal | None:
    """How one read is used: None where a traced value works, the names it is assigned to (read next),
    why it must be static, or a refusal. ``leaves``: as ``why_static``'s."""
    current: ast.AST = node
    while True:
        parent = source.parent(current)
        if isinstance(parent, _THROUGH) or (
            isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not)
        ):
            current = parent
        elif isinstance(parent, ast.Subscript):
            if current is not parent.value:
                return "indexes with it"
            current = parent
        elif isinstance(parent, ast.Slice):
            return "slices with it"
        elif isinstance(parent, ast.Dict):
            if any(current is k for k in parent.keys):
                return "uses it as a dict key"
            current = parent
        elif isinstance(parent, ast.Attribute):
            if parent.attr in STATIC_ARRAY_ATTRIBUTES:
                return None
            call = source.parent(parent)
            if parent.attr in _record_fields(source):
                current = parent  # a field of a record made from it: its uses are checked
                continue
            if parent.attr not in TRACED_ARRAY_METHODS:
                return f"reads .{parent.attr} of it"
            current = call if isinstance(call, ast.Call) and call.func is parent else parent
        elif isinstance(parent, ast.IfExp):
            if current is parent.test:
                return "decides Python control flow"
            current = parent
        elif isinstance(parent, ast.Call):
            if current is parent.func:
                return "calls it"
            if dotted(parent.func) in record_classes(source):
                current = parent  # a record holds it as it is: the record's uses are checked
                continue
            return _argument_use(source, parent, current, depth)
        elif isinstance(parent, ast.keyword):
            call = source.parent(parent)
            if isinstance(call, ast.Call) and (
                dotted(call.func) in record_classes(source)
                or (parent.arg in leaves and imported_name(source, dotted(call.func)) in _REPLACES)
            ):
                current = call  # the record or the copy holds it as it is: its uses are checked
                continue
            return _argument_use(source, call, current, depth)  # type: ignore[arg-type]
        elif isinstance(parent, ast.Return) or (
            isinstance(parent, ast.Lambda) and current is parent.body
        ):
            return None
        elif isinstance(parent, (ast.Assign, ast.AnnAssign)) and current is parent.value:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if not all(isinstance(t, (ast.Name, ast.Tuple)) for t in targets):
                return Refusal("it assigns a value it closes over to something other than a name")
            return names
        elif isinstance(parent, (*_CONTROL, ast.UnaryOp)):
            return "decides Python control flow"
        else:
            return Refusal(
                f"it uses a value it closes over in {type(parent).__name__ if parent else 'the module'}"
            )


def record_classes(source: Source) -> dict[str, ast.ClassDef]:
    """The module's NamedTuple classes that define no ``__new__``: made of traced values, they hold
    them as they are (a pytree), so a value goes through the constructor to the record's uses."""
    return {
        stmt.name: stmt
        for stmt in source.tree.body
        if isinstance(stmt, ast.ClassDef)
        and any(dotted(b) in ("NamedTuple", "typing.NamedTuple") for b in stmt.bases)
        and not any(
            isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__new__"
            for s in stmt.body
        )
    }


def _record_fields(source: Source) -> set[str]:
    """The fields of the module's records (``record_classes``): reading one of a value made from a traced
    one reads what it was made of, so its uses are checked as the value's."""
    return {
        stmt.target.id
        for cls in record_classes(source).values()
        for stmt in cls.body
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
    }


def _argument_use(
    source: Source, call: ast.Call, argument: ast.AST, depth: int
) -> str | Refusal | None:
    position = next((i for i, a in enumerate(call.args) if a is argument), None)
    keyword = next((k.arg for k in call.keywords if k.value is argument), None)
    func = call.func
    while isinstance(func, ast.Call) and dotted(func.func) in _PASS_KEYWORDS | {"jax.vmap", "vmap"}:
        func = func.args[0] if func.args else func  # jax.grad(h)(x, value): h's parameter
    called = imported_name(source, dotted(func))
    if called in _SHAPE_OF and called not in module_bindings(source.tree):
        return None
    if called in BUILTINS and called not in module_bindings(source.tree):
        return f"passes it to {called}"
    if called in _TRANSFORMS and position == 0:
        return f"passes it to {called} as the function"
    if called.startswith(_ARRAY_PREFIXES):
        if accepts_traced(called.rsplit(".", 1)[-1], position, keyword):
            return None
        return f"gives {called} an argument that is not known to take a traced value"
    home, fdef = source, func if isinstance(func, ast.Lambda) else _module_def(source, called)
    if fdef is None and depth > 0:
        home, fdef = _imported_def(source, called)
    if fdef is None or depth == 0:
        return Refusal(
            f"it passes a value it closes over to {called or 'a call'}, whose use of it is not known"
        )
    params = [*fdef.args.posonlyargs, *fdef.args.args]
    if keyword is not None:
        param = next((a for a in [*params, *fdef.args.kwonlyargs] if a.arg == keyword), None)
    else:
        param = params[position] if position is not None and position < len(params) else None
    if param is None:
        return Refusal(f"it passes a value it closes over to {called}'s *args or **kwargs")
    uses = [
        n
        for n in ast.walk(fdef)
        if isinstance(n, ast.Name) and n.id == param.arg and isinstance(n.ctx, ast.Load)
    ]
    return why_static(home, fdef, uses, depth - 1)


def _imported_def(source: Source, called: str) -> tuple[Source, ast.FunctionDef | None]:
    """The def of a function the module imports from a module beside it (``from dsp import
    soft_gate``, ``dsp.soft_gate``: ``dsp.py`` in its folder), with that module."""
    module, _, name = called.rpartition(".")
    if not module or source.path is None:
        return source, None
    home = source.neighbour(str(Path(source.path).parent / f"{module.replace('.', '/')}.py"))
    return (home, _module_def(home, name)) if home is not None else (source, None)


def imported_name(source: Source, name: str) -> str:
    """``name`` with its first part replaced by what the module imports under it (``logsumexp`` →
    ``jax.scipy.special.logsumexp``, ``jnp.sum`` → ``jax.numpy.sum``)."""
    head, dot, rest = name.partition(".")
    for stmt in source.tree.body:
        for alias in (
            getattr(stmt, "names", []) if isinstance(stmt, (ast.Import, ast.ImportFrom)) else []
        ):
            if (alias.asname or alias.name.split(".")[0]) != head:
                continue
            if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                return f"{stmt.module}.{alias.name}{dot}{rest}"
            if isinstance(stmt, ast.Import) and alias.asname:
                return f"{alias.name}{dot}{rest}"
    return name


def _module_def(source: Source, name: str) -> ast.FunctionDef | None:
    """The module-level def ``name`` is, if it is bound once and never rebound."""
    stmts = module_bindings(source.tree).get(name, [])
    if (
        len(stmts) == 1
        and isinstance(stmts[0], ast.FunctionDef)
        and name not in rebound_in_functions(source.tree)
    ):
        return stmts[0] if not stmts[0].decorator_list else None
    return None


# -- the rewrite --------------------------------------------------------------------------------------------
def _rewrite(
    source: Source, target: _Target, node: ast.expr, values: list[_Value], top: ast.stmt
) -> Rewrite | Refusal:
    import libcst as cst

    outer = source.parent(node)
    called = isinstance(outer, ast.Call) and outer.func is node and not target.decorated
    partial = partial_name(source)
    if partial is None and values and not called:
        return Refusal("partial is bound to something other than functools.partial here")
    needs_import = values and not called and not has_binding(source, "partial", "functools.partial")
    imports = ("from functools import partial",) if needs_import and partial == "partial" else ()
    if target.bound is not None:
        fn_name = target.fn.name  # type: ignore[union-attr]
        rest = [source.code(k) for k in node.keywords]  # type: ignore[attr-defined]
        jitted = f"{source.code(node.func)}({', '.join([fn_name, *rest])})"  # type: ignore[attr-defined]
        return _at_site(source, target, node, values, top, jitted, fn_name, [], partial, imports)
    fn = target.fn
    text = (
        textwrap.dedent(_lines(source, fn) if target.fdef else _segment(source, fn)).strip() + "\n"
    )
    moved = cst.parse_statement(text) if target.fdef else cst.parse_expression(text.strip())
    moved = _with_parameters(moved, values)
    if target.fdef is not None:
        defined = module_bindings(source.tree)
        name = target.fdef.name
        if name in defined or name in BUILTINS:
            name = source.fresh_name(name)
        moved = moved.with_changes(name=cst.Name(name), decorators=[])
        listed = ", ".join([name, *target.keywords])
        jitted = f"jax.jit({listed})" if target.decorated else _with_function(source, node, name)
        base = name.lstrip("_") or "fn"
        statements = [moved]
    else:
        jitted = _with_function(source, node, cst.Module([]).code_for_node(moved))
        holder = source.parent(node)
        named = isinstance(holder, ast.Assign) and isinstance(holder.targets[0], ast.Name)
        base, statements = (holder.targets[0].id if named else "jitted"), []  # type: ignore[union-attr]
    if jitted is None:
        return Refusal("the function's text is found more than once in the jit call")
    if any(v.static for v in values) and any(
        k.startswith("static_argnames") for k in target.keywords
    ):
        return Refusal("a value it closes over must be static, and the jit lists static_argnames")
    return _at_site(source, target, node, values, top, jitted, base, statements, partial, imports)


def _at_site(
    source: Source,
    target: _Target,
    node: ast.expr,
    values: list[_Value],
    top: ast.stmt,
    jitted: str,
    base: str,
    moved: list[cst.BaseStatement],
    partial: str | None,
    imports: tuple[str, ...],
) -> Rewrite:
    """The jit built once above ``top`` (after the moved def), and the site passing the values."""
    import libcst as cst

    statics = [v.param for v in values if v.static]
    if statics:
        listed = ", ".join(f'"{s}"' for s in statics) + ("," if len(statics) == 1 else "")
        jitted = f"{jitted[:-1]}, static_argnames=({listed}))"
    jit_name = source.fresh_name("jitted" if base == "jitted" else f"{base}_jit")
    passed = ", ".join(f"{v.param}={v.passed}" for v in values)
    assign = parse_statement(f"{jit_name} = {jitted}\n")
    blank = [cst.EmptyLine(), cst.EmptyLine()]
    inserted = [*moved, assign.with_changes(leading_lines=blank)] if moved else [assign]
    rewrite = Rewrite(insert_before={source.start(top): inserted}, imports=imports, unsafe=True)
    if target.decorated:
        call = f"{partial}({jit_name}, {passed})" if values else jit_name
        stmt = parse_statement(f"{target.fdef.name} = {call}\n")  # type: ignore[union-attr]
        rewrite.insert_before[source.start(target.fdef)] = [stmt]  # type: ignore[arg-type]
        rewrite.remove.add(source.start(target.fdef))  # type: ignore[arg-type]
        return rewrite
    if target.fdef is not None:
        rewrite.remove.add(source.start(target.fdef))
    outer = source.parent(node)
    if isinstance(outer, ast.Call) and outer.func is node and values:
        args = [source.code(a) for a in [*outer.args, *outer.keywords]]
        rewrite.replace[source.span(outer)] = parse_expression(
            f"{jit_name}({', '.join([*args, passed])})"
        )
    else:
        new = f"{partial}({jit_name}, {passed})" if values else jit_name
        rewrite.replace[source.span(node)] = parse_expression(new)
    return rewrite


def partial_name(source: Source) -> str | None:
    if has_binding(source, "partial", "functools.partial"):
        return "partial"
    if has_binding(source, "functools", "functools"):
        return "functools.partial"
    return None if "partial" in source.module_names else "partial"


def _with_function(source: Source, call: ast.expr, new: str) -> str | None:
    """The jit call's text with the function it wraps (a name or a lambda, under transforms) written
    ``new``; None where that text is not found once in it."""
    text = source.code(call)
    wrapped = call.args[0]  # type: ignore[attr-defined]
    while isinstance(wrapped, ast.Call):
        wrapped = wrapped.args[0]
    inner = source.code(wrapped)
    if not inner or text.count(inner) != 1:
        return None
    return text.replace(inner, new)


def _segment(source: Source, node: ast.AST) -> str:
    lines = source.text.splitlines(keepends=True)[node.lineno - 1 : node.end_lineno]
    lines[0] = " " * node.col_offset + lines[0][node.col_offset :]
    lines[-1] = (
        lines[-1][: node.end_col_offset] if len(lines) > 1 else lines[0][: node.end_col_offset]
    )
    return "".join(lines)


def _lines(source: Source, node: ast.stmt) -> str:
    return "".join(source.text.splitlines(keepends=True)[node.lineno - 1 : node.end_lineno])


def _with_parameters(fn: cst.FunctionDef | cst.Lambda, values: list[_Value]) -> cst.CSTNode:
    """``fn`` with one keyword-only parameter per value, reading ``self.x`` as its parameter."""
    import libcst as cst

    renamed = {v.passed: v.param for v in values if "." in v.passed}

    class SelfAttributes(cst.CSTTransformer):
        def leave_Attribute(
            self, original: cst.Attribute, updated: cst.Attribute
        ) -> cst.BaseExpression:
            if isinstance(updated.value, cst.Name):
                key = f"{updated.value.value}.{updated.attr.value}"
                if key in renamed:
                    return cst.Name(renamed[key], lpar=updated.lpar, rpar=updated.rpar)
            return updated

    fn = fn.visit(SelfAttributes()) if renamed else fn  # type: ignore[assignment]
    if not values:
        return fn
    params = fn.params
    star = (
        params.star_arg
        if isinstance(params.star_arg, (cst.Param, cst.ParamStar))
        else cst.ParamStar()
    )
    added = [cst.Param(cst.Name(v.param)) for v in values]
    return fn.with_changes(
        params=params.with_changes(star_arg=star, kwonly_params=[*params.kwonly_params, *added])
    )
