"""RTL204: a lambda or ``partial`` made at every call (or iteration) and passed as a static argument,
closing over values of that call, is made once at module level, and the values it closes over become
arguments of the jitted function instead: the static parameter is then the same object every call, and
the jitted function binds the values to it (``fn = partial(fn, scale=scale)``) as its first statement.

``g(x, fn=lambda v: v * scale)`` becomes ``g(x, fn=fn_once, scale=scale)`` with ``def fn_once(v, *,
scale)`` at module level; ``g(u, partial(h, k=k))`` becomes ``g(u, h, k=k)``. A value goes in traced or
static by the test RTL301's fix uses (``closure_args``): static where the callable needs it concrete.

The jitted function may be in this file or in the module this one imports it from by name (``from
kernels import run_filter``): then the fix edits both files, the call and the module-level callable here,
the jitted def there, or neither. It must be decorated once and called nowhere else in either file; a
caller in a third module would now miss the new parameters, which only a user can check, so the fix is
unsafe.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
    has_binding,
    module_bindings,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.closure_args import FOLLOW_DEPTH, unhashable_static, why_static
from retracelint.fixes.rebuilt_jit import not_module_stable
from retracelint.fixes.static_self import assigned_attributes
from retracelint.model import Finding
from retracelint.summarise.syntax import free_names

if TYPE_CHECKING:
    import libcst as cst

_PARTIALS = frozenset({"partial", "functools.partial"})
_JITS = frozenset({"jax.jit", "jit"})


def pass_values(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    site = finding.jit_site
    if node is None or site is None or not finding.parameter:
        return Refusal("no static argument at the finding's position")
    call = source.parent(node)
    if isinstance(call, ast.keyword):
        call = source.parent(call)
    if not isinstance(call, ast.Call) or dotted(call.func) != site.name:
        return Refusal("the static argument is not passed straight to the jitted function")
    home = _jitting_module(source, finding)
    if isinstance(home, Refusal):
        return home
    jitted = _jitted_def(home, site.name, site.location.path, calls=1 if home is source else 0)
    if isinstance(jitted, Refusal):
        return jitted
    made, assign = _made_here(source, node, call)
    if isinstance(made, Refusal):
        return made
    callable_ = _closed_callable(source, made, loc.path)
    if isinstance(callable_, Refusal):
        return callable_
    values = callable_.values
    taken = {a.arg for a in ast.walk(jitted.args) if isinstance(a, ast.arg)}
    if finding.parameter not in taken:
        return Refusal(f"{finding.parameter} is not a parameter of {site.name}")
    if "partial" in home.module_names and not has_binding(home, "partial", "functools.partial"):
        return Refusal("partial is bound to something other than functools.partial here")
    # a new parameter must not hide a name the jitted function reads
    taken |= {n.id for n in ast.walk(jitted) if isinstance(n, ast.Name)}
    taken |= {k.arg for k in call.keywords if k.arg}
    clash = sorted(set(values) & taken)
    if clash:
        return Refusal(f"{site.name} already has or reads {', '.join(clash)}")
    statics = []
    for name, (uses, _) in values.items():
        why = why_static(callable_.where, callable_.body, uses, FOLLOW_DEPTH)
        if isinstance(why, Refusal):
            return why
        if why is not None:
            hashable = unhashable_static(callable_.where, name, uses, f"the callable {why}")
            if hashable is not None:
                return hashable
            changing = _changing(source, call, values[name][1])
            if changing is not None:
                # static, another value is another trace: the fix would leave the re-trace
                return Refusal(f"{name} must stay static (the callable {why}), and {changing}")
            statics.append(name)
    decorator = _with_statics(home, jitted, statics)
    if isinstance(decorator, Refusal):
        return decorator
    edit = _Edit(finding.parameter, call, made, assign, callable_)
    return _rewrite(source, edit, _Jitted(site.location.path, home, jitted, decorator))


def _changing(source: Source, call: ast.Call, passed: str) -> str | None:
    """Why the value passed to the call as ``passed`` (its text) may differ from one call to the
    next: it is the target of a loop around the call, or an attribute of ``self`` that a method of
    the class other than ``__init__`` assigns."""
    value = ast.parse(passed, mode="eval").body
    ancestors = list(source.ancestors(call))
    if isinstance(value, ast.Name):
        loops = (ast.For, ast.AsyncFor)
        if any(isinstance(a, loops) and value.id in bound_names([a.target]) for a in ancestors):
            return f"{passed} is what a loop around the call iterates over"
        return None
    if not (isinstance(value, ast.Attribute) and dotted(value.value) == "self"):
        return None
    cls = next((a for a in ancestors if isinstance(a, ast.ClassDef)), None)
    for method in cls.body if cls is not None else ():
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        me = method.args.args[0].arg
        if method.name != "__init__" and any(
            value.attr in assigned_attributes(n, me) for n in ast.walk(method)
        ):
            return f"{cls.name}.{method.name} assigns {passed}"  # type: ignore[union-attr]
    return None


def _jitting_module(source: Source, finding: Finding) -> Source | Refusal:
    """The file whose def is jitted: this one, or the one this file imports the function from by its
    own name, where it is used only by the call (the fix passes the new arguments there alone)."""
    site = finding.jit_site
    assert site is not None
    if site.location.path == finding.location.path:
        return source
    imported = [
        stmt
        for stmt in source.tree.body
        if isinstance(stmt, ast.ImportFrom)
        and any(a.name == site.name and a.asname is None for a in stmt.names)
    ]
    if len(imported) != 1:
        return Refusal(f"{site.name} is not imported by its own name at the top of this file")
    used = used_elsewhere(source, site.name, calls=1)
    if used is not None:
        return used
    home = source.neighbour(site.location.path)
    if home is None:
        return Refusal(
            f"{site.location.path}, where {site.name} is jitted, cannot be read or parsed"
        )
    return home


def used_elsewhere(
    source: Source, name: str, calls: int, where: str = "the file"
) -> Refusal | None:
    """Why the fix cannot go on when the file reads ``name`` other than ``calls`` times (the one call
    the fix passes the new arguments to, or none in a module that only jits it)."""
    uses = sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(source.tree))
    if uses == calls:
        return None
    return Refusal(f"{name} is used elsewhere in {where}, where the new arguments are not passed")


def _jitted_def(source: Source, name: str, path: str, calls: int) -> ast.FunctionDef | Refusal:
    """The module-level def jitted by its one decorator in ``source`` (``path``), referred to only by
    ``calls`` calls of it there."""
    stmts = module_bindings(source.tree).get(name, [])
    fdef = stmts[0] if len(stmts) == 1 else None
    if not isinstance(fdef, ast.FunctionDef) or len(fdef.decorator_list) != 1:
        return Refusal(f"{name} is not one def here jitted by its one decorator")
    used = used_elsewhere(source, name, calls, "the file" if calls else path)
    if used is not None:
        return used
    if fdef.args.vararg or fdef.args.kwarg:
        return Refusal(f"{name} takes *args or **kwargs")
    return fdef


def _made_here(
    source: Source, node: ast.expr, call: ast.Call
) -> tuple[ast.expr | Refusal, ast.stmt | None]:
    """The callable passed: the argument itself, or the value of an assignment earlier in a block that
    holds the call (``update = partial(...)``, ``target = tempered(...)`` above a loop), when the name
    is used by this call only and what making it reads is the same at the call (no name it reads is
    bound, no attribute it reads assigned, and it calls nothing but the callable's maker)."""
    if not isinstance(node, ast.Name):
        return node, None
    found = _assignment_above(source, node.id, call)
    if found is None:
        return Refusal(f"{node.id} is not made in a block that holds the call"), None
    assign, between = found
    scope = next((a for a in source.ancestors(call) if isinstance(a, ast.FunctionDef)), None)
    uses = [
        n for n in ast.walk(scope or source.tree) if isinstance(n, ast.Name) and n.id == node.id
    ]
    if len(uses) != 2:
        return Refusal(f"{node.id} is used other than by this call"), None
    if between and _changes_between(assign.value, between):
        return Refusal(f"what {node.id} is made from may change before the call"), None
    return assign.value, assign


def _assignment_above(
    source: Source, name: str, call: ast.Call
) -> tuple[ast.Assign, list[ast.stmt]] | None:
    """The nearest ``name = ...`` before a statement holding ``call``, in that statement's block; and
    the statements from after it to the one holding the call, that one included (none when it is just
    before the call's own statement: nothing runs between)."""
    for depth, stmt in enumerate(a for a in source.ancestors(call) if isinstance(a, ast.stmt)):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return None  # the function's own blocks only: a name bound outside it is not a local
        body = getattr(source.parent(stmt), "body", [])
        if not any(s is stmt for s in body):
            continue  # an else or a handler: not the block searched
        index = next(i for i, s in enumerate(body) if s is stmt)
        for back in range(index - 1, -1, -1):
            before = body[back]
            if (
                isinstance(before, ast.Assign)
                and len(before.targets) == 1
                and isinstance(before.targets[0], ast.Name)
                and before.targets[0].id == name
            ):
                just_before = depth == 0 and back == index - 1
                return before, [] if just_before else body[back + 1 : index + 1]
    return None


def _changes_between(made: ast.expr, between: list[ast.stmt]) -> bool:
    """Whether ``made``, evaluated after ``between`` instead of before, might give another value: it
    reads a name they bind or an attribute they assign, or calls more than its maker. A lambda reads
    its names when called, in the jitted function: where it is made does not matter."""
    if isinstance(made, ast.Lambda):
        return False
    read = list(ast.walk(made))
    reads = {n.id for n in read if isinstance(n, ast.Name)}
    attributes = {dotted(n) for n in read if isinstance(n, ast.Attribute)}
    if any(isinstance(n, ast.Call) and n is not made for n in read) or any(
        isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield)) for n in read
    ):
        return True
    assigned = {
        dotted(n)
        for stmt in between
        for n in ast.walk(stmt)
        if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)
    }
    return bool(reads & bound_names(between)) or bool(attributes & assigned)


Values = dict[
    str, tuple[list[ast.expr], str]
]  # parameter: its uses in the callable, what is passed


@dataclass(frozen=True)
class _Callable:
    """What is passed once (the text of the module-level callable; empty for a lambda, made a def),
    the values it closes over, the function whose body reads them and the file that holds it, and
    whether the jitted function calls what is passed with the values (a factory) or binds them to
    it (``partial``)."""

    once: str
    values: Values
    body: ast.AST
    where: Source
    factory: bool = False


def _closed_callable(source: Source, made: ast.expr, path: str) -> _Callable | Refusal:
    """What replaces the callable made at every call; ``path``: this file's."""
    if isinstance(made, ast.Call) and dotted(made.func) in _PARTIALS:
        return _bound(source, made)
    if isinstance(made, ast.Call) and isinstance(made.func, ast.Name):
        return _factory_call(source, made, made.func.id, path)
    if not isinstance(made, ast.Lambda):
        return Refusal("the fresh value is not a lambda or a partial of a function defined here")
    owner = next((a for a in source.ancestors(made) if isinstance(a, ast.FunctionDef)), None)
    if owner is None:
        return Refusal("the lambda is not in a function")
    local = {a.arg for a in ast.walk(owner.args) if isinstance(a, ast.arg)}
    local |= {
        n.id for n in ast.walk(owner) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    names = free_names(made)
    closed = sorted(names & local)
    if "self" in closed:
        return Refusal("the lambda reads self, whose fields this fix does not pass one by one")
    top = next(a for a in reversed(list(source.ancestors(made))) if isinstance(a, ast.stmt))
    unstable = not_module_stable(source, names - local, top, [])
    if unstable or not closed:
        return Refusal(f"making it once needs {', '.join(sorted(unstable))} at module level")
    values = {
        name: (
            [n for n in ast.walk(made.body) if isinstance(n, ast.Name) and n.id == name],
            name,
        )
        for name in closed
    }
    return _Callable("", values, made, source)


def _bound(source: Source, made: ast.Call) -> _Callable | Refusal:
    name = dotted(made.args[0]) if len(made.args) == 1 else ""
    stmts = module_bindings(source.tree).get(name, [])
    fdef = stmts[0] if len(stmts) == 1 else None
    if not isinstance(fdef, ast.FunctionDef) or fdef.decorator_list:
        return Refusal("the partial binds positional arguments, or a function not defined here")
    params = {a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]}
    values: Values = {}
    for keyword in made.keywords:
        if keyword.arg is None or keyword.arg not in params:
            return Refusal(f"the partial passes **kwargs or a keyword {name} does not take")
        uses = [
            n
            for n in ast.walk(fdef)
            if isinstance(n, ast.Name) and n.id == keyword.arg and isinstance(n.ctx, ast.Load)
        ]
        values[keyword.arg] = (uses, source.code(keyword.value))
    return _Callable(name, values, fdef, source)


def _factory_call(source: Source, made: ast.Call, name: str, path: str) -> _Callable | Refusal:
    """``factory(a, b=c)``: a module-level def, here or imported by name from a module beside this
    one, that only defines functions and returns one of them. The factory itself is passed, the same
    object every call, and the jitted function calls it with the values when traced."""
    where = defining_module(source, name, path)
    stmts = module_bindings(where.tree).get(name, []) if where is not None else []
    fdef = stmts[0] if len(stmts) == 1 else None
    if not isinstance(fdef, ast.FunctionDef) or not _only_makes_a_function(fdef):
        return Refusal(
            f"the fresh value is made by {name}, which is not a def that only makes a function"
        )
    assert where is not None
    if fdef.decorator_list or fdef.args.vararg or fdef.args.kwarg or fdef.args.posonlyargs:
        return Refusal(f"{name} has decorators, *args, **kwargs or positional-only parameters")
    if any(isinstance(a, ast.Starred) for a in made.args) or any(
        k.arg is None for k in made.keywords
    ):
        return Refusal(f"{name} is called with *args or **kwargs")
    params = [a.arg for a in fdef.args.args]
    if len(made.args) > len(params):
        return Refusal(f"{name} is called with more arguments than it takes")
    passed = [*zip(params, made.args, strict=False), *((k.arg, k.value) for k in made.keywords)]
    values: Values = {}
    for param, value in passed:
        uses = [
            n
            for n in ast.walk(fdef)
            if isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Load)
        ]
        values[param] = (uses, source.code(value))  # type: ignore[index]
    return _Callable(name, values, fdef, where, factory=True)


def _only_makes_a_function(fdef: ast.FunctionDef) -> bool:
    """Its body (past a docstring) defines functions and returns one of them: calling it when traced
    does nothing else."""
    body = fdef.body[1:] if ast.get_docstring(fdef) is not None else fdef.body
    *defs, last = body or [ast.Pass()]
    names = {d.name for d in defs if isinstance(d, ast.FunctionDef) and not d.decorator_list}
    return (
        len(names) == len(defs)
        and isinstance(last, ast.Return)
        and isinstance(last.value, ast.Name)
        and last.value.id in names
    )


def defining_module(source: Source, name: str, path: str) -> Source | None:
    home = defining_path(source, name, path)
    if home is None:
        return None
    return source if home == path else source.neighbour(home)


def defining_path(source: Source, name: str, path: str) -> str | None:
    """The file whose top level defines ``name``: this one (``path``), or the module beside it that
    this one imports it from (``from stats import setup_objective``: ``stats.py`` in its folder)."""
    stmts = module_bindings(source.tree).get(name, [])
    imports = [s for s in stmts if isinstance(s, ast.ImportFrom)]
    if not imports:
        return path
    stmt = imports[0]
    if len(stmts) != 1 or not stmt.module or stmt.level != 0:
        return None
    if not any(a.name == name and a.asname is None for a in stmt.names):
        return None
    return str(Path(path).parent / f"{stmt.module.replace('.', '/')}.py")


def _with_statics(source: Source, fdef: ast.FunctionDef, statics: list[str]) -> str | Refusal:
    """The jitted def's decorator with ``statics`` added to its static parameters."""
    decorator = fdef.decorator_list[0]
    text = source.code(decorator)
    if not statics:
        return text
    if dotted(decorator) in _JITS:
        return f"partial({text}, static_argnames={_names(statics)})"
    if not (
        isinstance(decorator, ast.Call)
        and dotted(decorator.func) in _PARTIALS
        and [dotted(a) for a in decorator.args] in (["jax.jit"], ["jit"])
    ):
        return Refusal("the jitted def is not decorated by jax.jit or partial(jax.jit, ...)")
    keywords = []
    listed: list[str] = []
    for keyword in decorator.keywords:
        if keyword.arg != "static_argnames":
            keywords.append(source.code(keyword))
            continue
        value = keyword.value
        items = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
        if not all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in items):
            return Refusal("the jitted def's static_argnames is not a literal")
        listed = [i.value for i in items]  # type: ignore[attr-defined]
    keywords.append(f"static_argnames={_names([*listed, *statics])}")
    return f"{source.code(decorator.func)}({source.code(decorator.args[0])}, {', '.join(keywords)})"


def _names(names: list[str]) -> str:
    return "(" + ", ".join(f'"{n}"' for n in names) + ("," if len(names) == 1 else "") + ")"


@dataclass(frozen=True)
class _Edit:
    """What changes where the callable is made: the static parameter, the call, the callable and the
    statement naming it (if any), the module-level callable passed instead (empty for a lambda, made
    a def here), and the values it closes over."""

    param: str
    call: ast.Call
    made: ast.expr
    assign: ast.stmt | None
    passed: _Callable


@dataclass(frozen=True)
class _Jitted:
    """The jitted def, the file that holds it (``Location``'s path, and as read) and its new
    decorator."""

    path: str
    home: Source
    fdef: ast.FunctionDef
    decorator: str


def _rewrite(source: Source, edit: _Edit, jitted: _Jitted) -> Rewrite | Refusal:
    inserted: list[cst.BaseStatement] = []
    once, values = edit.passed.once, edit.passed.values
    if not once:  # a lambda: a def at module level, its values keyword-only parameters
        lam: ast.Lambda = edit.made  # type: ignore[assignment]
        if lam.args.vararg or lam.args.kwonlyargs or lam.args.kwarg or lam.args.defaults:
            # a default is evaluated where the lambda is made, which module level cannot do
            return Refusal("the lambda takes *args, keyword-only parameters or defaults")
        once = source.fresh_name(f"{edit.param}_once")
        params = ast.unparse(lam.args)
        kwonly = ", ".join(values)
        signature = f"{params}, *, {kwonly}" if params else f"*, {kwonly}"
        body = textwrap.dedent(source.code(lam.body))
        inserted.append(parse_statement(f"def {once}({signature}):\n    return {body}\n"))
    passed = ", ".join(f"{k}={v}" for k, (_, v) in values.items())
    call = edit.call
    carrier = _arg(call, edit.made, edit.assign)
    args = [once if a is carrier else source.code(a) for a in call.args]
    keywords = [f"{k.arg}={once}" if k.value is carrier else source.code(k) for k in call.keywords]
    new = f"{source.code(call.func)}({', '.join([*args, *keywords, passed])})"
    rewrite = Rewrite(replace={source.span(call): parse_expression(new)}, unsafe=True)
    if edit.assign is not None:
        rewrite.remove.add(source.start(edit.assign))
    home = jitted.home
    below = home is source and bool(inserted)  # two blank lines below the callable made once
    bound = _bound_first(home, jitted.fdef, edit.param, edit.passed, jitted.decorator, below)
    # The jitted def is rewritten where it is; the callable made once goes above it in its file, or
    # above the statement that holds the call in the caller's.
    needs_partial = not (edit.passed.factory or has_binding(home, "partial", "functools.partial"))
    at_def = Rewrite(
        insert_before={home.start(jitted.fdef): [bound]},
        remove={home.start(jitted.fdef)},
        imports=("from functools import partial",) if needs_partial else (),
        unsafe=True,
    )
    if home is source:
        rewrite.insert_before = {source.start(jitted.fdef): [*inserted, bound]}
        rewrite.remove.add(source.start(jitted.fdef))
        rewrite.imports = at_def.imports
        return rewrite
    if inserted:
        top = next(a for a in reversed(list(source.ancestors(call))) if isinstance(a, ast.stmt))
        rewrite.insert_before = {source.start(top): inserted}
    rewrite.elsewhere = {jitted.path: at_def}
    return rewrite


def _bound_first(
    source: Source,
    fdef: ast.FunctionDef,
    param: str,
    passed: _Callable,
    decorator: str,
    inserted: bool,
) -> cst.BaseStatement:
    """The jitted def with the values as keyword-only parameters, bound to ``param`` first (or, a
    factory passed, given to it)."""
    import libcst as cst

    text = "".join(source.text.splitlines(keepends=True)[fdef.lineno - 1 : fdef.end_lineno])
    node = cst.parse_statement(textwrap.dedent(text))
    params = node.params
    star = (
        params.star_arg
        if isinstance(params.star_arg, (cst.Param, cst.ParamStar))
        else cst.ParamStar()
    )
    added = [cst.Param(cst.Name(k)) for k in passed.values]
    binding = ", ".join(f"{k}={k}" for k in passed.values)
    body = list(node.body.body)
    at = 1 if ast.get_docstring(fdef) is not None else 0  # the docstring stays first
    made = f"{param}({binding})" if passed.factory else f"partial({param}, {binding})"
    first = parse_statement(f"{param} = {made}\n")
    return node.with_changes(
        decorators=[cst.Decorator(parse_expression(decorator))],
        params=params.with_changes(star_arg=star, kwonly_params=[*params.kwonly_params, *added]),
        body=node.body.with_changes(body=[*body[:at], first, *body[at:]]),
        leading_lines=[cst.EmptyLine(), cst.EmptyLine()] if inserted else [],
    )


def _arg(call: ast.Call, made: ast.expr, assign: ast.stmt | None) -> ast.expr:
    """The argument that carries the callable: the callable, or the name it was assigned to."""
    if assign is None:
        return made
    name = assign.targets[0].id  # type: ignore[attr-defined]
    return next(
        a
        for a in [*call.args, *(k.value for k in call.keywords)]
        if isinstance(a, ast.Name) and a.id == name
    )
