"""RTL403 for a state that starts as ``None`` and that the jitted function fills on its first call
(``if cache is None: cache = jnp.zeros(...)`` or ``if total is None: return grads``): the first call
traces with ``None``, every later one with an array, so the function traces twice. The fix runs that
branch where the function is called instead, so the jitted function only ever sees the array:

- ``p = expr`` as the branch: the call passes ``expr if p is None else p`` for the state, the
  function's parameters in ``expr`` replaced by what the call passes for them;
- ``return expr`` as the branch: the call becomes ``(expr if p is None else f(...))``.

The branch stays in the jitted function (another caller may still pass ``None``). It now runs outside
``jit`` (floats may round differently) and the first call no longer reaches the jitted function, so
the fix is unsafe. The file is left alone when the branch is more than that one statement, reads a
name the call's scope does not see as the function does, or when what the call passes is not a plain
name or attribute (evaluated twice, or not at all, it must have no effect of its own).
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import (
    BUILTINS,
    Refusal,
    Rewrite,
    Source,
    dotted,
    module_bindings,
    parse_expression,
    rebound_in_functions,
)
from retracelint.model import Finding
from retracelint.summarise.syntax import free_names, is_none

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
NOT_AT_NONE = "the finding is not at a None"
# Expressions whose value or effect differs when evaluated again or left out.
_IMPURE = (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Subscript)


def run_first_branch(source: Source, finding: Finding) -> Rewrite | Refusal:
    state = _state(source, finding)
    if isinstance(state, Refusal):
        return state
    fn = _jitted(source, finding)
    if isinstance(fn, Refusal):
        return fn
    branch = _first_branch(fn, finding.parameter or "")
    if isinstance(branch, Refusal):
        return branch
    stale = _stale_globals(source, fn, branch)
    if stale:
        return Refusal(
            f"the branch reads {', '.join(sorted(stale))}, which may change between calls"
        )
    scope = _scope(source, state)
    calls = [
        c for c in _calls(source, scope, fn.name) if _passed(c, fn, finding.parameter) is not None
    ]
    calls = [
        c for c in calls if source.code(_passed(c, fn, finding.parameter)) == source.code(state)
    ]  # type: ignore[arg-type]
    calls = [c for c in calls if not _already_fixed(source, c, state)]
    if not calls:
        return Refusal(f"no call of {fn.name} passes {source.code(state)} as {finding.parameter}")
    rewrite = Rewrite(unsafe=True)
    for call in calls:
        made = _rewrite_call(source, call, fn, branch, state)
        if isinstance(made, Refusal):
            return made
        rewrite.replace.update(made)
    return rewrite


# -- what starts as None -----------------------------------------------------------------------------------
def _state(source: Source, finding: Finding) -> ast.expr | Refusal:
    """The name or ``self.x`` that the finding's ``None`` is assigned to."""
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    holder = source.parent(node)
    if isinstance(holder, ast.Assign) and node in holder.targets and is_none(holder.value):
        node = holder.value  # reported at what is assigned: self.total = None
        holder = source.parent(node)
    if not is_none(node):
        return Refusal(NOT_AT_NONE)
    if isinstance(holder, ast.Tuple):  # token, cache = first, None
        assign = source.parent(holder)
        if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1):
            return Refusal("the None is not assigned to one name")
        target = assign.targets[0]
        if not (isinstance(target, ast.Tuple) and len(target.elts) == len(holder.elts)):
            return Refusal("the None is not assigned to one name")
        target = target.elts[holder.elts.index(node)]
    elif isinstance(holder, ast.Assign) and len(holder.targets) == 1:
        target = holder.targets[0]
    else:
        return Refusal("the None is not assigned to one name")
    if isinstance(target, ast.Name) or (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ):
        return target
    return Refusal("the None is not assigned to a name or an attribute of self")


def _scope(source: Source, state: ast.expr) -> ast.AST:
    """Where calls see the state: the function assigning a name, the class for ``self.x``."""
    kinds = (ast.ClassDef,) if isinstance(state, ast.Attribute) else _FUNCTIONS
    return next((a for a in source.ancestors(state) if isinstance(a, kinds)), source.tree)


# -- the jitted function and its first branch --------------------------------------------------------------
def _jitted(source: Source, finding: Finding) -> ast.FunctionDef | Refusal:
    site = finding.jit_site
    if site is None or site.location.path != finding.location.path:
        return Refusal("the jitted function is in another file")
    for stmt in source.tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == site.name:
            if [dotted(d) for d in stmt.decorator_list] in (["jax.jit"], ["jit"]):
                return stmt
            return Refusal(f"{stmt.name} is not jitted by one plain jax.jit decorator")
    return Refusal(f"{site.name} is not a def at module level here")


def _first_branch(fn: ast.FunctionDef, param: str) -> ast.Assign | ast.Return | Refusal:
    body = fn.body[1:] if ast.get_docstring(fn) is not None else fn.body
    first = body[0] if body else None
    if not (
        isinstance(first, ast.If)
        and not first.orelse
        and isinstance(first.test, ast.Compare)
        and dotted(first.test.left) == param
        and len(first.test.ops) == 1
        and isinstance(first.test.ops[0], ast.Is)
        and isinstance(first.test.comparators[0], ast.Constant)
        and first.test.comparators[0].value is None
    ):
        return Refusal(f"{fn.name} does not start with 'if {param} is None:'")
    if len(first.body) != 1:
        return Refusal(f"the 'if {param} is None:' branch is more than one statement")
    (stmt,) = first.body
    returned = isinstance(stmt, ast.Return) and stmt.value is not None
    if returned or (isinstance(stmt, ast.Assign) and [dotted(t) for t in stmt.targets] == [param]):
        value = stmt.value
    else:
        return Refusal(f"the 'if {param} is None:' branch is not 'return ...' or '{param} = ...'")
    if value.lineno != value.end_lineno:  # written at the call, it would need the def's indentation
        return Refusal(f"the 'if {param} is None:' branch spans lines")
    if param in free_names(value):
        return Refusal(f"the branch reads {param}, which is None there")
    if any(
        isinstance(n, (*_FUNCTIONS, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await))
        for n in ast.walk(value)
    ):
        return Refusal("the branch makes a function or binds a name")
    return stmt  # type: ignore[return-value]


def _params(fn: ast.FunctionDef, keyword_only: bool = False) -> list[str]:
    """The def's positional parameters in order (and its keyword-only ones, when asked)."""
    named = [*fn.args.posonlyargs, *fn.args.args, *(fn.args.kwonlyargs if keyword_only else [])]
    return [a.arg for a in named]


def _stale_globals(source: Source, fn: ast.FunctionDef, branch: ast.stmt) -> set[str]:
    """The module names the branch reads that are not bound once at the top level."""
    reads = free_names(branch.value) - set(_params(fn, keyword_only=True))  # type: ignore[attr-defined]
    bindings = module_bindings(source.tree)
    moved = rebound_in_functions(source.tree)
    return {
        n
        for n in reads
        if (n not in bindings and n not in BUILTINS) or n in moved or len(bindings.get(n, [])) > 1
    }


# -- the calls ---------------------------------------------------------------------------------------------
def _calls(source: Source, scope: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(scope) if isinstance(n, ast.Call) and dotted(n.func) == name]


def _passed(call: ast.Call, fn: ast.FunctionDef, param: str | None) -> ast.expr | None:
    """What ``call`` passes for ``param``; None where a starred argument hides it."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    params = _params(fn)
    by_keyword = {k.arg: k.value for k in call.keywords}
    if param in by_keyword:
        return by_keyword[param]
    index = params.index(param) if param in params else len(call.args)
    return call.args[index] if index < len(call.args) else None


def _already_fixed(source: Source, call: ast.Call, state: ast.expr) -> bool:
    """A call the return form rewrote already: ``(expr if state is None else f(state, ...))``."""
    holder = source.parent(call)
    return (
        isinstance(holder, ast.IfExp)
        and holder.orelse is call
        and isinstance(holder.test, ast.Compare)
        and source.code(holder.test.left) == source.code(state)
    )


def _pure(node: ast.expr) -> bool:
    return not any(isinstance(n, _IMPURE) for n in ast.walk(node))


def _rewrite_call(
    source: Source, call: ast.Call, fn: ast.FunctionDef, branch: ast.stmt, state: ast.expr
) -> dict | Refusal:
    value: ast.expr = branch.value  # type: ignore[attr-defined]
    args = {p: _passed(call, fn, p) for p in _params(fn, keyword_only=True)}
    used = {p for p in free_names(value) if p in args}
    missing = sorted(p for p in used if args[p] is None)
    if missing:
        return Refusal(f"the call at line {call.lineno} does not pass {', '.join(missing)} plainly")
    # what the branch reads is evaluated twice; the return form leaves the call's other arguments
    # unevaluated on the first call
    every = [*call.args, *(k.value for k in call.keywords)]
    needed = every if isinstance(branch, ast.Return) else [args[p] for p in used]
    if not all(_pure(a) for a in needed if a is not None):
        return Refusal(
            f"the call at line {call.lineno} passes a value made by a call: the fix would run it twice or not at all"
        )
    shadowed = (free_names(value) - used) & _locals_at(source, call)
    if shadowed:
        return Refusal(f"the call at line {call.lineno} binds {', '.join(sorted(shadowed))} itself")
    made = _substituted(source, value, {p: source.code(args[p]) for p in used})  # type: ignore[arg-type]
    test = f"{source.code(state)} is None"
    if isinstance(branch, ast.Return):
        if not _stands_alone(source, call):
            return Refusal(f"the call at line {call.lineno} is part of a larger expression")
        return {source.span(call): parse_expression(f"{made} if {test} else {source.code(call)}")}
    passed = next(a for a in every if source.code(a) == source.code(state))
    return {source.span(passed): parse_expression(f"{made} if {test} else {source.code(passed)}")}


def _stands_alone(source: Source, call: ast.Call) -> bool:
    """Whether a conditional expression may take the call's place without parentheses (the
    rewrite keeps the call's own)."""
    holder = source.parent(call)
    if isinstance(holder, (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr, ast.keyword)):
        return True
    return isinstance(holder, ast.Call) and call in holder.args


def _locals_at(source: Source, call: ast.Call) -> set[str]:
    owner = next((a for a in source.ancestors(call) if isinstance(a, _FUNCTIONS)), None)
    if owner is None:
        return set()
    names = {a.arg for a in ast.walk(owner.args) if isinstance(a, ast.arg)}
    return names | {
        n.id for n in ast.walk(owner) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }


def _substituted(source: Source, value: ast.expr, args: dict[str, str]) -> str:
    """``value``'s text with each parameter it reads replaced by what the call passes (in parentheses
    where that is more than a name or an attribute)."""
    text = source.code(value)
    names = sorted(
        (n for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in args),
        key=lambda n: (n.lineno, n.col_offset),
        reverse=True,
    )
    lines = text.split("\n")
    for n in names:
        row = n.lineno - value.lineno
        start = n.col_offset - (value.col_offset if row == 0 else 0)
        end = start + len(n.id)
        line = lines[row]
        parsed = ast.parse(args[n.id], mode="eval").body
        atom = isinstance(parsed, ast.Constant) or bool(dotted(parsed))
        new = args[n.id] if atom else f"({args[n.id]})"
        lines[row] = line[:start] + new + line[end:]
    return "\n".join(lines)
