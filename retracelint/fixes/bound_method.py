"""RTL301: ``jax.jit(self.step)`` (or ``jax.jit(jax.grad(self.loss))``) built anew at every call of a method
is built once per object, in ``__init__``, and the method uses ``self._step_jit``.

The jitted method reads ``self``'s attributes when it is traced, and the jit built once traces once: the
values it read then are the values it keeps. So the fix is made only when every attribute the method
reads (through the methods of the class it calls too) is assigned in ``__init__`` and nowhere else in
the class. Code outside the class may still assign one, or change an array in place, which only a user
can check: the fix is unsafe. A module that copies objects (``copy.copy``) is left alone, as the copy
would share the original's jit, bound to the original.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.rebuilt_jit import PURE_WRAPPERS, jitted_name, not_module_stable
from retracelint.model import Finding

_JITS = frozenset({"jax.jit", "jit"})
_METHODS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COPIES = frozenset({"copy.copy", "copy.deepcopy", "copy", "deepcopy"})


def jit_in_init(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not isinstance(node, ast.Call) or dotted(node.func) not in _JITS:
        return Refusal("the finding is not at a jax.jit(...) call")
    method = next(
        (a for a in source.ancestors(node) if isinstance(a, (*_METHODS, ast.Lambda))), None
    )
    cls = source.parent(method) if method is not None else None
    if (
        not isinstance(method, _METHODS)
        or not isinstance(cls, ast.ClassDef)
        or not method.args.args
    ):
        return Refusal("the jit call is not in a method")
    me = method.args.args[0].arg
    methods = {s.name: s for s in cls.body if isinstance(s, _METHODS)}
    init = methods.get("__init__")
    if init is None or init is method:
        return Refusal("the class has no __init__ to build it in, or builds it there")
    jitted = _jitted_methods(node, me, methods)
    if isinstance(jitted, Refusal):
        return jitted
    # __init__ runs after the module has run: where a module-level name is bound does not matter
    unstable = not_module_stable(source, _names(node) - {me}, None, [])
    if unstable:
        return Refusal(
            f"building it in __init__ needs {', '.join(sorted(unstable))} at module level"
        )
    if any(dotted(c.func) in _COPIES for c in ast.walk(source.tree) if isinstance(c, ast.Call)):
        return Refusal(
            "the module copies objects: a copy would share the jit bound to the original"
        )
    changed = _changed_attribute(cls, me, methods, jitted)
    if changed is not None:
        return Refusal(
            f"{me}.{changed} is assigned outside __init__: the jit built once would keep the value"
            " it was traced with"
        )
    attribute = fresh_attribute(source, "_" + jitted_name(node))
    first = next(
        (
            s
            for s in init.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ),
        None,
    )
    if first is None or any(isinstance(n, ast.Return) for n in ast.walk(init)):
        return Refusal("__init__ has no statement to build it before, or returns early")
    built = parse_statement(f"{me}.{attribute} = {source.code(node)}\n")
    return Rewrite(
        replace={source.span(node): parse_expression(f"{me}.{attribute}")},
        insert_before={source.start(first): [built]},
        unsafe=True,
    )


def _jitted_methods(node: ast.Call, me: str, methods: dict[str, ast.AST]) -> list[str] | Refusal:
    """The methods ``jax.jit(...)`` wraps (``self.m`` under pure wrappers), or why not that shape."""
    found = []
    for inner in ast.walk(node):
        if (
            isinstance(inner, ast.Call)
            and inner is not node
            and dotted(inner.func) not in PURE_WRAPPERS
        ):
            return Refusal(f"building it calls {dotted(inner.func) or 'a call'}")
        if isinstance(inner, ast.Lambda):
            return Refusal("it jits a lambda")
        if isinstance(inner, ast.Attribute) and dotted(inner.value) == me:
            if inner.attr not in methods:
                return Refusal(f"{me}.{inner.attr} is not a method of the class")
            found.append(inner.attr)
    bare = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == me]
    if not found or len(bare) != len(found):
        return Refusal(f"it uses {me} other than as {me}.method")
    return found


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _changed_attribute(
    cls: ast.ClassDef, me: str, methods: dict[str, ast.AST], jitted: list[str]
) -> str | None:
    """An attribute the jitted methods read (the class's methods they call included) that the class
    assigns outside ``__init__``, or the jitted method itself assigned as an attribute."""
    read, pending = set(jitted), list(jitted)
    while pending:
        for inner in ast.walk(methods[pending.pop()]):
            if isinstance(inner, ast.Attribute) and dotted(inner.value) == me:
                if inner.attr in methods and inner.attr not in read:
                    pending.append(inner.attr)
                read.add(inner.attr)
    for stmt in cls.body:
        if isinstance(stmt, _METHODS) and stmt.name == "__init__":
            continue
        for inner in ast.walk(stmt):
            if (
                isinstance(inner, ast.Attribute)
                and not isinstance(inner.ctx, ast.Load)
                and inner.attr in read
            ):
                return inner.attr
            if isinstance(inner, ast.Call) and dotted(inner.func) in (
                "setattr",
                "object.__setattr__",
            ):
                return "<setattr>"
    return None


def fresh_attribute(source: Source, base: str) -> str:
    used = {n.attr for n in ast.walk(source.tree) if isinstance(n, ast.Attribute)}
    name, n = base, 2
    while name in used:
        name, n = f"{base}_{n}", n + 1
    return name
