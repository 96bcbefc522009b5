"""RTL301: a ``jax.jit(f)`` (or an ``@jax.jit`` nested def) rebuilt in a loop or in a function called
again and again is built once instead: at module level, before the statement that holds it, when everything
it closes over is a module-level name bound once before that statement; else above the outermost loop
around it, when nothing it reads is assigned in that loop.

Both keep the program's meaning: ``jax.jit`` only wraps (it traces at the first call), so building it
earlier changes nothing but how often its cache starts empty, and the function wrapped reads the same
values as before. Anything else it would read (``self``, a value the loop or the call changes, a helper
whose result may differ) is a reason to leave the file alone.
"""

from __future__ import annotations

import ast
import textwrap

from retracelint.fixes.base import (
    BUILTINS,
    Refusal,
    Rewrite,
    Source,
    bound_names,
    dotted,
    module_bindings,
    parse_expression,
    parse_statement,
    rebound_in_functions,
)
from retracelint.model import Finding
from retracelint.summarise.apis import _PARTIALS, _TRANSFORMS
from retracelint.summarise.syntax import _none_test, free_names

# What may sit inside the hoisted ``jax.jit(...)`` besides names: wrappers that only make a new function
# from the one given (no side effect, the same result each time they are called).
PURE_WRAPPERS = frozenset(_TRANSFORMS | _PARTIALS)
_JITS = frozenset({"jax.jit", "jit", "equinox.filter_jit", "eqx.filter_jit", "filter_jit"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (*_FUNCTIONS, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def hoist_jit(source: Source, finding: Finding) -> Rewrite | Refusal:
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if node is None:
        return Refusal("no jit call at the finding's position")
    holder = source.parent(node)
    if (
        isinstance(holder, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node in holder.decorator_list
    ):
        if len(holder.decorator_list) != 1 or jit_decorator(node) is None:
            return Refusal("the jitted def has other decorators")
        return _hoist_def(source, holder)
    if not isinstance(node, ast.Call) or dotted(node.func) not in _JITS:
        return Refusal("the finding is not at a jax.jit(...) call")
    impure = impure_call(node)
    if impure is not None:
        return Refusal(
            f"building it calls {impure}, which might give a different function each time"
        )
    return _hoist_call(source, node)


def jit_decorator(node: ast.expr) -> list[ast.keyword] | None:
    """The keywords of a decorator that only jits, ``@jax.jit`` or ``@partial(jax.jit,
    static_argnums=...)`` (which parameters are static: the def keeps them wherever it is jitted),
    or None for any other decorator."""
    if dotted(node) in _JITS:
        return []
    if not (
        isinstance(node, ast.Call)
        and dotted(node.func) in _PARTIALS
        and len(node.args) == 1
        and dotted(node.args[0]) in _JITS
    ):
        return None
    static = all(k.arg in ("static_argnums", "static_argnames") for k in node.keywords)
    return list(node.keywords) if static else None


def _hoist_call(source: Source, call: ast.Call) -> Rewrite | Refusal:
    where = where_once(source, call, free_names(call))
    if isinstance(where, Refusal):
        return where
    name = source.fresh_name(jitted_name(call))
    code = textwrap.dedent(indented_segment(source, call)).strip()
    statement = parse_statement(f"{name} = {code}\n")
    return Rewrite(
        replace={source.span(call): parse_expression(name)},
        insert_before={source.start(where): [statement]},
        unsafe=made_in_factory(source, where),
    )


def _hoist_def(source: Source, fdef: ast.FunctionDef | ast.AsyncFunctionDef) -> Rewrite | Refusal:
    scopes = [a for a in source.ancestors(fdef) if isinstance(a, _SCOPES)]
    if not scopes:
        return Refusal("the jitted def is already at module level")
    owner = scopes[0]
    if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return Refusal("the jitted def is in a class or a comprehension")
    if _rebinds(owner, fdef):
        return Refusal(f"{fdef.name} is bound again in {owner.name}")
    names = free_names(fdef) | {n for d in fdef.decorator_list for n in free_names(d)}
    where = where_once(source, fdef, names)
    if isinstance(where, Refusal):
        return where
    if where in source.tree.body and fdef.name in module_bindings(source.tree):
        return Refusal(f"the module binds {fdef.name} already")
    try:
        moved = parse_statement(textwrap.dedent(_lines_of(source, fdef)))
    except Exception:
        return Refusal("the def's text does not stand on its own once dedented")
    return Rewrite(
        insert_before={source.start(where): [moved]},
        remove={source.start(fdef)},
        unsafe=made_in_factory(source, where),
    )


def _rebinds(owner: ast.AST, fdef: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``owner`` binds the def's name otherwise too: moved out, the name would stay local."""
    for node in ast.walk(owner):
        if node is fdef:
            continue
        if (
            isinstance(node, ast.Name)
            and not isinstance(node.ctx, ast.Load)
            and node.id == fdef.name
        ):
            return True
        if isinstance(node, (*_FUNCTIONS[:2], ast.ClassDef)) and node.name == fdef.name:
            return True
        if isinstance(node, ast.arg) and node.arg == fdef.name:
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and fdef.name in node.names:
            return True
    return False


def where_once(source: Source, node: ast.AST, names: set[str]) -> ast.stmt | Refusal:
    """The statement before which ``node`` can be built once: the top-level statement holding it,
    when ``names`` are all stable module-level names bound before it; else the outermost loop around
    it in its function, when the loop assigns none of them."""
    ancestors = list(source.ancestors(node))
    top = next((a for a in reversed(ancestors) if isinstance(a, ast.stmt)), None)
    if top is None:
        return Refusal("no statement holds it")
    changing = not_module_stable(source, names, top, ancestors)
    if not changing:
        return top
    owner_index = next(
        (i for i, a in enumerate(ancestors) if isinstance(a, _SCOPES)), len(ancestors)
    )
    loops = [a for a in ancestors[:owner_index] if isinstance(a, _LOOPS)]
    if not loops:
        made = _made_by_factory(ancestors, owner_index, changing)
        if made is not None:
            return made
        return Refusal(
            f"it closes over {', '.join(sorted(changing))}, which may change between calls"
        )
    outer = loops[-1]
    memo = _memo_guard(ancestors[: ancestors.index(outer)])
    if memo is not None:
        # Built once per call already: above the loop it would still be built at every call.
        return Refusal(
            f"it is built once per call already (under `if {memo} is None:`); build it where it is"
            " made once (module level, __init__)"
        )
    assigned = names & bound_names(outer.body + outer.orelse + _loop_head(outer))
    assigned |= {n for n in names if may_mutate(source, outer, n, node)}
    if assigned:
        return Refusal(f"it closes over {', '.join(sorted(assigned))}, which the loop changes")
    return outer


def _made_by_factory(
    ancestors: list[ast.AST], owner_index: int, names: set[str]
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The def of the function holding the node, when it is made by an enclosing function (a factory:
    ``def make_callback(env): def callback(...): jax.jit(env.step)``), directly in that function's
    body, and ``names`` are all the factory's parameters or names it binds once before that def, which
    neither it nor a function inside it binds again: built before the def, once per factory call, the
    node reads the same values as it does at each call of the function made."""
    if owner_index + 1 >= len(ancestors):
        return None
    owner, factory = ancestors[owner_index], ancestors[owner_index + 1]
    if not (isinstance(owner, _FUNCTIONS[:2]) and isinstance(factory, _FUNCTIONS[:2])):
        return None
    if not any(s is owner for s in factory.body):
        return None
    params = {a.arg for a in ast.walk(factory.args) if isinstance(a, ast.arg)}
    before = factory.body[: next(i for i, s in enumerate(factory.body) if s is owner)]
    for name in names:
        bindings = _bindings(factory, name)
        once = bindings == 0 and name in params
        once |= bindings == 1 and name not in params and name in bound_names(before)
        if not once or _nonlocal(factory, name):
            return None
    return owner


def _bindings(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> int:
    """How many times ``function`` (not the functions inside it) binds ``name``."""
    pending, count = list(function.body), 0
    while pending:
        node = pending.pop()
        if isinstance(node, (*_FUNCTIONS[:2], ast.ClassDef)):
            count += node.name == name
            pending.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            count += node.id == name
        elif isinstance(node, ast.alias):
            count += (node.asname or node.name.split(".")[0]) == name
        pending.extend(ast.iter_child_nodes(node))
    return count


def _nonlocal(function: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, (ast.Nonlocal, ast.Global)) and name in n.names for n in ast.walk(function)
    )


def made_in_factory(source: Source, where: ast.stmt) -> bool:
    """Whether ``where_once`` put the node before a def in its factory: the values it closes over
    are then the factory's, which the function made may see changed in place (an object's
    attributes) between its calls, where the node built once has read them once: unsafe."""
    return isinstance(where, _FUNCTIONS[:2]) and not any(s is where for s in source.tree.body)


def _memo_guard(ancestors: list[ast.AST]) -> str | None:
    """The name of a memo among ``ancestors`` (``if predict is None: predict = jax.jit(...)``, or
    ``if not predict:``): an ``if`` that tests a name for None or falsity and whose body binds it."""
    for node in ancestors:
        if not isinstance(node, ast.If):
            continue
        test, none = node.test, _none_test(node.test)
        if none is not None and none[1] == 1:  # the body runs while the name is None
            tested = none[0]
        elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            tested = test.operand.id if isinstance(test.operand, ast.Name) else ""
        else:
            continue
        if tested and tested in bound_names(node.body):
            return tested
    return None


def _loop_head(loop: ast.stmt) -> list[ast.stmt]:
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        return [ast.Assign(targets=[loop.target], value=ast.Constant(None))]
    return []


def may_mutate(
    source: Source,
    loop: ast.AST,
    name: str,
    made: ast.AST,
    handed: bool = True,
    pure: frozenset[str] = frozenset(),
) -> bool:
    """Whether ``loop`` may change what ``name`` holds without assigning it, outside ``made``: by
    storing into an attribute or item of it (``self.model = ...``), calling a method of it
    (``found.append(v)``; not one of ``pure``, which give a new value) or, with ``handed``, handing
    it to a call (which may do either)."""
    inside = {id(n) for n in ast.walk(made)}
    for node in ast.walk(loop):
        if id(node) in inside or not isinstance(node, ast.Name) or node.id != name:
            continue
        parent = source.parent(node)
        while isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node:
            if not isinstance(parent.ctx, ast.Load):
                return True
            node, parent = parent, source.parent(parent)
        if isinstance(parent, ast.Call) and (parent.func is node and node is not None):
            if isinstance(node, ast.Attribute) and node.attr not in pure:
                return True  # a method call on it (or on a part of it)
        elif handed and isinstance(parent, (ast.Call, ast.keyword)):
            return True  # handed to a call
    return False


def not_module_stable(
    source: Source, names: set[str], top: ast.stmt | None, ancestors: list[ast.AST]
) -> set[str]:
    """The names that are not module-level bindings made once, before ``top`` (anywhere, for None:
    read after the module has run) and never rebound."""
    bindings = module_bindings(source.tree)
    rebound = rebound_in_functions(source.tree)
    local: set[str] = set()
    for scope in ancestors:
        if isinstance(scope, _FUNCTIONS):
            local |= {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
            body = scope.body if isinstance(scope.body, list) else [scope.body]
            local |= bound_names(body)  # type: ignore[arg-type]
        elif isinstance(scope, ast.ClassDef):
            local |= bound_names(scope.body)
    out = set()
    for name in names:
        stmts = bindings.get(name, [])
        if name in local or name in rebound or len(stmts) > 1:
            out.add(name)
        elif not stmts:
            if name not in BUILTINS:
                out.add(name)
        elif top is not None and stmts[0].lineno >= top.lineno and not _is_import(stmts[0]):
            out.add(name)  # bound after the statement that would build the jit
    return out


def _is_import(stmt: ast.stmt) -> bool:
    return isinstance(stmt, (ast.Import, ast.ImportFrom))


def impure_call(node: ast.Call) -> str | None:
    """The first call run while the jit is built (not inside a lambda it wraps) that is not a pure
    function wrapper."""
    stack: list[ast.AST] = list(ast.iter_child_nodes(node))
    while stack:
        inner = stack.pop()
        if isinstance(inner, ast.Lambda):
            stack.extend(inner.args.defaults + [d for d in inner.args.kw_defaults if d])
            continue
        if isinstance(inner, ast.Call):
            called = dotted(inner.func)
            if called not in PURE_WRAPPERS:
                return called or "a call"
        stack.extend(ast.iter_child_nodes(inner))
    return None


def jitted_name(call: ast.Call) -> str:
    """``train_step_jit`` for ``jax.jit(train_step)``, ``loss_grad_jit`` for
    ``jax.jit(jax.grad(loss))``, ``jitted`` for a lambda."""
    base = _base_name(call.args[0]) if call.args else "jitted"
    return "jitted" if base == "jitted" else f"{base.lstrip('_') or 'fn'}_jit"


def _base_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call) and node.args:
        wrapper = dotted(node.func).rsplit(".", 1)[-1]
        inner = _base_name(node.args[0])
        return inner if wrapper == "partial" else f"{inner}_{wrapper}"
    return "jitted"


def indented_segment(source: Source, node: ast.AST) -> str:
    """The node's text with its first line padded to where it starts, so that dedent keeps the
    relative indentation of its continuation lines."""
    lines = source.text.splitlines(keepends=True)[node.lineno - 1 : node.end_lineno]
    lines[0] = " " * node.col_offset + lines[0][node.col_offset :]
    lines[-1] = lines[-1][: node.end_col_offset]
    return "".join(lines)


def _lines_of(source: Source, node: ast.stmt) -> str:
    """The whole lines of a statement, decorators included."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    text = "".join(source.text.splitlines(keepends=True)[first - 1 : node.end_lineno])
    return text if text.endswith("\n") else text + "\n"
