"""RTL204: a static argument that a method makes anew at each call from what ``__init__`` gave the object
(``costs = build_costs(self.config)``, ``self.circuit.device_model()``, ``self.stitcher()``) is made
once per object, at the end of ``__init__``, kept as ``self._costs``; the method passes that, so every
call hands the jitted function the same object.

The fix is made when the expression reads nothing but ``self``'s attributes (through the methods of the
class it calls too), module-level names bound once and builtins; when ``__init__`` assigns every
attribute it reads and no other method of the class assigns one or changes one in place
(``self.config[k] = v``); and when ``__init__`` does not call the method (which would read the value
before it is made). What it calls may still give a different value each time (a counter, a random
seed), and code outside the class may change an attribute: only a user can check those, so the fix
is unsafe.

A name the method binds in the two branches of an ``if`` (``fn = self.apply`` where no chunk size is set,
else ``fn = apply_chunked(self.apply, self.chunk_size)``) is made once too when one branch makes the
value and the other passes an attribute of the object or a module-level name (the same object at every
call), and the test reads nothing else: ``__init__`` makes it under the same test (``None`` otherwise),
so a factory that fails where the branch is not taken is not called there either.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.bound_method import fresh_attribute
from retracelint.fixes.fresh_static import made_by, value_name
from retracelint.fixes.rebuilt_jit import (
    PURE_WRAPPERS,
    indented_segment,
    may_mutate,
    not_module_stable,
)
from retracelint.fixes.static_self import method_named
from retracelint.model import Finding
from retracelint.summarise.syntax import free_names

_METHODS = (ast.FunctionDef, ast.AsyncFunctionDef)


def make_per_object(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The rewrite; None when the value is not made by a call in a plain method (a lambda or a
    ``partial`` there is ``static_closure``'s shape, and its reason the one given)."""
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    named = node.id if isinstance(node, ast.Name) else None
    value = _made_for(source, node)
    branch = _made_in_branch(source, node) if value is None else None
    if branch is not None:
        value = branch.call
    if not isinstance(value, ast.Call) or dotted(value.func) in PURE_WRAPPERS:
        return None
    method = next((a for a in source.ancestors(value) if isinstance(a, _METHODS)), None)
    cls = source.parent(method) if method is not None else None
    if (
        method is None
        or not isinstance(cls, ast.ClassDef)
        or not method.args.args
        or method.decorator_list
        or method.name == "__init__"
    ):
        return None
    me = method.args.args[0].arg
    init = method_named(cls, "__init__")
    if init is None or not init.args.args or init.args.args[0].arg != me:
        return Refusal(f"{cls.name} has no __init__ to make it in")
    made_from = [value] if branch is None else [value, branch.test, branch.other]
    free = set().union(*(free_names(part) for part in made_from)) - {me}
    unstable = not_module_stable(source, free, None, [])
    if unstable:
        return Refusal(f"it reads {', '.join(sorted(unstable))}, which may change between calls")
    reads: set[str] = set()
    for part in made_from:
        read = _attributes_read(cls, part, me)
        if isinstance(read, Refusal):
            return read
        reads |= read
    why = _not_made_by_init(cls, init, method, me, reads)
    if why is not None:
        return Refusal(why)
    if named is not None and may_mutate(source, method, named, value, handed=False):
        return Refusal(f"{named} is changed after it is made: one shared object would carry that")
    if isinstance(node, ast.Attribute) and _changed_in(cls, node.attr):
        return Refusal(
            f"{me}.{node.attr} is changed after it is made: one shared object would carry that"
        )
    base = named or (node.attr if isinstance(node, ast.Attribute) else "")
    base = base or (finding.parameter if (finding.parameter or "").isidentifier() else "")
    attribute = fresh_attribute(source, "_" + (base or value_name(finding, value)))
    code = textwrap.dedent(indented_segment(source, value)).strip()
    if branch is not None:
        test = textwrap.dedent(indented_segment(source, branch.test)).strip()
        if isinstance(branch.test, (ast.IfExp, ast.Lambda, ast.NamedExpr)):
            test = f"({test})"
        code = f"{code} if {test} else None" if branch.taken else f"None if {test} else {code}"
    return Rewrite(
        replace={source.span(value): parse_expression(f"{me}.{attribute}")},
        insert_after={
            source.start(init.body[-1]): [parse_statement(f"{me}.{attribute} = {code}\n")]
        },
        unsafe=True,
    )


def _made_for(source: Source, node: ast.expr | None) -> ast.expr | None:
    """What makes the static argument: the one assignment of the name in its function, or of the
    attribute (``self.critic``) in its class; else the expression passed itself."""
    if isinstance(node, ast.Name):
        return made_by(source, node)
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return node
    cls = next((a for a in source.ancestors(node) if isinstance(a, ast.ClassDef)), None)
    stores = [
        n
        for n in ast.walk(cls)
        if cls is not None
        if isinstance(n, ast.Attribute) and n.attr == node.attr and not isinstance(n.ctx, ast.Load)
    ]
    holder = source.parent(stores[0]) if len(stores) == 1 else None
    if isinstance(holder, ast.Assign) and holder.targets == stores:
        return holder.value
    return None


@dataclass(frozen=True)
class _Branch:
    """A name bound in both branches of an ``if``: the call one branch makes it with, the value the
    other binds, the test, and whether the call is in the branch the test takes (``if`` rather than
    ``else``)."""

    call: ast.Call
    other: ast.expr
    test: ast.expr
    taken: bool


def _made_in_branch(source: Source, node: ast.expr | None) -> _Branch | None:
    """``name`` bound by exactly two assignments of its function, one in each branch of one ``if``
    (straight in the branch, not nested deeper): a call in one, an attribute or a plain name in the
    other; None otherwise."""
    if not isinstance(node, ast.Name):
        return None
    scope = next((a for a in source.ancestors(node) if isinstance(a, _METHODS)), None)
    if scope is None or node.id in {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}:
        return None
    stores = [
        n
        for n in ast.walk(scope)
        if isinstance(n, ast.Name) and n.id == node.id and not isinstance(n.ctx, ast.Load)
    ]
    holders = [source.parent(n) for n in stores]
    if len(stores) != 2 or not all(
        isinstance(h, ast.Assign) and h.targets == [n] for h, n in zip(holders, stores, strict=True)
    ):
        return None
    branch = source.parent(holders[0])
    if not isinstance(branch, ast.If) or source.parent(holders[1]) is not branch:
        return None
    first = next((h for h in branch.body if h in holders), None)
    second = next((h for h in branch.orelse if h in holders), None)
    if first is None or second is None:
        return None
    for made, other, taken in ((first, second, True), (second, first, False)):
        if isinstance(made.value, ast.Call) and isinstance(other.value, (ast.Attribute, ast.Name)):
            return _Branch(made.value, other.value, branch.test, taken)
    return None


def _changed_in(cls: ast.ClassDef, attribute: str) -> bool:
    """Whether the class stores into the object that ``attribute`` holds
    (``self.critic.opt = ...``, ``self.critic[k] = ...``)."""
    return any(
        _changed(inner, {attribute}) is not None and not _stores_itself(inner, attribute)
        for inner in ast.walk(cls)
    )


def _stores_itself(node: ast.AST, attribute: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attribute


def _attributes_read(cls: ast.ClassDef, value: ast.expr, me: str) -> set[str] | Refusal:
    """The attributes of ``me`` that making ``value`` reads, through the methods of the class it
    calls (each reading its own first parameter); why not, when it uses ``me`` itself otherwise."""
    read: set[str] = set()
    pending: list[tuple[ast.AST, str]] = [(value, me)]
    while pending:
        body, own = pending.pop()
        bare = {id(n) for n in ast.walk(body) if isinstance(n, ast.Name) and n.id == own}
        for inner in ast.walk(body):
            if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
                if inner.value.id != own:
                    continue
                bare.discard(id(inner.value))
                called = method_named(cls, inner.attr)
                if called is not None and inner.attr not in read and called.args.args:
                    pending.append((called, called.args.args[0].arg))
                read.add(inner.attr)
        if bare:
            return Refusal(f"making it uses {own} other than by its attributes")
    return read


def _not_made_by_init(
    cls: ast.ClassDef, init: ast.AST, method: ast.AST, me: str, reads: set[str]
) -> str | None:
    """Why the value made at the end of ``__init__`` may differ from the one the method makes: an
    attribute it reads that ``__init__`` does not assign, or that another method (re)assigns or
    changes in place; ``__init__`` returning early or calling the method."""
    methods = {s.name for s in cls.body if isinstance(s, _METHODS)}
    in_init = {
        n.attr
        for n in ast.walk(init)
        if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)
    }
    class_level = {
        t.id
        for s in cls.body
        if isinstance(s, (ast.Assign, ast.AnnAssign))
        for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
        if isinstance(t, ast.Name)
    }
    missing = sorted(reads - in_init - methods - class_level)
    if missing:
        return f"{me}.{missing[0]} is not assigned in __init__"
    if any(isinstance(n, ast.Return) for n in ast.walk(init)):
        return "__init__ returns early"
    if any(isinstance(n, ast.Attribute) and n.attr == method.name for n in ast.walk(init)):  # type: ignore[attr-defined]
        return f"__init__ calls {method.name}, which would read the value before it is made"
    for stmt in cls.body:
        if stmt is init:
            continue
        for inner in ast.walk(stmt):
            changed = _changed(inner, reads)
            if changed is not None:
                return f"{me}.{changed} is changed outside __init__: the value made once would not follow"
    return None


def _changed(node: ast.AST, reads: set[str]) -> str | None:
    """The attribute of ``reads`` that ``node`` assigns, or stores into (``x.a[k] = v``, ``x.a.b =
    v``); ``<setattr>`` for a ``setattr`` call."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
        return "<setattr>"
    if not isinstance(node, (ast.Attribute, ast.Subscript)) or isinstance(node.ctx, ast.Load):
        return None
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr in reads:
            return node.attr
        node = node.value
    return None
