"""RTL201 / RTL202: a static count whose value changes, that the jitted body needs concrete only as the
bound of a ``for`` loop over ``range`` (``for _ in range(n_sub): h = step(h)``), is made traced with the
loop made ``jax.lax.fori_loop``, whose bounds may be traced: the loop's body becomes a function of the
index and of the values it carries (the names it assigns that were bound before it or are read after
it), so JAX traces it once for every count.

A loop is rewritten only when it is a statement of the jitted def's own body over ``range(stop)`` or
``range(start, stop)``, has no ``else``, ``break``, ``continue``, ``return``, ``yield`` or statement that
is not an assignment to names (a call for its effect, ``x[i] = ...``, ``self.x = ...``: the body runs
once, traced), and uses its index only where a traced value works (the test of ``static_params``); the
count's other uses must work traced too. Every value the loop carries must keep its shape and dtype
from one step to the next, which only running it shows: the fix is unsafe.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
    has_binding,
    parse_statement,
)
from retracelint.fixes.static_params import jitted, reads_need_static
from retracelint.model import Finding
from retracelint.summarise.syntax import own_nodes

_EXITS = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class _Loop:
    """A loop to rewrite: its statement, index, bounds' text and the names it carries."""

    stmt: ast.For
    index: str
    bounds: tuple[str, str]
    carried: tuple[str, ...]


def loops_as_fori(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The count traced and its loops made ``fori_loop``; None when no loop of the jitted def's own
    body is bounded by it (it reaches ``range`` some other way: a helper, a name made from it)."""
    found = jitted(source, finding)
    if isinstance(found, Refusal):
        return found
    fdef, name = found.fdef, found.name
    loops: list[_Loop] = []
    bounds: set[int] = set()  # the reads of the count that are a loop's bound
    for position, stmt in enumerate(fdef.body):
        if not (isinstance(stmt, ast.For) and _reads(stmt.iter, name)):
            continue
        loop = _loop(source, fdef, position)
        if isinstance(loop, str):
            return Refusal(f"{name} must stay static: line {stmt.lineno} {loop}")
        loops.append(loop)
        bounds |= {id(n) for n in _reads(stmt.iter, name)}
    if not loops:
        return None
    others = [n for n in _reads(fdef, name) if id(n) not in bounds]
    uses = reads_need_static(source, fdef, others, {name})
    if isinstance(uses, str):
        return Refusal(f"{name} must stay static: {uses}")
    replace = found.without(source)
    if isinstance(replace, Refusal):
        return replace
    jax_bound = has_binding(source, "jax", "jax")
    if not jax_bound and "jax" in source.module_names:
        return Refusal(f"{name} must stay static: the module binds jax to something else")
    insert, remove = {}, set()
    for loop in loops:
        statements = _statements(source, loop)
        if statements is None:
            return Refusal(f"the loop at line {loop.stmt.lineno} has lines indented less than it")
        insert[source.start(loop.stmt)] = statements
        remove.add(source.start(loop.stmt))
    return Rewrite(
        replace=replace,
        insert_before=insert,
        remove=remove,
        imports=() if jax_bound else ("import jax",),
        unsafe=True,
    )


def _reads(node: ast.AST, name: str) -> list[ast.Name]:
    return [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


def _loop(
    source: Source, fdef: ast.FunctionDef | ast.AsyncFunctionDef, position: int
) -> _Loop | str:
    """The loop at ``fdef.body[position]`` as ``fori_loop`` takes it, or why it cannot be."""
    stmt = fdef.body[position]
    assert isinstance(stmt, ast.For)  # the caller picks the loops
    call = stmt.iter
    if not (
        isinstance(call, ast.Call)
        and dotted(call.func) == "range"
        and "range" not in bound_names(source.tree.body)
        and 1 <= len(call.args) <= 2
        and not call.keywords
        and not any(isinstance(a, ast.Starred) for a in call.args)
    ):
        return "uses it in a loop that is not over range(stop) or range(start, stop)"
    if not isinstance(stmt.target, ast.Name) or stmt.orelse:
        return "uses it in a loop with an else or an index that is not a name"
    why = _body_why(stmt)
    if why is not None:
        return why
    index = stmt.target.id
    uses = reads_need_static(source, stmt, _reads(stmt, index), {index})
    if isinstance(uses, str):
        return f"bounds a loop whose index must stay concrete: {uses}"
    before = _bound_before(fdef, position)
    after = _names_read(fdef.body[position + 1 :])
    if index in after:
        return f"bounds a loop whose index {index} is read after it"
    assigned = [n for n in _assigned_in_order(stmt.body) if n != index]
    late = [n for n in assigned if n in after and n not in before]
    if late:
        return f"bounds a loop that first assigns {late[0]}, read after it"
    carried = tuple(n for n in assigned if n in before or n in after)
    if not carried:
        return "bounds a loop that carries no value"
    args = [source.code(a) for a in call.args]
    return _Loop(stmt, index, ("0", args[0]) if len(args) == 1 else (args[0], args[1]), carried)


def _body_why(stmt: ast.For) -> str | None:
    """Why the loop's body cannot run once, traced, as a function (``None`` when it can)."""
    for child in stmt.body:
        if not isinstance(child, (ast.Assign, ast.AugAssign, ast.AnnAssign, *_DEFS)):
            kind = type(child).__name__
            return f"bounds a loop whose line {child.lineno} is not an assignment ({kind})"
        targets = (
            child.targets if isinstance(child, ast.Assign) else [getattr(child, "target", None)]
        )
        for target in targets:
            if target is not None and not all(
                isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.expr_context))
                for n in ast.walk(target)
            ):
                return (
                    f"bounds a loop that assigns into {ast.unparse(target)} at line {child.lineno}"
                )
    for node in own_nodes(stmt.body):
        if isinstance(node, (*_EXITS, ast.Global, ast.Nonlocal, ast.NamedExpr)):
            return f"bounds a loop that leaves or reaches out at line {node.lineno} ({type(node).__name__})"
    return None


def _bound_before(fdef: ast.FunctionDef | ast.AsyncFunctionDef, position: int) -> set[str]:
    args = fdef.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    return params | bound_names(fdef.body[:position])


def _names_read(stmts: list[ast.stmt]) -> set[str]:
    return {
        n.id
        for s in stmts
        for n in ast.walk(s)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def _assigned_in_order(body: list[ast.stmt]) -> list[str]:
    """The names the loop's body binds, in the order they are first bound."""
    out: dict[str, None] = {}
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.setdefault(node.id)
            elif isinstance(node, _DEFS):
                out.setdefault(node.name)
    return list(out)


def _statements(source: Source, loop: _Loop) -> list | None:
    """The loop's body as a def, and the ``fori_loop`` call that runs it."""
    lines = source.text.splitlines()
    # from the line after the header: the comments above the body's first statement are the body's
    start = (loop.stmt.iter.end_lineno or loop.stmt.lineno) + 1
    body = lines[start - 1 : loop.stmt.body[-1].end_lineno]
    while body and not body[0].strip():
        body = body[1:]
    indent = body[0][: len(body[0]) - len(body[0].lstrip())]
    if any(line.strip() and not line.startswith(indent) for line in body):
        return None
    name = source.fresh_name("loop_body")
    carry = source.fresh_name("carry")
    names = ", ".join(loop.carried) + ("," if len(loop.carried) == 1 else "")
    code = (
        f"def {name}({loop.index}, {carry}):\n"
        f"    ({names}) = {carry}\n"
        + textwrap.indent(textwrap.dedent("\n".join(body)), "    ")
        + f"\n    return ({names})\n"
    )
    start_text, stop_text = loop.bounds
    call = f"({names}) = jax.lax.fori_loop({start_text}, {stop_text}, {name}, ({names}))\n"
    import libcst as cst

    spaced = parse_statement(call).with_changes(leading_lines=[cst.EmptyLine(indent=False)])
    return [parse_statement(code), spaced]
