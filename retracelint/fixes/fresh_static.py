"""RTL204: a static argument made anew each iteration (or each call) is made once, above the loop or at
module level, when nothing it reads changes there (``where_once``, as RTL301's jit is built once).

A lambda or a ``partial`` of functions and stable values is the same function wherever it is made, so
moving it is safe. Of a default made in a conditional expression (``f if f is not None else lambda x:
...``) the branch that makes it is made once; the other passes on an object made elsewhere. Any other fresh object (``Config(2.0)``) becomes one object shared by every iteration:
the same as before unless something changes it, which only a user can check, so that fix is unsafe.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
    module_bindings,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.rebuilt_jit import (
    PURE_WRAPPERS,
    impure_call,
    indented_segment,
    made_in_factory,
    may_mutate,
    where_once,
)
from retracelint.fixes.static_closure import defining_path
from retracelint.model import Finding
from retracelint.summarise.syntax import free_names, own_nodes

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NAMED_TUPLES = (["NamedTuple"], ["typing.NamedTuple"])


def make_once(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    named = node.id if isinstance(node, ast.Name) else None
    if named is not None:  # passed by a name: the one assignment that makes it, in the same scope
        node = made_by(source, node)  # type: ignore[arg-type]
    node = _fresh_branch(node)
    if not isinstance(node, (ast.Lambda, ast.Call)):
        return Refusal("the fresh value is not a lambda, a partial or a constructor call here")
    if isinstance(node, ast.Call):
        inner = impure_call(node)
        if inner is not None:
            return Refusal(f"making it calls {inner}, which may give a different value each time")
    where = where_once(source, node, free_names(node))
    if isinstance(where, Refusal):
        return where
    if named is not None:
        scope = next((a for a in source.ancestors(node) if isinstance(a, _FUNCTIONS)), source.tree)
        pure = record_fields(source, node, loc.path) if isinstance(node, ast.Call) else frozenset()
        if may_mutate(source, scope, named, node, handed=False, pure=pure):
            return Refusal(
                f"{named} is changed after it is made: one shared object would carry that"
            )
    safe = isinstance(node, ast.Lambda) or dotted(node.func) in PURE_WRAPPERS  # type: ignore[attr-defined]
    if named is not None:
        base = named.upper() if where in source.tree.body else f"{named}_once"
    else:
        base = value_name(finding, node)
    name = source.fresh_name(base)
    code = textwrap.dedent(indented_segment(source, node)).strip()
    return Rewrite(
        replace={source.span(node): parse_expression(name)},
        insert_before={source.start(where): [parse_statement(f"{name} = {code}\n")]},
        unsafe=not safe or made_in_factory(source, where),
    )


def record_fields(source: Source, made: ast.Call, path: str) -> frozenset[str]:
    """The fields of the record ``made`` makes whose calls change nothing: those of a
    ``NamedTuple`` that a factory of the project returns at every ``return`` (an optax-style
    ``GradientTransformation(init, update)``), each field a def nested in the factory that declares
    nothing ``nonlocal`` or ``global`` and changes nothing it closes over. Empty otherwise."""
    called = dotted(made.func)
    found = _factory_def(source, called, path)
    if found is None:
        return frozenset()
    home, factory = found
    nested = {s.name: s for s in factory.body if isinstance(s, _FUNCTIONS)}
    returns = [n for n in own_nodes(factory.body) if isinstance(n, ast.Return)]
    fields: set[frozenset[str]] = set()
    for ret in returns:
        record = ret.value
        if not isinstance(record, ast.Call) or not isinstance(record.func, ast.Name):
            return frozenset()
        parts = [*record.args, *(k.value for k in record.keywords)]
        if not all(isinstance(a, ast.Name) and a.id in nested for a in parts):
            return frozenset()
        fields.add(_named_tuple_fields(home, record.func.id))
    if len(fields) != 1 or not all(_changes_nothing(home, factory, d) for d in nested.values()):
        return frozenset()
    return fields.pop()


def _factory_def(source: Source, called: str, path: str) -> tuple[Source, ast.FunctionDef] | None:
    """The module-level def ``called`` names, here, imported by name, or an attribute of a module
    beside this one (``optim.momentum`` after ``import optim``), with the file it is in."""
    module, _, name = called.rpartition(".")
    if module:
        # ``import optim``, the one binding of the name: the module of that name beside this one
        stmts = module_bindings(source.tree).get(module, [])
        plain = len(stmts) == 1 and isinstance(stmts[0], ast.Import)
        aliases = stmts[0].names if plain else []  # type: ignore[attr-defined]
        imported = any(a.name == module and a.asname is None for a in aliases)
        home = source.neighbour(str(Path(path).parent / f"{module}.py")) if imported else None
    else:
        where = defining_path(source, name, path)
        home = None if where is None else source if where == path else source.neighbour(where)
    if home is None:
        return None
    defs = [s for s in home.tree.body if isinstance(s, ast.FunctionDef) and s.name == name]
    return (home, defs[0]) if len(defs) == 1 else None


def _named_tuple_fields(home: Source, name: str) -> frozenset[str]:
    """The fields of the ``typing.NamedTuple`` class ``name`` of ``home`` (an immutable record);
    empty when it is not one."""
    classes = [s for s in home.tree.body if isinstance(s, ast.ClassDef) and s.name == name]
    if len(classes) != 1 or [dotted(b) for b in classes[0].bases] not in _NAMED_TUPLES:
        return frozenset()
    body = classes[0].body
    return frozenset(
        s.target.id for s in body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    )


def _changes_nothing(
    home: Source, factory: ast.FunctionDef, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> bool:
    """Whether calling ``function`` (a def nested in ``factory``) changes nothing it closes over:
    no ``nonlocal`` or ``global``, and no parameter or local of the factory it reads stored into or
    changed by a method call."""
    if any(isinstance(n, (ast.Nonlocal, ast.Global)) for n in ast.walk(function)):
        return False
    args = factory.args
    own = {
        a.arg
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        if a
    }
    closed = free_names(function) & (own | bound_names(factory.body))
    return not any(may_mutate(home, function, n, function.args, handed=False) for n in closed)


def _fresh_branch(node: ast.expr | None) -> ast.expr | None:
    """``given if given is not None else (lambda x: ...)``: the one branch that makes a value (a lambda
    or a call), which is then made once; the other branch (a name) is the same object every time."""
    if not isinstance(node, ast.IfExp):
        return node
    made = [b for b in (node.body, node.orelse) if not isinstance(b, (ast.Name, ast.Attribute))]
    return made[0] if len(made) == 1 else node


def value_name(finding: Finding, node: ast.expr) -> str:
    if isinstance(node, ast.Call) and dotted(node.func) not in PURE_WRAPPERS:
        return dotted(node.func).rsplit(".", 1)[-1].lower() or "value"
    return finding.parameter if finding.parameter and finding.parameter.isidentifier() else "fn"


def made_by(source: Source, name: ast.Name) -> ast.expr | None:
    """The value of the one assignment ``name = value`` of its function (or module), if that is the
    only statement binding the name there."""
    scope = next(
        (
            a
            for a in source.ancestors(name)
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
        ),
        source.tree,
    )
    body = scope.body
    if name.id not in bound_names(body) or name.id in {
        a.arg for a in ast.walk(getattr(scope, "args", ast.arguments())) if isinstance(a, ast.arg)
    }:
        return None
    assigns = [
        node
        for node in ast.walk(scope)
        if isinstance(node, ast.Name) and node.id == name.id and not isinstance(node.ctx, ast.Load)
    ]
    if len(assigns) != 1:
        return None
    holder = source.parent(assigns[0])
    if isinstance(holder, ast.Assign) and holder.targets == [assigns[0]]:
        return holder.value
    return None
