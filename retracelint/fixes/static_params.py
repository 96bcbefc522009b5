"""RTL201 / RTL202: a static parameter whose value changes is made traced: it leaves ``static_argnums``
/ ``static_argnames`` (the keyword goes when it is left empty), when the jitted body uses it only where a
traced value works: arithmetic, comparisons feeding array code, arguments of array functions other than
those known to take traced values there (``accepts_traced`` in the API table), values returned or assigned to names used
the same way. A use in Python control flow, ``range``, ``len``, an index, a slice, an attribute or a call of
anything else needs it static: the file is left alone and the reason names the use.

Only ``static_argnums`` lists positions, so removing one position moves no other: the function's
parameters stay as they are.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from retracelint.fixes.base import Refusal, Rewrite, Source, dotted, parse_expression
from retracelint.model import Finding
from retracelint.summarise.apis import accepts_traced

_JITS = frozenset(
    {
        "jax.jit",
        "jit",
        "jax.pmap",
        "pmap",
        "nnx.jit",
        "flax.nnx.jit",
        "eqx.filter_jit",
        "equinox.filter_jit",
    }
)
_PARTIALS = frozenset({"partial", "functools.partial"})
_ARRAY_PREFIXES = ("jnp.", "jax.numpy.", "jax.nn.", "jax.lax.", "lax.", "jax.scipy.", "jax.random.")
_KEEP_TRACED = (ast.BinOp, ast.Compare)
_CONTROL = (ast.If, ast.While, ast.IfExp, ast.Assert, ast.BoolOp)


def make_traced(source: Source, finding: Finding) -> Rewrite | Refusal:
    site, name = finding.jit_site, finding.parameter
    if site is None or not name:
        return Refusal("the finding names no jitted function and parameter")
    fdef = next(
        (
            n
            for n in ast.walk(source.tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.lineno == site.location.line
            and n.name == site.name
        ),
        None,
    )
    if fdef is None:
        return Refusal(f"the def of {site.name} is not where the jit site says")
    positional = [a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)]
    index = positional.index(name) if name in positional else None
    declarations = _declarations(source, fdef)
    if not declarations:
        return Refusal(
            f"{site.name} lists no static parameters where it is jitted (a static field or aux data:"
            " no fix yet)"
        )
    if len(declarations) > 1:
        return Refusal(
            f"{site.name} is jitted with static parameters in {len(declarations)} places"
        )
    reason = _needs_static(source, fdef, name)
    if reason is not None:
        return Refusal(f"{name} must stay static: {reason}")
    jit_call, static_call = declarations[0]
    new = _without(source, jit_call, static_call, name, index)
    if isinstance(new, Refusal):
        return new
    return Rewrite(replace={source.span(static_call): parse_expression(new)})


def _declarations(
    source: Source, fdef: ast.FunctionDef | ast.AsyncFunctionDef
) -> list[tuple[ast.AST, ast.Call]]:
    """Where ``fdef`` is jitted with static parameters: the jit (or ``partial(jax.jit, ...)``) call
    that lists them, as a decorator or as ``jax.jit(fdef_name, static_...=...)`` anywhere."""
    out = []
    for decorator in fdef.decorator_list:
        found = _static_call(decorator)
        if found is not None:
            out.append(found)
    for node in ast.walk(source.tree):
        if (
            isinstance(node, ast.Call)
            and dotted(node.func) in _JITS
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == fdef.name
            and _statics(node)
        ):
            out.append((node, node))
    return out


def _static_call(node: ast.AST) -> tuple[ast.AST, ast.Call] | None:
    if not isinstance(node, ast.Call) or not _statics(node):
        return None
    if dotted(node.func) in _JITS:
        return node, node
    if dotted(node.func) in _PARTIALS and node.args and dotted(node.args[0]) in _JITS:
        return node.args[0], node
    return None


def _statics(call: ast.Call) -> list[ast.keyword]:
    return [k for k in call.keywords if k.arg in ("static_argnums", "static_argnames")]


def _without(
    source: Source, jit: ast.AST, call: ast.Call, name: str, index: int | None
) -> str | Refusal:
    """The call's text without ``name`` (or its position) among its static parameters."""
    keywords: list[str] = []
    removed = False
    for keyword in call.keywords:
        if keyword.arg not in ("static_argnums", "static_argnames"):
            keywords.append(source.code(keyword))
            continue
        items = _literal_items(keyword.value)
        if items is None:
            return Refusal(f"{keyword.arg} is not a literal")
        drop = name if keyword.arg == "static_argnames" else index
        kept = [source.code(node) for node, value in items if value != drop]
        removed |= len(kept) != len(items)
        if kept:
            value = kept[0] if len(kept) == 1 else f"({', '.join(kept)})"
            keywords.append(f"{keyword.arg}={value}")
    if not removed:
        return Refusal(f"{name} is not listed as static where the function is jitted")
    args = [source.code(a) for a in call.args]
    if call is not jit and not keywords and len(args) == 1:
        return args[0]  # partial(jax.jit) with nothing left to bind is jax.jit itself
    return f"{source.code(call.func)}({', '.join(args + keywords)})"


def _literal_items(node: ast.expr) -> list[tuple[ast.expr, object]] | None:
    """The parameters a ``static_arg*`` value lists, each with its node (whose text is kept)."""
    elements = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
    try:
        values = [ast.literal_eval(e) for e in elements]
    except ValueError:
        return None
    if all(isinstance(v, (int, str)) for v in values):
        return list(zip(elements, values, strict=True))
    return None


def _needs_static(source: Source, fdef: ast.AST, name: str) -> str | None:
    """Why the body needs ``name`` static (the first use that does), or None."""
    names, pending = {name}, [name]
    while pending:
        current = pending.pop()
        for node in ast.walk(fdef):
            if isinstance(node, ast.Name) and node.id == current and isinstance(node.ctx, ast.Load):
                use = _use(source, node)
                if isinstance(use, str):
                    return f"line {node.lineno} {use}"
                if use is not None and use.name not in names:
                    names.add(use.name)
                    pending.append(use.name)
    return None


@dataclass(frozen=True)
class _Assigned:
    """A read whose value is assigned to a name: that name's reads are checked next."""

    name: str


def _use(source: Source, node: ast.AST) -> str | _Assigned | None:
    """How one read of the value is used: None where a traced value works, the name it is assigned to
    (used the same way, checked next), or why it must be static."""
    current = node
    while True:
        parent = source.parent(current)
        negated = isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
        if isinstance(parent, (*_KEEP_TRACED, ast.UnaryOp)) and not negated:
            current = parent
            continue
        if isinstance(parent, ast.Return) or (
            isinstance(parent, ast.Lambda) and current is parent.body
        ):
            return None  # a lambda's result: what ``jax.tree.map(lambda p: p - lr * p, ...)`` makes
        if isinstance(parent, ast.Call) and current is not parent.func:
            return _call_use(parent, current)
        if isinstance(parent, ast.keyword):
            call = source.parent(parent)
            return _call_use(call, current) if isinstance(call, ast.Call) else "passes it on"
        if (
            isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign))
            and current is parent.value
        ):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                return _Assigned(targets[0].id)
            return "assigns it to something other than a name"
        if isinstance(parent, _CONTROL):
            return "decides Python control flow"
        return f"uses it in {type(parent).__name__ if parent else 'the module'}"


def _call_use(call: ast.Call, argument: ast.AST) -> str | None:
    called = dotted(call.func)
    if not called.startswith(_ARRAY_PREFIXES):
        return f"passes it to {called or 'a call'}"
    keyword = next((k.arg for k in call.keywords if k.value is argument), None)
    position = next((i for i, a in enumerate(call.args) if a is argument), None)
    if not accepts_traced(called.rsplit(".", 1)[-1], position, keyword):
        return f"gives {called} an argument that is not known to take a traced value"
    return None
