"""RTL301 at a lax loop run outside jit (``jax.lax.scan(step, ...)``, ``while_loop``, ``fori_loop``, ...,
handed a def or lambda made anew at each call of the function that runs it): that function jitted
instead, so the loop and its bodies are traced with it, once, and not at every call.

Unsafe: what the function returns is computed by XLA as one program (the same numbers within float
tolerance) and its body runs once, at the trace, not at every call. So the fix is made only where that
body is a straight run of assignments into a ``return`` of arrays, calling nothing but jax and the
functions it is handed or defines; each argument it uses where a traced one would not work must be a
function (made static), and every call in the file passes one defined once (a module-level def or an
import): a new object at each call would trace again. Anything else leaves the file alone, with why.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
    has_binding,
    module_bindings,
)
from retracelint.fixes.closure_args import partial_name, why_static
from retracelint.model import Finding

# The lax primitives that trace the function they are handed, keyed by where the finding names them.
LAX_LOOPS = frozenset(
    f"jax.lax.{name}" for name in ("scan", "fori_loop", "while_loop", "map", "cond", "switch")
)
_JAX_ROOTS = ("jax.", "jnp.", "lax.")
# Calls that act on the host: under jit they run once, at the trace, or fail on a traced value.
_HOST_CALLS = frozenset(
    {"print", "float", "int", "bool", "jax.device_get", "jax.block_until_ready"}
)
_HOST_METHODS = frozenset(
    {"item", "tolist", "append", "extend", "insert", "pop", "update", "add", "write"}
)
_FOLLOW_DEPTH = 3  # how deep the module's functions an argument is handed to are followed


def jit_runner(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The module-level function that runs the finding's lax loop, jitted; None when the finding is
    not at an eager lax loop."""
    site, loc = finding.jit_site, finding.location
    if site is None or site.wrapper not in LAX_LOOPS:
        return None
    loop = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    runner = (
        next((a for a in source.ancestors(loop) if isinstance(a, ast.FunctionDef)), None)
        if loop is not None
        else None
    )
    if runner is None or source.parent(runner) is not source.tree:
        return Refusal(f"{site.wrapper} does not run in a module-level function")
    if runner.decorator_list:
        return Refusal(f"{runner.name} is decorated already")
    why = _not_traceable(source, runner)
    if why is not None:
        return Refusal(f"{runner.name} {why}, which a jit runs once, as it traces")
    statics = _static_parameters(source, runner)
    if isinstance(statics, Refusal):
        return statics
    return _decorated(source, runner, statics)


def _body(runner: ast.FunctionDef) -> list[ast.stmt]:
    body = runner.body
    docstring = body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    return body[1:] if docstring else body


def _not_traceable(source: Source, runner: ast.FunctionDef) -> str | None:
    """Why the runner's body may do something other than compute arrays from its arguments: a
    statement other than a def, an assignment or the return; a call of something but jax, its
    arguments and its own defs outside those defs; a call that acts on the host anywhere; a result
    not made by jax. None when it does not."""
    for node in ast.walk(runner):
        if not isinstance(node, ast.Call):
            continue
        called = dotted(node.func)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if called in _HOST_CALLS or method in _HOST_METHODS:
            return f"calls {called or method} at line {node.lineno}"
    body = _body(runner)
    for stmt in body:
        if not isinstance(stmt, (ast.FunctionDef, ast.Assign, ast.AugAssign, ast.Return)):
            kind = (
                "an expression"
                if isinstance(stmt, ast.Expr)
                else f"a {type(stmt).__name__.lower()}"
            )
            return f"has {kind} statement at line {stmt.lineno}"
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return "does not end by returning its result"
    args = runner.args
    if args.vararg or args.kwarg:
        return "takes *args or **kwargs"
    own = _parameters(runner) | {s.name for s in body if isinstance(s, ast.FunctionDef)}
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef):
            continue  # traced by the lax loop already: jit traces it the same way
        for node in _outside_functions(stmt):
            if isinstance(node, ast.Call) and not _jax_or_own(node, own):
                return f"calls {dotted(node.func) or 'a call'} at line {node.lineno}"
    arrays = _array_names(body)
    returned = body[-1].value
    if not _array_made(returned, arrays):
        return f"returns {source.code(returned)}, which jit would give back as arrays"
    return None


def _parameters(runner: ast.FunctionDef) -> set[str]:
    args = runner.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def _outside_functions(stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of ``stmt`` but those inside the lambdas and defs it holds (run when traced)."""
    found, stack = [], [stmt]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(
            child
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, (ast.Lambda, ast.FunctionDef))
        )
    return found


def _jax_or_own(call: ast.Call, own: set[str]) -> bool:
    """A call of jax (a function or a method of an array it made) or of a name the runner binds."""
    called = dotted(call.func)
    if called.startswith(_JAX_ROOTS) or called in own:
        return True
    return isinstance(call.func, ast.Attribute) and not called  # a method of a computed value


def _array_names(body: list[ast.stmt]) -> set[str]:
    """The names the body binds, in order, to what jax makes."""
    arrays: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign) and _array_made(stmt.value, arrays):
            arrays |= {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return arrays


def _array_made(node: ast.expr, arrays: set[str]) -> bool:
    """Whether ``node`` is made by jax (arrays, or a tuple of them): jit gives back the same."""
    if isinstance(node, ast.Call):
        return dotted(node.func).startswith(_JAX_ROOTS)
    if isinstance(node, ast.Name):
        return node.id in arrays
    if isinstance(node, ast.Subscript):
        return _array_made(node.value, arrays)
    if isinstance(node, ast.Attribute):
        return _array_made(node.value, arrays)
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(_array_made(e, arrays) for e in node.elts)
    if isinstance(node, ast.BinOp):
        sides = (node.left, node.right)
        return any(_array_made(s, arrays) for s in sides) and all(
            _array_made(s, arrays) or isinstance(s, ast.Constant) for s in sides
        )
    if isinstance(node, ast.UnaryOp):
        return _array_made(node.operand, arrays)
    return False


def _static_parameters(source: Source, runner: ast.FunctionDef) -> list[str] | Refusal:
    """The runner's parameters that a jit must take static: the functions it calls. Every other one
    must work traced; every call of the runner in this file must pass each static one a function
    defined once."""
    uses = {
        name: [
            n
            for n in ast.walk(runner)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        ]
        for name in sorted(_parameters(runner))
    }
    statics = [
        name
        for name, reads in uses.items()
        if any(isinstance(p := source.parent(u), ast.Call) and p.func is u for u in reads)
    ]
    traced_already = _called_in_bodies(runner, statics)
    for name, reads in uses.items():
        if name in statics:
            continue
        # what goes into a function the loop's body calls with traced values works traced
        reads = [u for u in reads if _handed_to(source, u) not in traced_already]
        why = why_static(source, runner, reads, _FOLLOW_DEPTH)
        if isinstance(why, Refusal):
            return why
        if why is not None:
            return Refusal(f"{name} must stay static: {why}")
    for name in statics:
        given = _passed(source, runner, name)
        if isinstance(given, Refusal):
            return given
    return statics


def _called_in_bodies(runner: ast.FunctionDef, names: list[str]) -> set[str]:
    """Those of ``names`` called inside a def or lambda of the runner: the lax loop traces them."""
    inner = [n for n in ast.walk(runner) if isinstance(n, (ast.FunctionDef, ast.Lambda))]
    return {
        dotted(call.func)
        for fn in inner
        if fn is not runner
        for call in ast.walk(fn)
        if isinstance(call, ast.Call) and dotted(call.func) in names
    }


def _handed_to(source: Source, read: ast.expr) -> str:
    """The name of the function ``read`` is an argument of, through arithmetic and indexing; ""
    when it is none."""
    current, parent = read, source.parent(read)
    while isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare)) or (
        isinstance(parent, ast.Subscript) and parent.value is current
    ):
        current, parent = parent, source.parent(parent)
    if isinstance(parent, ast.Call) and current in parent.args:
        return dotted(parent.func)
    return ""


def _passed(
    source: Source, runner: ast.FunctionDef, name: str, depth: int = _FOLLOW_DEPTH
) -> Refusal | None:
    """A refusal when a call of the runner in this file passes ``name`` anything but a function
    defined once: a module-level def or import, or a parameter the caller never binds again whose
    own calls pass one (followed ``depth`` callers up)."""
    params = [a.arg for a in (*runner.args.posonlyargs, *runner.args.args)]
    once = module_bindings(source.tree)
    for call in ast.walk(source.tree):
        if not (isinstance(call, ast.Call) and dotted(call.func) == runner.name):
            continue
        given = {k.arg: k.value for k in call.keywords}
        given.update(zip(params, call.args, strict=False))
        value = given.get(name)
        if value is None:
            continue  # the default, made once with the def
        bound = once.get(value.id, []) if isinstance(value, ast.Name) else []
        if len(bound) == 1 and isinstance(bound[0], (ast.FunctionDef, ast.Import, ast.ImportFrom)):
            continue
        caller = _caller_parameter(source, call, value)
        handed = (
            _passed(source, caller, value.id, depth - 1)  # type: ignore[union-attr]
            if caller is not None and depth > 1
            else Refusal("")
        )
        if handed is not None:
            return Refusal(
                f"{name} must be static, and line {call.lineno} passes it "
                f"{source.code(value)}, which may be a new object at each call"
            )
    return None


def _caller_parameter(source: Source, call: ast.Call, value: ast.expr) -> ast.FunctionDef | None:
    """The module-level function ``call`` is in, when ``value`` is one of its parameters that it never
    binds again (the same object for the whole of each of its calls)."""
    caller = next((a for a in source.ancestors(call) if isinstance(a, ast.FunctionDef)), None)
    if (
        caller is None
        or source.parent(caller) is not source.tree
        or not isinstance(value, ast.Name)
        or value.id not in _parameters(caller)
        or value.id in bound_names(caller.body)
    ):
        return None
    return caller


def _decorated(source: Source, runner: ast.FunctionDef, statics: list[str]) -> Rewrite | Refusal:
    imports: tuple[str, ...] = () if has_binding(source, "jax", "jax") else ("import jax",)
    if "jax" in source.module_names and imports:
        return Refusal("the module binds jax to something other than the jax package")
    if not statics:
        return Rewrite(decorate={source.start(runner): ("jax.jit",)}, imports=imports, unsafe=True)
    partial = partial_name(source)
    if partial is None:
        return Refusal("partial is bound to something other than functools.partial here")
    if partial == "partial" and not has_binding(source, "partial", "functools.partial"):
        imports += ("from functools import partial",)
    listed = ", ".join(f'"{s}"' for s in statics) + ("," if len(statics) == 1 else "")
    decorator = f"{partial}(jax.jit, static_argnames=({listed}))"
    return Rewrite(decorate={source.start(runner): (decorator,)}, imports=imports, unsafe=True)
