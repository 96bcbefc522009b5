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

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
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
from retracelint.model import Finding
from retracelint.summarise.syntax import free_names

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


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
        if may_mutate(source, scope, named, node, handed=False):
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
