"""RTL204: a ``functools.partial`` or a closure made anew (per call, per object) and passed as a static
argument becomes a ``jax.tree_util.Partial``, and the parameter traced: a ``Partial`` is a pytree whose
treedef holds only the function and the names of its keywords, and whose leaves are the values bound,
so each new one of the same function meets the jitted function's cache.

``self.kernel = partial(kinetic, inverse_mass)`` (every place the attribute is set), a method whose
every ``return`` is such a partial (``self.drift()``), a name assigned one in the calling function, or
the partial written at the call: each of those partials becomes ``jax.tree_util.Partial``. A closure
factory (``make_potential(temps, rates)``, a module-level def whose every ``return`` gives the def
nested in it) has that def moved to module level with the values it closes over as its first
parameters, and returns ``jax.tree_util.Partial`` of it bound to them. The jitted def (here, or in the
module the jit site names, where nothing else calls it) drops the parameter from ``static_argnums`` /
``static_argnames``.

Inside the jitted function the bound values are then traced: the fix is made when the function bound
uses each of them where a traced value works (``closure_args``'s test), and the jitted function uses
the parameter only by calling it, handing it to a transform (``jax.grad(kinetic)``) or to a def of its
module that does the same. A bound value that is not an array or a number cannot be a leaf, and a
caller elsewhere may pass a plain function, which only a user can check: the fix is unsafe.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

from retracelint.fixes.base import (
    BUILTINS,
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
    has_binding,
    module_bindings,
    parse_expression,
    parse_statement,
    statement_of,
)
from retracelint.fixes.closure_args import FOLLOW_DEPTH, imported_name, why_static
from retracelint.fixes.static_closure import defining_module, defining_path, used_elsewhere
from retracelint.fixes.static_params import jitted
from retracelint.model import Finding
from retracelint.summarise.apis import _TRANSFORMS
from retracelint.summarise.syntax import free_names, own_nodes

_PARTIALS = frozenset({"partial", "functools.partial"})
# What it becomes: the API table's pytree partial (``apis._PYTREE_PARTIALS``), no fresh static.
_PYTREE_PARTIAL = "jax.tree_util.Partial"
# How many names, attributes or methods are followed from the argument to the partials that make it.
_HOPS = 3


def partial_as_pytree(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The rewrite; None when the static argument is not made by ``functools.partial`` calls or
    closure factories this fix can find (another fix's shape)."""
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    path = loc.path
    made = _makers(source, node, path, _HOPS) if node is not None else None
    if not made or finding.jit_site is None:
        return None
    edits: dict[str, Rewrite] = {}
    for call in made:
        if dotted(call.func) in _PARTIALS:
            bound = _bound_traceable(source, call, path)
            if bound is not None:
                return Refusal(f"the partial cannot be a pytree: {bound}")
            edit = Rewrite(replace={source.span(call.func): parse_expression(_PYTREE_PARTIAL)})
            _merge(edits, path, edit, _jax_import(source))
            continue
        lifted = _lift_factory(source, call, path)
        if isinstance(lifted, Refusal):
            return lifted
        _merge(edits, *lifted)
    at_def = _traced_at_def(source, finding)
    if isinstance(at_def, Refusal):
        return at_def
    _merge(edits, finding.jit_site.location.path, at_def, ())
    refused = next((r for r in edits.values() if isinstance(r, Refusal)), None)
    if refused is not None:
        return refused
    own = edits.pop(path, Rewrite())
    for edit in edits.values():
        edit.unsafe = True
    return Rewrite(
        replace=own.replace,
        insert_before=own.insert_before,
        remove=own.remove,
        imports=own.imports,
        unsafe=True,
        elsewhere=edits,
    )


def _traced_at_def(source: Source, finding: Finding) -> Rewrite | Refusal:
    """The jitted def without the parameter among its statics, when it only calls the callable and
    nothing else in this file or its own passes it one (a plain function cannot be traced)."""
    site = finding.jit_site
    assert site is not None
    home = source.jit_home(finding)
    if home is None:
        return Refusal(f"{site.location.path}, where {site.name} is jitted, cannot be read")
    for where in {id(home): home, id(source): source}.values():
        if used_elsewhere(where, site.name, calls=1) and used_elsewhere(where, site.name, 0):
            return Refusal(f"{site.name} is called elsewhere, maybe with a plain function")
    found = jitted(home, finding)
    if isinstance(found, Refusal):
        return found
    other = _used_other_than_called(home, found.fdef, found.name)
    if other is not None:
        return Refusal(f"{found.name} must stay static: {other}")
    dropped = found.without(home)
    return dropped if isinstance(dropped, Refusal) else Rewrite(replace=dropped)


def _merge(
    edits: dict[str, Rewrite], path: str, edit: Rewrite, imports: tuple[str, ...] | Refusal
) -> None:
    """``edit`` (with the imports it needs) added to what the fix makes of the file at ``path``."""
    if isinstance(imports, Refusal):
        edits[path] = imports  # type: ignore[assignment]
        return
    mine = edits.setdefault(path, Rewrite())
    if isinstance(mine, Refusal):
        return
    mine.replace.update(edit.replace)
    for start, stmts in edit.insert_before.items():
        mine.insert_before.setdefault(start, []).extend(stmts)
    mine.remove |= edit.remove
    mine.imports = tuple(dict.fromkeys((*mine.imports, *edit.imports, *imports)))


def _makers(source: Source, node: ast.expr, path: str, hops: int) -> list[ast.Call] | None:
    """The ``functools.partial`` calls, or calls of closure factories, that make the value of
    ``node``, each of every way it is made; None when one way is something else, or is not found."""
    if isinstance(node, ast.Call) and (
        dotted(node.func) in _PARTIALS or _factory(source, node, path) is not None
    ):
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
        made = _makers(source, value, path, hops - 1)
        if made is None:
            return None
        found += [m for m in made if m not in found]
    return found or None


@dataclass(frozen=True)
class _Factory:
    """A module-level def that makes a function: the def nested in it that every return gives."""

    path: str
    where: Source
    fdef: ast.FunctionDef
    inner: ast.FunctionDef


def _factory(source: Source, call: ast.Call, path: str) -> _Factory | None:
    if not isinstance(call.func, ast.Name):
        return None
    home = defining_path(source, call.func.id, path)
    where = (source if home == path else source.neighbour(home)) if home else None
    fdef = next(
        (
            s
            for s in (where.tree.body if where is not None else [])
            if isinstance(s, ast.FunctionDef) and s.name == call.func.id
        ),
        None,
    )
    if home is None or where is None or fdef is None:
        return None
    inner = [s for s in fdef.body if isinstance(s, ast.FunctionDef)]
    returns = [n for n in own_nodes(fdef.body) if isinstance(n, ast.Return)]
    if len(inner) != 1 or not returns:
        return None
    if not all(isinstance(r.value, ast.Name) and r.value.id == inner[0].name for r in returns):
        return None
    return _Factory(home, where, fdef, inner[0])


def _lift_factory(
    source: Source, call: ast.Call, path: str
) -> tuple[str, Rewrite, tuple[str, ...] | Refusal] | Refusal:
    """The factory's nested def moved to module level with the values it closes over as its first
    parameters, and each return giving ``jax.tree_util.Partial`` of it bound to them: one function
    for every call, the values leaves."""
    made = _factory(source, call, path)
    assert made is not None
    where, fdef, inner = made.where, made.fdef, made.inner
    name = fdef.name
    if inner.decorator_list or any(
        isinstance(n, (ast.Nonlocal, ast.Global)) for n in ast.walk(inner)
    ):
        return Refusal(f"{name}'s function has decorators or nonlocal names")
    index = fdef.body.index(inner)
    local = {a.arg for a in ast.walk(fdef.args) if isinstance(a, ast.arg)}
    local |= bound_names(fdef.body[:index])
    later = bound_names(fdef.body[index + 1 :])
    free = free_names(inner)
    # the values first in the order the factory binds them: its parameters, then its own names
    order = [a.arg for a in ast.walk(fdef.args) if isinstance(a, ast.arg)]
    order += [n.id for n in ast.walk(fdef) if isinstance(n, ast.Name) and n.id in local]
    closed = sorted(free & local, key=order.index)
    module = module_bindings(where.tree)
    unknown = sorted(n for n in free - local if n not in module and n not in BUILTINS)
    if unknown or later & (free | {inner.name}) or not closed:
        return Refusal(
            f"{name}'s function reads {', '.join(unknown) or 'names bound after it'}, or nothing of"
            " the call"
        )
    uses = sum(isinstance(n, ast.Name) and n.id == inner.name for n in own_nodes(fdef.body))
    if uses != sum(isinstance(n, ast.Return) for n in own_nodes(fdef.body)):
        return Refusal(f"{name} uses its function other than by returning it")
    static = _needs_static(where, inner, closed)
    if static is not None:
        return Refusal(f"{name}'s function needs {static}")
    lifted = _lifted_name(where, fdef, inner.name)
    text = _lifted_text(where, inner, lifted, closed)
    if text is None:
        return Refusal(f"{name}'s function is not written so that it can move as it is")
    partial = parse_expression(f"{_PYTREE_PARTIAL}({lifted}, {', '.join(closed)})")
    rewrite = Rewrite(
        replace={
            where.span(r.value): partial
            for r in own_nodes(fdef.body)
            if isinstance(r, ast.Return) and r.value is not None
        },
        insert_before={where.start(fdef): [parse_statement(text)]},
        remove={where.start(inner)},
    )
    return made.path, rewrite, _jax_import(where)


def _lifted_name(where: Source, fdef: ast.FunctionDef, name: str) -> str:
    """The nested def's own name, when the module reads or binds it nowhere but in the factory."""
    inside = {id(n) for n in ast.walk(fdef)}
    elsewhere = any(
        isinstance(n, ast.Name) and n.id == name and id(n) not in inside
        for n in ast.walk(where.tree)
    )
    if elsewhere or name in module_bindings(where.tree):
        return where.fresh_name(f"_{name}")
    return name


def _lifted_text(where: Source, inner: ast.FunctionDef, name: str, closed: list[str]) -> str | None:
    """The nested def's text at module level, named ``name``, the closed-over values first."""
    lines = where.text.splitlines(keepends=True)[inner.lineno - 1 : inner.end_lineno]
    text = textwrap.dedent("".join(lines))
    head = re.match(rf"def\s+{re.escape(inner.name)}\s*\(", text)
    if head is None or text.count("\n") != (inner.end_lineno or 0) - inner.lineno + 1:
        return None
    params = ", ".join(closed) + (", " if _has_params(inner) else "")
    return f"def {name}({params}{text[head.end() :]}"


def _has_params(fn: ast.FunctionDef) -> bool:
    a = fn.args
    return bool(a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg)


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
    returns = [n for n in own_nodes(methods[0].body) if isinstance(n, ast.Return)]
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
    for node in own_nodes(fn.body):
        if isinstance(node, ast.Name) and node.id == name.id and not isinstance(node.ctx, ast.Load):
            stmt = statement_of(source, node)
            if not isinstance(stmt, ast.Assign) or stmt.targets != [node]:
                return []
            values.append(stmt.value)
    return values


def _bound_traceable(source: Source, call: ast.Call, path: str) -> str | None:
    """Why a value the partial binds cannot be traced where the function bound uses it; None when
    each can."""
    if not call.args or any(isinstance(a, ast.Starred) for a in call.args):
        return "it binds no function or unpacks arguments"
    func = call.args[0]
    if not isinstance(func, ast.Name) or any(k.arg is None for k in call.keywords):
        return "it binds something other than a function by its name, or **kwargs"
    where = defining_module(source, func.id, path)
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
    static = _needs_static(where, fdef, params)  # type: ignore[arg-type]
    return None if static is None else f"{func.id} needs {static}"


def _needs_static(source: Source, fn: ast.FunctionDef, names: list[str]) -> str | None:
    """``name static: why`` for the first of ``names`` that ``fn`` needs concrete (a bound value
    becomes a leaf: traced); None when each works traced."""
    for name in names:
        reads = [
            n
            for n in ast.walk(fn)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        ]
        why = why_static(source, fn, reads, FOLLOW_DEPTH)
        if why is not None:
            return f"{name} static: {why.reason if isinstance(why, Refusal) else why}"
    return None


def _used_other_than_called(
    source: Source,
    fdef: ast.FunctionDef | ast.AsyncFunctionDef,
    name: str,
    depth: int = FOLLOW_DEPTH,
) -> str | None:
    """How the jitted body uses the callable other than by calling it, transforming it or handing it
    to a def of the module that does the same (as a static argument elsewhere, compared, hashed): a
    traced ``Partial`` may not do there."""
    for node in ast.walk(fdef):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = source.parent(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            continue
        transformed = isinstance(parent, ast.Call) and parent.args[:1] == [node]
        if transformed and imported_name(source, dotted(parent.func)) in _TRANSFORMS:  # type: ignore[union-attr]
            continue
        handed = _handed_to(source, parent, node) if depth else None
        if handed is not None and _used_other_than_called(source, *handed, depth - 1) is None:
            continue
        return f"line {node.lineno} uses it other than by calling it"
    return None


def _handed_to(
    source: Source, call: ast.AST | None, node: ast.expr
) -> tuple[ast.FunctionDef, str] | None:
    """The module's plain def ``call`` hands ``node`` to, and the parameter that takes it."""
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        return None
    fdef = next(
        (
            s
            for s in module_bindings(source.tree).get(call.func.id, [])
            if isinstance(s, ast.FunctionDef) and not s.decorator_list
        ),
        None,
    )
    if fdef is None:
        return None
    params = [a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)]
    if node in call.args:
        position = call.args.index(node)
        return (fdef, params[position]) if position < len(params) else None
    keyword = next((k.arg for k in call.keywords if k.value is node), None)
    return (fdef, keyword) if keyword in params else None


def _jax_import(source: Source) -> tuple[str, ...] | Refusal:
    if has_binding(source, "jax", "jax"):
        return ()
    if "jax" in source.module_names:
        return Refusal("the module binds jax to something else")
    return ("import jax",)
