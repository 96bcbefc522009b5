"""RTL405: a jitted function called both inside a context that sets part of jit's cache key
(``with jax.default_matmul_precision("highest"):``, ``with jax.enable_x64():``) and outside it traces
once per setting. The fix sets that option once for the program where the context is written, after
the module's imports (``jax.config.update("jax_default_matmul_precision", "highest")``), so that every
call runs under the one setting; the ``with`` stays, now setting what is already set.

Every computation of the program, not only the calls inside the context, then runs under the setting
(64-bit types, a slower matmul), so the fix is unsafe. A context whose setting is not a literal, one
that is not a config option (a mesh), and a module that sets the option already are left alone.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import Refusal, Rewrite, Source, dotted, has_binding, parse_statement
from retracelint.jitspec import TRACE_CONTEXTS
from retracelint.model import Finding


def set_for_program(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not (isinstance(node, ast.Call) and dotted(node.func) in TRACE_CONTEXTS):
        return Refusal("the finding is not at a jax context manager's call")
    spec = TRACE_CONTEXTS[dotted(node.func)]
    if not spec.config.startswith("jax_"):
        return Refusal(f"{dotted(node.func)} sets no config option jax.config.update can set")
    setting = _setting(source, node, spec.bare)
    if isinstance(setting, Refusal):
        return setting
    if not has_binding(source, "jax", "jax"):
        return Refusal("jax is not imported as jax here")
    if _sets_already(source.tree, spec.config):
        return Refusal(f"the module sets {spec.config} already")
    after = _after_imports(source.tree)
    if after is None:
        return Refusal("no statement follows the module's imports")
    line = f'jax.config.update("{spec.config}", {setting})'
    return Rewrite(insert_before={source.start(after): [parse_statement(line)]}, unsafe=True)


def _setting(source: Source, node: ast.Call, bare: str | None) -> str | Refusal:
    """The setting as a literal: the context's argument, or what it sets called bare."""
    given = [*node.args, *(k.value for k in node.keywords)]
    if not given:
        return bare if bare is not None else Refusal("the context sets nothing called bare")
    if len(given) != 1 or not isinstance(given[0], ast.Constant):
        return Refusal("the context's setting is not one literal")
    return source.code(given[0])


def _sets_already(tree: ast.Module, config: str) -> bool:
    """Whether a top-level ``jax.config.update("<config>", ...)`` is there (this fix made before)."""
    return any(
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and dotted(stmt.value.func) == "jax.config.update"
        and stmt.value.args
        and isinstance(stmt.value.args[0], ast.Constant)
        and stmt.value.args[0].value == config
        for stmt in tree.body
    )


def _after_imports(tree: ast.Module) -> ast.stmt | None:
    """The first top-level statement after the module's last import at the top level."""
    imports = [
        i for i, stmt in enumerate(tree.body) if isinstance(stmt, (ast.Import, ast.ImportFrom))
    ]
    if not imports or imports[-1] + 1 >= len(tree.body):
        return None
    return tree.body[imports[-1] + 1]
