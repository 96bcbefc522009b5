"""RTL101 / RTL102 / RTL105: an array whose length changes per iteration is given to the jitted function
at one length, and its result sliced back.

The rewrite keeps the program's meaning only when each row of the jitted function's result is made
from the same row of the array alone (``rowwise``): then the rows past the real length never reach
the rows kept. So the fix is made only where the array is passed straight to the jitted function, as
one of its arguments, and that function's body is assignments and a return built of row-wise
functions (``apis.ROWWISE``), arithmetic and number literals over that parameter; otherwise it is
refused, saying what the body does with the rows.

- A slice of an array along its first axis (``f(series[:t])``, RTL101): the whole array is the fixed
  maximum, ``f(series)[:t]``; one trace, the same rows.
- Any other array (``f(tokens)``, grown each iteration): padded with zeros to a bucket, the next power
  of two of at least ``bucket`` rows (a parameter of the fix), ``f(pad(tokens))[: len(tokens)]``: one
  trace per bucket instead of one per length.

Unsafe either way: the jitted function now also computes rows that are thrown away (cost, and a
padding row may hold inf or nan where nothing did before).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    Start,
    dotted,
    has_binding,
    in_place,
    offset_in,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.longest_pad import pad_to_bucket
from retracelint.fixes.masked_rows import (
    BUCKET,
    PAD_NAME,
    PADDED,
    pad_code,
    pad_where_jitted,
    pads,
)
from retracelint.model import Finding
from retracelint.summarise.apis import _FLOAT_CONSTANTS, ROWWISE

if TYPE_CHECKING:
    import libcst as cst

_MODULES = ("jnp", "jax.numpy")
_ROW_OPS = (ast.BinOp, ast.UnaryOp, ast.Compare)


@dataclass(frozen=True)
class DirectCall:
    """The call of the jitted function that passes the finding's array, as an argument of its own."""

    call: ast.Call
    argument: ast.expr
    jitted: ast.FunctionDef


def direct_call(source: Source, finding: Finding) -> DirectCall | Refusal:
    """The finding's call of the jitted function in this file, the argument it passes to the
    finding's parameter, and the def; else why the fix cannot tell them."""
    site = finding.jit_site
    if not finding.call_path or finding.call_path[0].location.path != finding.location.path:
        return Refusal("the array is not passed to the jitted function in this file")
    where = finding.call_path[0].location
    call = source.expression_at(where.line, where.col, where.end_line, where.end_col)
    if not isinstance(call, ast.Call) or site is None or not finding.parameter:
        return Refusal("the finding is not at a call of the jitted function")
    called = dotted(call.func).rsplit(".", 1)[-1]
    if called in pads(source):
        return Refusal(PADDED)
    if called != site.name:
        return Refusal(
            f"the array reaches {site.name} through a call of {called or 'a function'}; "
            f"the fix rewrites a call of {site.name} only"
        )
    jitted = _jitted_def(source, finding)
    if isinstance(jitted, Refusal):
        return jitted
    argument = _argument(call, finding.parameter, jitted)
    if argument is None:
        return Refusal(
            f"cannot tell which argument of the call is {site.name}'s {finding.parameter}"
        )
    return DirectCall(call, argument, jitted)


def entry_file(finding: Finding) -> str:
    """The file the fix rewrites: the finding's, where it passes the array to the jitted function
    itself; else the jitted function's, which pads the array as it enters (``masked_rows``)."""
    site = finding.jit_site
    if site is None or _passed_here(finding):
        return finding.location.path
    return site.location.path


def _passed_here(finding: Finding) -> bool:
    site, path = finding.jit_site, finding.call_path
    return (
        site is not None
        and bool(path)
        and path[0].location.path == finding.location.path
        and path[0].call.rsplit(".", 1)[-1] == site.name
    )


def pad_rows(source: Source, finding: Finding, bucket: int = BUCKET) -> Rewrite | Refusal:
    """A batch padded to its longest member padded to a bucket instead (``longest_pad``); else the
    array padded where the call passes it, when the jitted function is row-wise; else, when that
    function is defined in the file the fix rewrites, padded as it enters that function."""
    longest = pad_to_bucket(source, finding, bucket)
    if isinstance(longest, Rewrite) or (longest is not None and longest.reason == PADDED):
        return longest
    padded = _pad_rows(source, finding, bucket)
    if isinstance(padded, Refusal) and longest is not None and padded.reason != PADDED:
        return Refusal(f"{longest.reason}; {padded.reason}")
    return padded


def _pad_rows(source: Source, finding: Finding, bucket: int) -> Rewrite | Refusal:
    site = finding.jit_site
    if not _passed_here(finding):
        return pad_where_jitted(source, finding, bucket)
    at_call = _pad_at_call(source, finding, bucket)
    if not isinstance(at_call, Refusal) or site is None or at_call.reason == PADDED:
        return at_call
    entered = pad_as_it_enters(source, finding, finding.location.path, bucket)
    return at_call if entered is None else entered


def pad_as_it_enters(
    source: Source, finding: Finding, here: str, bucket: int = BUCKET
) -> Rewrite | Refusal | None:
    """The jitted function padding the array as it enters (``pad_where_jitted``), in the file that
    defines it: ``source`` where that is ``here`` (its path), else its neighbour, the rewrite then
    made there as part of this file's; None when that file cannot be read."""
    site = finding.jit_site
    if site is None or site.location.path == here:
        return pad_where_jitted(source, finding, bucket)
    home = source.neighbour(site.location.path)
    if home is None:
        return None
    entered = pad_where_jitted(home, finding, bucket)
    if isinstance(entered, Refusal):
        return entered
    return Rewrite(elsewhere={site.location.path: entered}, unsafe=True)


def _pad_at_call(source: Source, finding: Finding, bucket: int) -> Rewrite | Refusal:
    found = direct_call(source, finding)
    if isinstance(found, Refusal):
        return found
    call, argument, jitted = found.call, found.argument, found.jitted
    assert finding.jit_site is not None and finding.parameter is not None
    why = rowwise(jitted, finding.parameter)
    if why:
        return Refusal(f"{finding.jit_site.name} {why}, so padded rows would change its result")
    if not pure(argument):
        return Refusal("the array is made by a call here, which the fix would make twice")
    if isinstance(argument, ast.Subscript) and isinstance(argument.slice, ast.Slice):
        whole, rows = source.code(argument.value), source.code(argument.slice)
        return _call_with(source, call, argument, whole, f"[{rows}]")
    return _bucketed(source, call, argument, bucket)


def _argument(call: ast.Call, parameter: str, jitted: ast.FunctionDef) -> ast.expr | None:
    """The argument ``call`` passes to ``jitted``'s ``parameter``, by keyword or by position."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    keyword = next((k.value for k in call.keywords if k.arg == parameter), None)
    names = [a.arg for a in (*jitted.args.posonlyargs, *jitted.args.args)]
    if names[:1] in (["self"], ["cls"]):
        return None  # bound: the call's positions are shifted by one
    if keyword is None and parameter in names and names.index(parameter) < len(call.args):
        return call.args[names.index(parameter)]
    return keyword


def _jitted_def(source: Source, finding: Finding) -> ast.FunctionDef | Refusal:
    site = finding.jit_site
    assert site is not None
    other = source.jit_home(finding)
    if other is None:
        return Refusal(f"{site.location.path}, where {site.name} is defined, cannot be read")
    for node in ast.walk(other.tree):
        if (
            isinstance(node, ast.FunctionDef)
            and node.name == site.name
            and site.location.line <= node.lineno <= max(site.location.end_line, node.lineno)
        ):
            return node
    return Refusal(f"{site.name} is not a def the fix can read")


def rowwise(function: ast.FunctionDef, parameter: str) -> str:
    """Empty when each row of ``function``'s result is made from the same row of ``parameter``
    alone; else what in its body breaks that, as a clause ("reads n", "calls jnp.mean at line 4")."""
    rows = {parameter}
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    for stmt in body:
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            value, names = stmt.value, [t.id for t in stmt.targets]  # type: ignore[attr-defined]
        elif isinstance(stmt, ast.Return) and stmt.value is not None and stmt is body[-1]:
            value, names = stmt.value, []
        else:
            return f"has a {type(stmt).__name__.lower()} statement at line {stmt.lineno}"
        why = _row_expression(value, rows)
        if why:
            return why
        rows.update(names)
    if not body or not isinstance(body[-1], ast.Return):
        return "does not end by returning the rows"
    return ""


def _row_expression(node: ast.expr, rows: set[str]) -> str:
    """Empty when ``node`` is row-wise in ``rows`` (and uses at least one)."""
    if isinstance(node, ast.Name):
        return "" if node.id in rows else f"reads {node.id} at line {node.lineno}"
    if not any(isinstance(n, ast.Name) and n.id in rows for n in ast.walk(node)):
        return f"computes something not made from its rows at line {node.lineno}"
    for part in _operands(node):
        if isinstance(part, str):
            return part
        if _number(part):
            continue
        why = _row_expression(part, rows)
        if why:
            return why
    return ""


def _operands(node: ast.expr) -> Iterator[ast.expr | str]:
    """The operands of a row-wise operation, or the clause that says it is not one."""
    if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
        yield from (node.left, node.right)
    elif isinstance(node, ast.UnaryOp):
        yield node.operand
    elif isinstance(node, ast.Compare):
        yield from (node.left, *node.comparators)
    elif (
        isinstance(node, ast.Call)
        and _rowwise_function(node.func)
        # where(condition) alone gives the indices of the true rows, not a row per row
        and (dotted(node.func).rsplit(".", 1)[-1] != "where" or len(node.args) == 3)
    ):
        yield from node.args
        yield from (k.value for k in node.keywords)
    else:
        what = dotted(node.func) if isinstance(node, ast.Call) else ast.unparse(node)
        yield f"uses {what or type(node).__name__} at line {node.lineno}"


def _rowwise_function(func: ast.expr) -> bool:
    module, _, name = dotted(func).rpartition(".")
    return module in _MODULES and name in ROWWISE


def _number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp):
        return _number(node.operand)
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float, bool)
    return (
        isinstance(node, ast.Attribute)
        and dotted(node.value) in _MODULES
        and node.attr in _FLOAT_CONSTANTS
    )


def pure(node: ast.expr) -> bool:
    """Whether evaluating ``node`` again gives the same value and does nothing else: names,
    attributes, subscripts and slices of them, number literals, arithmetic."""
    allowed = (ast.Name, ast.Attribute, ast.Subscript, ast.Slice, ast.Constant, *_ROW_OPS)
    return all(
        isinstance(n, (*allowed, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop))
        for n in ast.walk(node)
    )


def _call_with(
    source: Source, call: ast.Call, argument: ast.expr, new: str, after: str
) -> Rewrite | Refusal:
    """The call written with ``argument`` as ``new`` (the rest as it is) and ``after`` it."""
    text = source.code(call)
    start = offset_in(text, source.start(call), source.start(argument))
    end = offset_in(text, source.start(call), source.end(argument))
    written = in_place(source, call, f"{text[:start]}{new}{text[end:]}{after}")
    if written is None:
        return Refusal("a string spans the lines of the call")
    return Rewrite(replace={source.span(call): parse_expression(written)}, unsafe=True)


def _bucketed(source: Source, call: ast.Call, argument: ast.expr, bucket: int) -> Rewrite | Refusal:
    """``f(x)`` → ``f(pad(x))[: len(x)]``."""
    pad = pad_function(source, call, bucket)
    held = source.code(argument)
    rewrite = _call_with(source, call, argument, f"{pad.name}({held})", f"[: len({held})]")
    return rewrite if isinstance(rewrite, Refusal) else pad.add_to(rewrite)


@dataclass(frozen=True)
class PadFunction:
    """The function that pads rows, by the name a rewrite calls it, and what defines it when the
    file does not yet: put above the top-level statement making the call."""

    name: str
    define: dict[Start, list[cst.BaseStatement]]
    imports: tuple[str, ...]
    refusal: str = ""

    def add_to(self, rewrite: Rewrite) -> Rewrite | Refusal:
        if self.refusal:
            return Refusal(self.refusal)
        rewrite.insert_before.update(self.define)
        rewrite.imports += self.imports
        return rewrite


def pad_function(source: Source, call: ast.Call, bucket: int = BUCKET) -> PadFunction:
    """The pad function an earlier fix of this file defined with this bucket, else a new one."""
    imports: tuple[str, ...] = ()
    if not has_binding(source, "jnp", "jax.numpy"):
        if "jnp" in source.module_names:
            return PadFunction("", {}, (), "jnp is bound to something other than jax.numpy here")
        imports = ("import jax.numpy as jnp",)
    existing = next((n for n, b in pads(source).items() if b == bucket), None)
    if existing:
        return PadFunction(existing, {}, imports)
    name = source.fresh_name(PAD_NAME)
    top = next((s for s in source.tree.body if _holds(s, call)), None)
    if top is None:
        return PadFunction("", {}, (), "the call is not inside a top-level statement")
    return PadFunction(
        name, {source.start(top): [parse_statement(pad_code(name, bucket))]}, imports
    )


def _holds(stmt: ast.stmt, node: ast.AST) -> bool:
    return any(n is node for n in ast.walk(stmt))
