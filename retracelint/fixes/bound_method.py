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
_DATACLASSES = frozenset({"dataclass", "dataclasses.dataclass"})


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
    init = _builder(cls, methods)
    if isinstance(init, Refusal) or init is method:
        return init if isinstance(init, Refusal) else Refusal(f"the jit is built in {method.name}")
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
    changed = _changed_attribute(cls, me, methods, jitted, _constructors(cls))
    if changed is not None:
        return Refusal(
            f"{me}.{changed} is assigned outside __init__: the jit built once would keep the value"
            " it was traced with"
        )
    attribute = fresh_attribute(source, "_" + jitted_name(node))
    built = f"{me}.{attribute} = {source.code(node)}\n"
    if init is None:
        # a dataclass's generated __init__ calls __post_init__, the one place its own code runs then
        where = next(s for s in cls.body if isinstance(s, _METHODS))
        made = parse_statement(f"def __post_init__({me}):\n    {built}")
        return Rewrite(
            replace={source.span(node): parse_expression(f"{me}.{attribute}")},
            insert_before={source.start(where): [made]},
            unsafe=True,
        )
    first = next(
        (
            s
            for s in init.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ),
        None,
    )
    if first is None or any(isinstance(n, ast.Return) for n in ast.walk(init)):
        return Refusal(f"{init.name} has no statement to build it before, or returns early")
    return Rewrite(
        replace={source.span(node): parse_expression(f"{me}.{attribute}")},
        insert_before={source.start(first): [parse_statement(built)]},
        unsafe=True,
    )


def _builder(
    cls: ast.ClassDef, methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
) -> ast.FunctionDef | ast.AsyncFunctionDef | Refusal | None:
    """The method that runs once as each object is made, where the jit is built: ``__init__``, or a
    dataclass's ``__post_init__`` (None: the dataclass has none yet, and gets one)."""
    if "__init__" in methods:
        return methods["__init__"]
    options = _dataclass_options(cls)
    if options is None:
        return Refusal("the class has no __init__ to build it in")
    for option, value in (("init", False), ("frozen", True), ("slots", True)):
        if options.get(option, not value) != value:
            continue
        return Refusal(
            f"the class is a dataclass({option}={value}): it cannot be given an attribute"
        )
    return methods.get("__post_init__")


def _dataclass_options(cls: ast.ClassDef) -> dict[str, object] | None:
    """The literal keywords of the class's one ``@dataclass`` decorator (``{}`` when it is not
    called); None when the class has another decorator, or one of them is not a literal."""
    if len(cls.decorator_list) != 1:
        return None
    decorator = cls.decorator_list[0]
    called = decorator.func if isinstance(decorator, ast.Call) else decorator
    if dotted(called) not in _DATACLASSES:
        return None
    keywords = decorator.keywords if isinstance(decorator, ast.Call) else []
    if isinstance(decorator, ast.Call) and decorator.args:
        return None
    if any(k.arg is None or not isinstance(k.value, ast.Constant) for k in keywords):
        return None
    return {
        k.arg: k.value.value
        for k in keywords
        if k.arg is not None and isinstance(k.value, ast.Constant)
    }


def _constructors(cls: ast.ClassDef) -> frozenset[str]:
    """The methods that run once as each object is made: what they assign, the jit built there
    sees."""
    return frozenset(
        {"__init__", "__post_init__"} if _dataclass_options(cls) is not None else {"__init__"}
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
    cls: ast.ClassDef,
    me: str,
    methods: dict[str, ast.AST],
    jitted: list[str],
    constructors: frozenset[str],
) -> str | None:
    """An attribute the jitted methods read (the class's methods they call included) that the class
    assigns outside its ``constructors``, or the jitted method itself assigned as an attribute."""
    read, pending = set(jitted), list(jitted)
    while pending:
        for inner in ast.walk(methods[pending.pop()]):
            if isinstance(inner, ast.Attribute) and dotted(inner.value) == me:
                if inner.attr in methods and inner.attr not in read:
                    pending.append(inner.attr)
                read.add(inner.attr)
    for stmt in cls.body:
        if isinstance(stmt, _METHODS) and stmt.name in constructors:
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
