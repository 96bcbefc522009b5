"""RTL201 / RTL202: a static parameter whose value changes is made traced: it leaves ``static_argnums``
/ ``static_argnames`` (the keyword goes when it is left empty), when the jitted body uses it only where a
traced value works: arithmetic, comparisons feeding array code, arguments of array functions other than
those known to take traced values there (``accepts_traced`` in the API table), values returned or assigned to names used
the same way, ``len`` of it, and the parameter of a module-level def of this file it is handed to, used
the same way there. A use in Python control flow, ``range``, an index, a slice, an attribute or a call of
anything else needs it static: the file is left alone and the reason names the use.

A value indexed, unpacked or iterated is a tuple, list or dict, which a traced argument is only when every
caller passes one (a pytree whose structure, like a static value, is part of the cache key): that fix is
unsafe. Making a value traced whose body needs it static (rounding a float to the values a loop takes,
say) would change what the program computes, so it is never made.

Only ``static_argnums`` lists positions, so removing one position moves no other: the function's
parameters stay as they are.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    module_bindings,
    parse_expression,
)
from retracelint.model import Finding
from retracelint.summarise.apis import accepts_traced, transform_traces

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
_DEPTH = 3  # how deep the module's functions a value is handed to are followed


def make_traced(source: Source, finding: Finding) -> Rewrite | Refusal:
    found = jitted(source, finding)
    if isinstance(found, Refusal):
        return found
    uses = _needs_static(source, found.fdef, found.name)
    if isinstance(uses, str):
        return Refusal(f"{found.name} must stay static: {uses}")
    sequence = _length_may_change(source, finding)
    if sequence is not None:
        return Refusal(
            f"{found.name} is passed {sequence}, whose length may change: traced, each length is"
            " still another trace"
        )
    new = found.without(source)
    if isinstance(new, Refusal):
        return new
    return Rewrite(replace=new, unsafe=uses.container)


@dataclass(frozen=True)
class Jitted:
    """The def a finding's static parameter belongs to, that parameter, and where it is declared
    static."""

    fdef: ast.FunctionDef | ast.AsyncFunctionDef
    name: str
    jit_call: ast.AST
    static_call: ast.Call

    def without(self, source: Source) -> dict | Refusal:
        """The rewrite that drops the parameter from the static ones."""
        positional = [a.arg for a in (*self.fdef.args.posonlyargs, *self.fdef.args.args)]
        index = positional.index(self.name) if self.name in positional else None
        new = _without(source, self.jit_call, self.static_call, self.name, index)
        if isinstance(new, Refusal):
            return new
        return {source.span(self.static_call): parse_expression(new)}


def jitted(source: Source, finding: Finding) -> Jitted | Refusal:
    """The finding's jitted def and static parameter, when it is declared static in one place."""
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
    return Jitted(fdef, name, *declarations[0])


def needs_static(source: Source, found: Jitted) -> str | None:
    """Why the body needs the parameter static, as ``make_traced``'s reason gives it."""
    uses = _needs_static(source, found.fdef, found.name)
    return uses if isinstance(uses, str) else None


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


@dataclass(frozen=True)
class _Uses:
    """What the reads of a value that may be traced come to: ``returned``, some read reaches a
    ``return`` (of a helper: its caller's call gives the value on); ``container``, it is read as a
    tuple, list or dict (indexed, unpacked, iterated), which a traced argument is only when every
    caller passes one: only a user can check that, so the fix is unsafe."""

    returned: bool = False
    container: bool = False


def _needs_static(source: Source, fn: ast.AST, name: str, depth: int = _DEPTH) -> str | _Uses:
    """Why the body of ``fn`` needs ``name`` static (the first use that does), or how it is used."""
    return reads_need_static(source, fn, _loads(fn, name), {name}, depth)


def reads_need_static(
    source: Source, fn: ast.AST, reads: list[ast.AST], names: set[str], depth: int = _DEPTH
) -> str | _Uses:
    """Why ``fn`` needs the value it reads at ``reads`` static (the first use that does), or how it
    is used; ``names``: those already followed (the value's own)."""
    batches = [reads]
    returned = container = False
    while batches:
        for node in batches.pop():
            use = _use(source, node, depth)
            if isinstance(use, str):
                return f"line {node.lineno} {use}"
            returned |= use.returned
            container |= use.container
            for new in use.names:
                if new not in names:
                    names.add(new)
                    batches.append(_loads(fn, new))
    return _Uses(returned, container)


def _loads(fn: ast.AST, name: str) -> list[ast.AST]:
    return [
        n
        for n in ast.walk(fn)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


@dataclass(frozen=True)
class _Use:
    """One read where a traced value works: the names its value goes on to (assigned, unpacked or
    iterated; their reads are checked next), and what ``_Uses`` records."""

    names: tuple[str, ...] = ()
    returned: bool = False
    container: bool = False


def _use(source: Source, node: ast.AST, depth: int) -> str | _Use:
    """How one read of the value is used: where a traced value works (``_Use``), or why it must be
    static."""
    current, container = node, False
    while True:
        parent = source.parent(current)
        negated = isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
        if isinstance(parent, (*_KEEP_TRACED, ast.UnaryOp)) and not negated:
            current = parent
            continue
        if isinstance(parent, (ast.ListComp, ast.GeneratorExp)) and current is parent.elt:
            current = parent  # a list of traced values is read where the list is
            continue
        if isinstance(parent, (ast.Tuple, ast.List)) and isinstance(parent.ctx, ast.Load):
            paired = _paired_target(source, parent, current)
            if paired is not None:
                return _Use((paired,), container=container)
            current = parent  # a tuple of traced values is read where the tuple is
            continue
        if isinstance(parent, ast.Subscript) and current is parent.value:
            if not isinstance(parent.ctx, ast.Load):
                return "assigns into it"
            current, container = parent, True  # an element of a traced tuple or dict is traced
            continue
        if isinstance(parent, ast.Return) or (
            isinstance(parent, ast.Lambda) and current is parent.body
        ):
            # a lambda's result: what ``jax.tree.map(lambda p: p - lr * p, ...)`` makes
            return _Use(returned=True, container=container)
        call = source.parent(parent) if isinstance(parent, ast.keyword) else parent
        if isinstance(parent, ast.keyword) and not isinstance(call, ast.Call):
            return "passes it on"
        if isinstance(call, ast.Call) and current is not call.func:
            helper = _helper_use(source, call, current, depth)
            if isinstance(helper, str):
                return helper
            if helper is None:
                why = _call_use(source, call, current)
                return why if why is not None else _Use(container=container)
            container |= helper.container
            if not helper.returned:
                return _Use(container=container)
            current = call  # the helper gives the value back: its call is read next
            continue
        if (
            isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension))
            and current is parent.iter
        ):
            # iterating a traced tuple runs as many times as the static one: its length is its
            # structure, part of the cache key like a static value
            targets = _target_names(parent.target)
            if targets is None:
                return "iterates it into something other than names"
            return _Use(targets, container=True)
        if (
            isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign))
            and current is parent.value
        ):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                return _Use((targets[0].id,), container=container)
            unpacked = _target_names(targets[0]) if len(targets) == 1 else None
            if unpacked is None:
                return "assigns it to something other than a name"
            return _Use(unpacked, container=True)
        if isinstance(parent, _CONTROL):
            return "decides Python control flow"
        return f"uses it in {type(parent).__name__ if parent else 'the module'}"


def _paired_target(source: Source, display: ast.Tuple | ast.List, element: ast.AST) -> str | None:
    """The name ``a, b = x, y`` binds ``element`` of its right-hand side to, element by element."""
    assign = source.parent(display)
    if not (
        isinstance(assign, ast.Assign)
        and assign.value is display
        and len(assign.targets) == 1
        and isinstance(assign.targets[0], (ast.Tuple, ast.List))
        and len(assign.targets[0].elts) == len(display.elts)
    ):
        return None
    target = assign.targets[0].elts[display.elts.index(element)]  # type: ignore[arg-type]
    return target.id if isinstance(target, ast.Name) else None


def _target_names(target: ast.expr) -> tuple[str, ...] | None:
    """The names a ``for`` target or an assignment binds, when it binds only names."""
    if isinstance(target, ast.Name):
        return (target.id,)
    if isinstance(target, (ast.Tuple, ast.List)):
        names = [_target_names(e) for e in target.elts]
        if all(n is not None for n in names):
            return tuple(n for group in names for n in group)  # type: ignore[union-attr]
    return None


def _helper_use(
    source: Source, call: ast.Call, argument: ast.AST, depth: int
) -> str | _Uses | None:
    """How a module-level def of this file, undecorated, uses the parameter ``argument`` is passed
    to (the reason it must be static names the call); None when the call is not of such a def.
    ``len`` gives a Python int of a traced tuple or array too (its length is its structure)."""
    called = dotted(call.func)
    if called == "len" and called not in module_bindings(source.tree):
        return _Uses()
    helper = next(
        (
            s
            for s in source.tree.body
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == called
        ),
        None,
    )
    if helper is None or helper.decorator_list:
        return None
    param = _parameter(helper.args, call, argument)
    if param is None:
        return f"passes it to {called} where its parameter is not known"
    if depth == 0:
        return f"passes it to {called}, followed no deeper"
    uses = _needs_static(source, helper, param, depth - 1)
    if isinstance(uses, str):
        return f"passes it to {called}, whose {uses}"
    return uses


def _parameter(args: ast.arguments, call: ast.Call, argument: ast.AST) -> str | None:
    """The parameter of a def with ``args`` that ``call`` passes ``argument`` to."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    index = next((i for i, a in enumerate(call.args) if a is argument), None)
    if index is not None:
        return positional[index] if index < len(positional) else None
    keyword = next((k.arg for k in call.keywords if k.value is argument), None)
    named = [a.arg for a in (*args.args, *args.kwonlyargs)]
    return keyword if keyword in named else None


def _transform_made(source: Source, func: ast.expr) -> ast.Call | None:
    """The call that made the function ``func`` names: itself (``jax.grad(f)(x)``) or the one
    assignment of its name in the enclosing def (``grad_fn = jax.grad(f)``)."""
    made = _bound_value(source, func) if isinstance(func, ast.Name) else func
    return made if isinstance(made, ast.Call) else None


def _bound_value(source: Source, name: ast.Name) -> ast.expr | None:
    """The value of the one assignment of ``name`` in the def around it."""
    scope = next(
        (
            a
            for a in source.ancestors(name)
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
        ),
        None,
    )
    if scope is None:
        return None
    bound = [
        n
        for n in ast.walk(scope)
        if isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load)
    ]
    assign = source.parent(bound[0]) if len(bound) == 1 else None
    return assign.value if isinstance(assign, ast.Assign) else None


_SEQUENCES = frozenset({"tuple", "list", "sorted"})
# List methods that change its length.
_RESIZING = frozenset({"append", "extend", "insert", "pop", "remove", "clear"})


def _length_may_change(source: Source, finding: Finding) -> str | None:
    """The sequence the finding's call passes when its length may change from call to call: made
    (``tuple(xs)``) of a list the module resizes (``xs.remove(c)``), or by a comprehension that
    filters. Traced, its length is its structure, still part of the cache key."""
    loc = finding.location
    caller = source if source.path in (None, loc.path) else source.neighbour(loc.path)
    if caller is None:
        return None
    node = caller.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if isinstance(node, ast.Name):
        node = _bound_value(caller, node)
    if isinstance(node, ast.Call) and dotted(node.func) in _SEQUENCES and len(node.args) == 1:
        resized = _resized(caller.tree, dotted(node.args[0]))
    else:
        filtered = isinstance(node, (ast.ListComp, ast.GeneratorExp))
        resized = filtered and any(g.ifs for g in node.generators)  # type: ignore[union-attr]
    return caller.code(node) if resized else None  # type: ignore[arg-type]


def _resized(tree: ast.Module, target: str) -> bool:
    """Whether the module changes the length of the list ``target`` (a dotted name) names."""
    if not target:
        return False
    for node in ast.walk(tree):
        func = node.func if isinstance(node, ast.Call) else None
        resizing = isinstance(func, ast.Attribute) and func.attr in _RESIZING
        if resizing and dotted(func.value) == target:  # type: ignore[union-attr]
            return True
        if isinstance(node, ast.Delete) and any(
            isinstance(t, ast.Subscript) and dotted(t.value) == target for t in node.targets
        ):
            return True
    return False


def _call_use(source: Source, call: ast.Call, argument: ast.AST) -> str | None:
    called = dotted(call.func)
    keyword = next((k.arg for k in call.keywords if k.value is argument), None)
    position = next((i for i, a in enumerate(call.args) if a is argument), None)
    made = _transform_made(source, call.func)
    if made is not None and keyword is None:
        configured = len(made.args) > 1 or any(
            k.arg in ("argnums", "in_axes") for k in made.keywords
        )
        if transform_traces(dotted(made.func), configured, position):
            return None  # differentiated or mapped: traced by the transform whatever it is given
    if not called.startswith(_ARRAY_PREFIXES):
        return f"passes it to {called or 'a call'}"
    if not accepts_traced(called.rsplit(".", 1)[-1], position, keyword):
        return f"gives {called} an argument that is not known to take a traced value"
    return None
