"""Which calls of a function run exactly once each time their block runs, and which of its loops
run their body to the end a fixed number of times: what tells a buffer filled by a fixed-length
loop (the same length at every read) from one a loop that breaks fills to a changing length."""

from __future__ import annotations

import ast
from collections.abc import Callable

from retracelint.model import Location
from retracelint.summarise.syntax import ENDS_BLOCK, bound_names, own_nodes
from retracelint.summary import Steady


def steady(body: list[ast.stmt], loc: Callable[[ast.AST], Location]) -> Steady:
    """The steady calls and fixed loops of a function body (``loc``: the summary's locations)."""
    calls: set[Location] = set()
    loops: set[Location] = set()
    # Each block whose statements all run each time it runs, with the outermost loop around it.
    blocks: list[tuple[list[ast.stmt], ast.stmt | None]] = [(body, None)]
    while blocks:
        block, outer = blocks.pop()
        for stmt in block:
            call = _statement_call(stmt)
            if call is not None:
                calls.add(loc(call))
            elif isinstance(stmt, ast.For | ast.While) and not _jumps(stmt.body):
                top = outer or stmt
                # A count bound before the loops is one count for them all; one bound in them may
                # change from one pass to the next.
                if isinstance(stmt, ast.For) and _counted(stmt, bound_names([top], "block")):
                    loops.add(loc(stmt))
                blocks.append((stmt.body, top))
    return Steady(frozenset(calls), frozenset(loops))


def _statement_call(stmt: ast.stmt) -> ast.Call | None:
    """The call a statement is, or assigns the result of."""
    value = stmt.value if isinstance(stmt, ast.Expr | ast.Assign | ast.AnnAssign) else None
    return value if isinstance(value, ast.Call) else None


def _jumps(body: list[ast.stmt]) -> bool:
    """Whether a loop body may end an iteration or the loop early (in a loop nested in it too)."""
    return any(isinstance(node, ENDS_BLOCK) for node in own_nodes(body))


def _counted(loop: ast.For, rebound: set[str]) -> bool:
    """Whether ``loop`` walks ``range(...)`` of names not in ``rebound``."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
        return False
    return not it.keywords and all(_stable(arg, rebound) for arg in it.args)


def _stable(node: ast.expr, rebound: set[str]) -> bool:
    """A count made of constants and of names or attributes (``self.n_steps``, ``args.steps``) the
    function does not rebind, with arithmetic."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    if isinstance(node, ast.Attribute):
        return _stable(node.value, rebound)
    if isinstance(node, ast.Name):
        return node.id not in rebound
    if isinstance(node, ast.BinOp):
        return _stable(node.left, rebound) and _stable(node.right, rebound)
    return False
