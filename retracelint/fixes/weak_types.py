"""RTL401 / RTL402: the value that flips the jitted function's key is made like the other one.

- RTL401 (a weakly typed Python scalar where an array comes too): the scalar becomes a strongly typed
  0-d array, ``0.0`` → ``jnp.asarray(0.0, jnp.float32)`` (``jnp.asarray(0.0)`` gains the dtype). The dtype
  is guessed from the scalar (float32 for a float, int32 for an int: JAX's defaults without x64), so the
  fix is unsafe: a user must check it is the other value's dtype.
- RTL402 between a Python int and a float (both weak): the int literal becomes a float literal, ``0`` →
  ``0.0``; the values stay Python numbers, so this one is safe.

Where the finding is at the strongly typed value (``clip(x, limit)``), the weak one is looked for on the
line the message names: the one numeric literal passed to the same jitted function there.
"""

from __future__ import annotations

import ast
import re

from retracelint.fixes.base import Refusal, Rewrite, Source, dotted, has_binding, parse_expression
from retracelint.model import Finding

_ARRAY_MAKERS = frozenset({"jnp.asarray", "jnp.array", "jax.numpy.asarray", "jax.numpy.array"})
_WEAK_ELSEWHERE = re.compile(r"weakly typed scalar at line (\d+)")
_DTYPES = {float: "float32", int: "int32"}


def strong_scalar(source: Source, finding: Finding) -> Rewrite | Refusal:
    node = _weak_value(source, finding)
    if isinstance(node, Refusal):
        return node
    imports: tuple[str, ...] = ()
    if not has_binding(source, "jnp", "jax.numpy"):
        if "jnp" in source.module_names:
            return Refusal("jnp is bound to something other than jax.numpy here")
        imports = ("import jax.numpy as jnp",)
    if isinstance(node, ast.Call):  # jnp.asarray(0.0): name the dtype
        kind = _number_kind(node.args[0])
        args = ", ".join([*(source.code(a) for a in node.args), f"jnp.{_DTYPES[kind]}"])  # type: ignore[index]
        new = f"{source.code(node.func)}({args})"
    else:
        new = f"jnp.asarray({source.code(node)}, jnp.{_DTYPES[_number_kind(node)]})"  # type: ignore[index]
    return Rewrite(replace={source.span(node): parse_expression(new)}, imports=imports)


def float_literal(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not finding.message.split(" is ", 1)[-1].startswith("an int"):
        return Refusal("only an int against a float has a fix that keeps both Python numbers")
    literal = node.operand if isinstance(node, ast.UnaryOp) else node
    if not isinstance(literal, ast.Constant) or type(literal.value) is not int:
        return Refusal("the int is not a literal")
    return Rewrite(replace={source.span(literal): parse_expression(f"{literal.value}.0")})


def _weak_value(source: Source, finding: Finding) -> ast.expr | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if node is not None and _is_weak_literal(node):
        return node
    elsewhere = _WEAK_ELSEWHERE.search(finding.message)
    if elsewhere is None:
        return Refusal("the weakly typed value is not a number literal")
    line = int(elsewhere.group(1))
    site = finding.jit_site.name if finding.jit_site else None
    literals = [
        arg
        for call in ast.walk(source.tree)
        if isinstance(call, ast.Call)
        and call.lineno == line
        and dotted(call.func).rsplit(".", 1)[-1] == site
        for arg in [*call.args, *(k.value for k in call.keywords)]
        if _is_weak_literal(arg)
    ]
    if len(literals) != 1:
        return Refusal(f"no single number literal passed to {site} at line {line}")
    return literals[0]


def _is_weak_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        return (
            dotted(node.func) in _ARRAY_MAKERS
            and len(node.args) == 1
            and not node.keywords
            and _number_kind(node.args[0]) is not None
        )
    return _number_kind(node) is not None


def _number_kind(node: ast.expr) -> type | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant) and type(node.value) in _DTYPES:
        return type(node.value)
    return None
