"""RTL204: a static argument made anew each iteration (or each call) is made once, above the loop or at
module level, when nothing it reads changes there (``where_once``, as RTL301's jit is built once).

A lambda or a ``partial`` of functions and stable values is the same function wherever it is made, so
moving it is safe. Any other fresh object (``Config(2.0)``) becomes one object shared by every iteration:
the same as before unless something changes it, which only a user can check, so that fix is unsafe.
"""

from __future__ import annotations

import ast
import textwrap

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    free_names,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.rebuilt_jit import PURE_WRAPPERS, impure_call, indented_segment, where_once
from retracelint.model import Finding


def make_once(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not isinstance(node, (ast.Lambda, ast.Call)):
        return Refusal("the fresh value is not a lambda, a partial or a constructor call")
    if isinstance(node, ast.Call):
        inner = impure_call(node)
        if inner is not None:
            return Refusal(f"making it calls {inner}, which may give a different value each time")
    where = where_once(source, node, free_names(node))
    if isinstance(where, Refusal):
        return where
    safe = isinstance(node, ast.Lambda) or dotted(node.func) in PURE_WRAPPERS  # type: ignore[attr-defined]
    name = source.fresh_name(_name_for(finding, node))
    code = textwrap.dedent(indented_segment(source, node)).strip()
    return Rewrite(
        replace={source.span(node): parse_expression(name)},
        insert_before={source.start(where): [parse_statement(f"{name} = {code}\n")]},
        unsafe=not safe,
    )


def _name_for(finding: Finding, node: ast.expr) -> str:
    if isinstance(node, ast.Call) and dotted(node.func) not in PURE_WRAPPERS:
        return dotted(node.func).rsplit(".", 1)[-1].lower() or "value"
    return finding.parameter if finding.parameter and finding.parameter.isidentifier() else "fn"
