"""RTL204: a ``functools.partial`` made anew (per call, per object) and passed as a static argument becomes
a ``jax.tree_util.Partial``, and the parameter traced: a ``Partial`` is a pytree whose treedef holds
only the function and the names of its keywords, and whose leaves are the values bound, so each new one
of the same function meets the jitted function's cache.

``self.kernel = partial(kinetic, inverse_mass)`` (every place the attribute is set), a method whose
every ``return`` is such a partial (``self.drift()``), a name assigned one in the calling function, or
the partial written at the call: each of those partials becomes ``jax.tree_util.Partial``, and the
jitted def (here, or in the module this file imports it from by name, used only by the call) drops the
parameter from ``static_argnums`` / ``static_argnames``.

Inside the jitted function the bound values are then traced: the fix is made when the function bound
uses each of them where a traced value works (``closure_args``'s test), and the jitted function uses
the parameter only by calling it or handing it to a transform (``jax.grad(kinetic)``). A bound value
that is not an array or a number cannot be a leaf, which only a user can check: the fix is unsafe.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    has_binding,
    parse_expression,
    statement_of,
)
from retracelint.fixes.closure_args import _DEPTH, _imported, _why_static
from retracelint.fixes.static_closure import _defining_module, _jitting_module, _used_elsewhere
from retracelint.fixes.static_params import jitted
from retracelint.model import Finding
from retracelint.summarise.apis import _TRANSFORMS

_PARTIALS = frozenset({"partial", "functools.partial"})
# What it becomes: the API table's pytree partial (``apis._PYTREE_PARTIALS``), no fresh static.
_PYTREE_PARTIAL = "jax.tree_util.Partial"
# How many names, attributes or methods are followed from the argument to the partials that make it.
_HOPS = 3


def partial_as_pytree(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The rewrite; None when the static argument is not made by ``functools.partial`` calls this
    fix can find (another fix's shape)."""
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    made = _partials(source, node, _HOPS) if node is not None else None
    if not made or finding.jit_site is None:
        return None
    for call in made:
        bound = _bound_traceable(source, call, finding.location.path)
        if bound is not None:
            return Refusal(f"the partial cannot be a pytree: {bound}")
    home = _jitting_module(source, finding)
    if isinstance(home, Refusal):
        return home
    if home is source and _used_elsewhere(source, finding.jit_site.name, calls=1) is not None:
        return Refusal(f"{finding.jit_site.name} is called elsewhere, maybe with a plain function")
    found = jitted(home, finding)
    if isinstance(found, Refusal):
        return found
    other = _used_other_than_called(home, found.fdef, found.name)
    if other is not None:
        return Refusal(f"{found.name} must stay static: {other}")
    dropped = found.without(home)
    if isinstance(dropped, Refusal):
        return dropped
    imports = _jax_import(source)
    if isinstance(imports, Refusal):
        return imports
    replace = {source.span(call.func): parse_expression(_PYTREE_PARTIAL) for call in made}
    if finding.jit_site.location.path == finding.location.path:
        return Rewrite(replace={**replace, **dropped}, imports=imports, unsafe=True)
    at_def = Rewrite(replace=dropped, unsafe=True)
    path = finding.jit_site.location.path
    return Rewrite(replace=replace, imports=imports, unsafe=True, elsewhere={path: at_def})


def _partials(source: Source, node: ast.expr, hops: int) -> list[ast.Call] | None:
    """The ``functools.partial`` calls that make the value of ``node``, each of every way it is
    made; None when one way is something else, or is not found."""
    if isinstance(node, ast.Call) and dotted(node.func) in _PARTIALS:
        return [node]
    if hops == 0:
        return None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        values = _attribute_values(source, node.attr)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and not node.args
        and not node.keywords
    ):
        values = _method_returns(source, node.func.attr)
    elif isinstance(node, ast.Name):
        values = _local_values(source, node)
    else:
        return None
    found: list[ast.Call] = []
    for value in values or []:
        made = _partials(source, value, hops - 1)
        if made is None:
            return None
        found += [m for m in made if m not in found]
    return found or None


def _attribute_values(source: Source, attr: str) -> list[ast.expr]:
    """What ``<name>.attr = value`` assigns anywhere in the file: an attribute set only so."""
    values: list[ast.expr] = []
    for stmt in ast.walk(source.tree):
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, (ast.AnnAssign, ast.AugAssign))
            else []
        )
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr == attr:
                if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or stmt.value is None:
                    return []
                if not isinstance(target.value, ast.Name):
                    return []
                values.append(stmt.value)
    return values


def _method_returns(source: Source, name: str) -> list[ast.expr]:
    """What every ``return`` of the file's one method ``name`` gives (none: a bare return)."""
    methods = [
        item
        for cls in ast.walk(source.tree)
        if isinstance(cls, ast.ClassDef)
        for item in cls.body
        if isinstance(item, ast.FunctionDef) and item.name == name
    ]
    if len(methods) != 1:
        return []
    returns = [n for n in _own_nodes(methods[0]) if isinstance(n, ast.Return)]
    if any(r.value is None for r in returns):
        return []
    return [r.value for r in returns if r.value is not None]


def _local_values(source: Source, name: ast.Name) -> list[ast.expr]:
    """What the function holding ``name`` assigns to it, by plain assignments only."""
    fn = next(
        (
            a
            for a in source.ancestors(name)
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
        ),
        None,
    )
    if fn is None or name.id in {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}:
        return []
    values = []
    for node in _own_nodes(fn):
        if isinstance(node, ast.Name) and node.id == name.id and not isinstance(node.ctx, ast.Load):
            stmt = statement_of(source, node)
            if not isinstance(stmt, ast.Assign) or stmt.targets != [node]:
                return []
            values.append(stmt.value)
    return values


def _own_nodes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of ``fn``'s body, those of functions and classes nested in it excluded."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        out.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return out


def _bound_traceable(source: Source, call: ast.Call, path: str) -> str | None:
    """Why a value the partial binds cannot be traced where the function bound uses it; None when
    each can."""
    if not call.args or any(isinstance(a, ast.Starred) for a in call.args):
        return "it binds no function or unpacks arguments"
    func = call.args[0]
    if not isinstance(func, ast.Name) or any(k.arg is None for k in call.keywords):
        return "it binds something other than a function by its name, or **kwargs"
    where = _defining_module(source, func.id, path)
    fdef = next(
        (
            s
            for s in (where.tree.body if where is not None else [])
            if isinstance(s, ast.FunctionDef) and s.name == func.id
        ),
        None,
    )
    if where is None or fdef is None or fdef.decorator_list or fdef.args.kwarg:
        return f"{func.id} is not a plain def of this module or one it imports it from"
    positional = [*fdef.args.posonlyargs, *fdef.args.args]
    if len(call.args) - 1 > len(positional):
        return f"it binds more arguments than {func.id} takes"
    params = [a.arg for a in positional[: len(call.args) - 1]] + [k.arg for k in call.keywords]  # type: ignore[misc]
    for param in params:
        reads = [
            n
            for n in ast.walk(fdef)
            if isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Load)
        ]
        why = _why_static(where, fdef, reads, _DEPTH)
        if why is not None:
            return (
                f"{func.id} needs {param} static: {why.reason if isinstance(why, Refusal) else why}"
            )
    return None


def _used_other_than_called(
    source: Source, fdef: ast.FunctionDef | ast.AsyncFunctionDef, name: str
) -> str | None:
    """How the jitted body uses the callable other than by calling it or transforming it (as a
    static argument elsewhere, compared, hashed): a traced ``Partial`` may not do there."""
    for node in ast.walk(fdef):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = source.parent(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            continue
        if (
            isinstance(parent, ast.Call)
            and parent.args[:1] == [node]
            and _imported(source, dotted(parent.func)) in _TRANSFORMS
        ):
            continue
        return f"line {node.lineno} uses it other than by calling it"
    return None


def _jax_import(source: Source) -> tuple[str, ...] | Refusal:
    if has_binding(source, "jax", "jax"):
        return ()
    if "jax" in source.module_names:
        return Refusal("the module binds jax to something else")
    return ("import jax",)
