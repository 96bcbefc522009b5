"""RTL201 / RTL202: a method jitted with ``self`` static (the JAX FAQ's "mark self static" recipe, with
``__hash__``/``__eq__`` over its attributes) re-traces for every instance whose attributes differ. When
the body needs some of them concrete (a shape, ``range``, control flow) ``self`` cannot simply be made
traced; its class is made a pytree instead (``@jax.tree_util.register_pytree_node_class``): the
attributes the body (and the methods of ``self`` it reaches) only computes with become leaves, traced,
and the rest aux data, compared as the static ``self`` was; ``self`` then leaves ``static_argnums``.

Only a plain class is rewritten: no base class, decorator, ``__slots__`` or pytree methods of its own,
every attribute assigned at the top of ``__init__`` and nowhere else in the class, and ``self`` read in
the jitted body only as ``self.x`` (a method reached that way is followed). Another module may build or
flatten the object differently (``copy``, ``pickle``, ``jax.tree.map`` over a container holding it),
so the fix is unsafe.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from retracelint.fixes.base import Refusal, Rewrite, Source, has_binding, parse_statement
from retracelint.fixes.static_params import jitted, needs_static, reads_need_static
from retracelint.model import Finding

_PYTREE = "jax.tree_util.register_pytree_node_class"
_OWN = frozenset({"tree_flatten", "tree_unflatten", "__slots__"})
_DEPTH = 3  # how deep methods of self reached from the jitted body are followed


@dataclass(frozen=True)
class PytreeClass:
    """The class to register, its attributes in ``__init__``'s order split into the leaves (traced)
    and the aux data (static), and the code of the two methods a pytree class defines."""

    cls: ast.ClassDef
    leaves: tuple[str, ...]
    aux: tuple[str, ...]
    needs_import: bool

    def methods(self) -> list[str]:
        def pack(names: tuple[str, ...]) -> str:
            return f"({', '.join(f'self.{n}' for n in names)}{',' if len(names) == 1 else ''})"

        def unpack(names: tuple[str, ...], value: str) -> str:
            if not names:
                return ""
            targets = ", ".join(f"obj.{n}" for n in names)
            return f"    ({targets}{',' if len(names) == 1 else ''}) = {value}\n"

        flatten = (
            "def tree_flatten(self):\n"
            "    # leaves: what the jitted methods compute with; aux: what they need concrete\n"
            f"    return {pack(self.leaves)}, {pack(self.aux)}\n"
        )
        unflatten = (
            "@classmethod\n"
            "def tree_unflatten(cls, aux, leaves):\n"
            "    obj = object.__new__(cls)  # as __init__ left it, without running it again\n"
            + unpack(self.aux, "aux")
            + unpack(self.leaves, "leaves")
            + "    return obj\n"
        )
        return [flatten, unflatten]


def self_as_pytree(source: Source, finding: Finding) -> Rewrite | Refusal:
    """The static ``self`` of a jitted method traced, its class made a pytree (unsafe)."""
    found = jitted(source, finding)
    if isinstance(found, Refusal):
        return found
    why = needs_static(source, found)
    if why is None:
        return Refusal(f"{found.name} can be traced as it is")
    plan = as_pytree(source, found.fdef, found.name, why)
    if isinstance(plan, Refusal):
        return plan
    replace = found.without(source)
    if isinstance(replace, Refusal):
        return replace
    return Rewrite(
        replace=replace,
        insert_before={source.start(found.fdef): pytree_statements(plan)},
        decorate={source.start(plan.cls): (_PYTREE,)},
        imports=("import jax",) if plan.needs_import else (),
        unsafe=True,
    )


def as_pytree(
    source: Source, fdef: ast.FunctionDef | ast.AsyncFunctionDef, name: str, why: str
) -> PytreeClass | Refusal:
    """How ``fdef``'s class becomes a pytree so that its static ``self`` (``name``) can be traced;
    ``why``: the reason ``self`` itself must stay static, given when nothing of it can be traced."""
    cls = source.parent(fdef)
    positional = [a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)]
    if not isinstance(cls, ast.ClassDef) or positional[:1] != [name] or fdef.decorator_list[1:]:
        return Refusal(f"{name} must stay static: {why}")
    plain = _plain(cls)
    if plain is not None:
        return Refusal(f"{name} must stay static: {why}; {cls.name} {plain}")
    attributes = _attributes(cls)
    if isinstance(attributes, str):
        return Refusal(f"{name} must stay static: {why}; {attributes}")
    reads = _reads(source, cls, fdef, attributes)
    if isinstance(reads, str):
        return Refusal(f"{name} must stay static: {why}; {reads}")
    leaves = tuple(a for a in attributes if reads.get(a))
    if not leaves:
        return Refusal(f"{name} must stay static: {why}")
    aux = tuple(a for a in attributes if a not in leaves)
    jax_ok = has_binding(source, "jax", "jax")
    if not jax_ok and "jax" in source.module_names:
        return Refusal(f"{name} must stay static: {why}; the module binds jax to something else")
    return PytreeClass(cls, leaves, aux, needs_import=not jax_ok)


def pytree_statements(plan: PytreeClass) -> list:
    import libcst as cst

    first, second = (parse_statement(code) for code in plan.methods())
    return [first, second.with_changes(leading_lines=[cst.EmptyLine(indent=False)])]


def _plain(cls: ast.ClassDef) -> str | None:
    """Why ``cls`` is not a plain class an unflatten can rebuild attribute by attribute."""
    if cls.decorator_list:
        return "is decorated"
    if cls.keywords or any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return "has a base class"
    defined = {
        n.name if not isinstance(n, ast.Assign) else getattr(n.targets[0], "id", "")
        for n in cls.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign))
    }
    own = sorted(defined & _OWN)
    return f"defines {own[0]} already" if own else None


def _attributes(cls: ast.ClassDef) -> tuple[str, ...] | str:
    """The attributes ``__init__`` assigns at its top level, in order; why not, when another method
    assigns one or ``__init__`` assigns one only on some path."""
    init = _method(cls, "__init__")
    if init is None or not init.args.args:
        return f"{cls.name} has no __init__ that assigns its attributes"
    me = init.args.args[0].arg
    top = [t for stmt in init.body for t in _assigned(stmt, me)]
    everywhere = [t for stmt in ast.walk(init) for t in _assigned(stmt, me)]
    missing = sorted(set(everywhere) - set(top))
    if missing:
        return f"__init__ assigns self.{missing[0]} only on some path"
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method is not init:
            other = method.args.args[0].arg if method.args.args else None
            changed = [t for stmt in ast.walk(method) for t in _assigned(stmt, other)]
            if other and changed:
                return f"{method.name} assigns self.{changed[0]}, which a pytree would not carry"
    return tuple(dict.fromkeys(top))


def _assigned(stmt: ast.AST, me: str | None) -> list[str]:
    """The attributes of ``me`` that the assignment ``stmt`` stores."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    else:
        return []
    return [
        node.attr
        for target in targets
        for node in ast.walk(target)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == me
        and isinstance(node.ctx, ast.Store)
    ]


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next(
        (
            n
            for n in cls.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
        ),
        None,
    )


def _reads(
    source: Source, cls: ast.ClassDef, fdef: ast.AST, attributes: tuple[str, ...]
) -> dict[str, bool] | str:
    """Each attribute the jitted body reads (through the methods of self it reaches too), with
    whether every read works on a traced value; why not, when self is used otherwise."""
    out: dict[str, bool] = {}
    seen: set[str] = set()
    pending = [(fdef, _DEPTH)]
    while pending:
        fn, depth = pending.pop()
        args = fn.args.args  # type: ignore[attr-defined]
        me = args[0].arg if args else None
        by_attribute: dict[str, list[ast.AST]] = {}
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Name) and node.id == me):
                continue
            parent = source.parent(node)
            if not isinstance(parent, ast.Attribute) or not isinstance(parent.ctx, ast.Load):
                return f"line {node.lineno} uses self other than by reading its attributes"
            method = _method(cls, parent.attr)
            if method is not None:
                if method.decorator_list or depth == 0:
                    return f"line {node.lineno} reaches self.{parent.attr}, which is not followed"
                if parent.attr not in seen:
                    seen.add(parent.attr)
                    pending.append((method, depth - 1))
            elif parent.attr in attributes:
                by_attribute.setdefault(parent.attr, []).append(parent)
            elif not _class_level(cls, parent.attr):
                return (
                    f"line {node.lineno} reads self.{parent.attr}, which __init__ does not assign"
                )
        for attribute, nodes in by_attribute.items():
            traced = not isinstance(reads_need_static(source, fn, nodes, set()), str)
            out[attribute] = out.get(attribute, True) and traced
    return out


def _class_level(cls: ast.ClassDef, name: str) -> bool:
    """Whether the class body binds ``name`` (a constant every instance shares)."""
    return any(
        isinstance(stmt, (ast.Assign, ast.AnnAssign))
        and any(
            isinstance(t, ast.Name) and t.id == name
            for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
        )
        for stmt in cls.body
    )
