"""RTL201 / RTL202 at a static field of a registered dataclass (``field(metadata=dict(static=True))``,
``eqx.field(static=True)``, ``struct.field(pytree_node=False)``) whose value changes: the field is made a
leaf of the pytree, so that jax traces it instead of keying its cache on it.

Inside the jitted function the field is then a traced value: the fix is made when every read of it there
(``runtime.ftol`` in the jitted def, its nested functions and the module's functions it is handed to)
works on a traced value, as ``closure_args`` decides for a value a closure reads. The class may be
used by other jitted functions, elsewhere in the project, that need it concrete, and a leaf must be an
array or a number: only a user can check those, so the fix is unsafe.
"""

from __future__ import annotations

import ast
from pathlib import Path

from retracelint.fixes.base import Refusal, Rewrite, Source, dotted, parse_expression
from retracelint.fixes.closure_args import _DEPTH, _why_static
from retracelint.model import Finding

_FIELDS = frozenset(
    {
        "field",
        "dataclasses.field",
        "eqx.field",
        "equinox.field",
        "struct.field",
        "flax.struct.field",
    }
)
# The keywords that make a field static, with the value that does.
_STATIC_KEYWORDS = {"static": True, "pytree_node": False}


def make_leaf(source: Source, finding: Finding) -> Rewrite | Refusal:
    field_def = _field_at(source, finding)
    if field_def is None:
        return Refusal(
            "aux data, or a static field not declared here as name: type = field(...): no fix yet"
        )
    name, call = field_def
    kept = _without_static(call)
    if isinstance(kept, Refusal):
        return kept
    reason = _needs_static(source, finding, name)
    if reason is not None:
        return Refusal(f"{name} must stay static: {reason}")
    args = [source.code(a) for a in call.args] + kept
    new = f"{source.code(call.func)}({', '.join(args)})"
    return Rewrite(replace={source.span(call): parse_expression(new)}, unsafe=True)


def _field_at(source: Source, finding: Finding) -> tuple[str, ast.Call] | None:
    line = finding.location.line
    for cls in ast.walk(source.tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for stmt in cls.body:
            if (
                isinstance(stmt, ast.AnnAssign)
                and stmt.lineno == line
                and isinstance(stmt.target, ast.Name)
                and isinstance(stmt.value, ast.Call)
                and dotted(stmt.value.func) in _FIELDS
            ):
                return stmt.target.id, stmt.value
    return None


def _without_static(call: ast.Call) -> list[str] | Refusal:
    """The field call's keywords (as text) without the one that makes it static."""
    kept, dropped = [], False
    for keyword in call.keywords:
        if keyword.arg in _STATIC_KEYWORDS:
            if not _is_constant(keyword.value, _STATIC_KEYWORDS[keyword.arg]):
                return Refusal(f"{keyword.arg}= is not a literal")
            dropped = True
        elif keyword.arg == "metadata":
            if not _only_static(keyword.value):
                return Refusal("its metadata holds more than static=True")
            dropped = True
        else:
            kept.append(ast.unparse(keyword))
    return kept if dropped else Refusal("the field is not marked static by its own keywords")


def _is_constant(node: ast.expr, value: bool) -> bool:
    return isinstance(node, ast.Constant) and node.value is value


def _only_static(node: ast.expr) -> bool:
    """``dict(static=True)`` or ``{"static": True}``."""
    if isinstance(node, ast.Call) and dotted(node.func) == "dict" and not node.args:
        return [k.arg for k in node.keywords] == ["static"] and _is_constant(
            node.keywords[0].value, True
        )
    if isinstance(node, ast.Dict) and len(node.keys) == 1:
        key = node.keys[0]
        return (
            isinstance(key, ast.Constant)
            and key.value == "static"
            and _is_constant(node.values[0], True)
        )
    return False


def _needs_static(source: Source, finding: Finding, name: str) -> str | None:
    """Why the jitted function needs the field concrete (a read of ``param.name`` in it), or None."""
    site = finding.jit_site
    if site is None or not finding.parameter:
        return "the finding names no jitted function"
    where = source
    if site.location.path != finding.location.path:
        try:  # the jitted function is in another module of the project
            text = Path(site.location.path).read_text(encoding="utf-8")
            where = Source(text, ast.parse(text))
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            return f"{site.location.path} cannot be read"
    fdef = next(
        (
            n
            for n in ast.walk(where.tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name == site.name
            and n.lineno <= site.location.line <= (n.end_lineno or n.lineno)
        ),
        None,
    )
    if fdef is None:
        return f"the def of {site.name} is not where the jit site says"
    reads = [
        n
        for n in ast.walk(fdef)
        if isinstance(n, ast.Attribute)
        and n.attr == name
        and isinstance(n.value, ast.Name)
        and n.value.id == finding.parameter
    ]
    found = _why_static(where, fdef, reads, _DEPTH)
    return found.reason if isinstance(found, Refusal) else found
