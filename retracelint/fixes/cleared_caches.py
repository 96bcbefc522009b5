"""RTL302: a ``jax.clear_caches()`` that runs again and again, between calls of a jitted function, run
once instead: moved after the outermost loop around it in its function; or, where no loop of its
function runs it (a function the step loop calls), taken out.

Unsafe: what the program computes is the same (a cleared cache is only traced and compiled again),
but the compiled code it meant to free stays until the clear after the loop, or the end of the
program; a user must check that memory allows. The clear must be a statement of its own (its value
unused) with another statement beside it in its block, so that the block keeps one.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import Refusal, Rewrite, Source, dotted, parse_statement
from retracelint.model import Finding

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def clear_once(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    call = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not isinstance(call, ast.Call) or not dotted(call.func).endswith("clear_caches"):
        return Refusal("the finding is not at a jax.clear_caches() call")
    statement = source.parent(call)
    if not isinstance(statement, ast.Expr):
        return Refusal("the value of jax.clear_caches() is used")
    block = _block(source, statement)
    if block is None or len(block) < 2:
        return Refusal("jax.clear_caches() is the only statement of its block")
    loops = []
    for ancestor in source.ancestors(statement):
        if isinstance(ancestor, _SCOPES):
            break
        if isinstance(ancestor, _LOOPS):
            loops.append(ancestor)
    rewrite = Rewrite(remove={source.start(statement)}, unsafe=True)
    if loops:  # once, after the outermost loop of its function that runs it
        moved = parse_statement(source.code(statement) + "\n")
        rewrite.insert_after[source.start(loops[-1])] = [moved]
    return rewrite


def _block(source: Source, statement: ast.stmt) -> list[ast.stmt] | None:
    """The statements of the block that holds ``statement``."""
    holder = source.parent(statement)
    for name in ("body", "orelse", "finalbody"):
        stmts = getattr(holder, name, None)
        if isinstance(stmts, list) and statement in stmts:
            return stmts
    handlers = getattr(holder, "handlers", [])
    return next((h.body for h in handlers if statement in h.body), None)
