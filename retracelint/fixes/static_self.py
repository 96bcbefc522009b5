"""RTL201 / RTL202: a static object whose attributes change (a jitted method's ``self`` under the JAX
FAQ's "mark self static" recipe, or a settings object passed static, hashed by its attributes or a frozen
dataclass) re-traces for every value. When the body needs some attributes concrete (a shape, ``range``,
control flow) the object cannot simply be made traced; its class is made a pytree instead: the
attributes the body (and the methods of the object it reaches) only computes with become leaves,
traced, and the rest aux data, compared as the static object was; the parameter then leaves
``static_argnums``/``static_argnames``. A plain class gets ``tree_flatten``/``tree_unflatten`` and
``@jax.tree_util.register_pytree_node_class``; a dataclass ``jax.tree_util.register_dataclass`` with
its data and meta fields.

The class is the method's own, or else the parameter's annotation or the one class of the jitted
function's module that has every attribute the body reads of it. Only a class without base classes,
other decorators, ``__slots__``, ``__post_init__`` or pytree methods of its own is rewritten, whose
attributes ``__init__`` assigns at its top (a dataclass: its fields) and no other method assigns, read
in the jitted body only as ``obj.x`` (a method reached that way is followed). Another module may
build or flatten the object differently (``copy``, ``jax.tree.map`` over a container holding it), so
the fix is unsafe.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from retracelint.fixes.base import (
    Codemod,
    Refusal,
    Rewrite,
    Source,
    dotted,
    has_binding,
    parse_statement,
)
from retracelint.fixes.static_params import jitted, needs_static, reads_need_static
from retracelint.model import Finding

_PYTREE = "jax.tree_util.register_pytree_node_class"
_OWN = frozenset({"tree_flatten", "tree_unflatten", "__slots__", "__post_init__"})
_DATACLASSES = frozenset({"dataclass", "dataclasses.dataclass"})
_DEPTH = 3  # how deep methods of self reached from the jitted body are followed


@dataclass(frozen=True)
class PytreeClass:
    """The class to register, its attributes in ``__init__``'s order split into the leaves (traced)
    and the aux data (static), and the code of the two methods a pytree class defines."""

    cls: ast.ClassDef
    leaves: tuple[str, ...]
    aux: tuple[str, ...]
    dataclass: bool
    imports: tuple[str, ...]

    def decorator(self) -> str:
        if not self.dataclass:
            return _PYTREE
        data, meta = (", ".join(f'"{n}"' for n in names) for names in (self.leaves, self.aux))
        return (
            f"partial(jax.tree_util.register_dataclass, data_fields=[{data}], meta_fields=[{meta}])"
        )

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
            "    # leaves: what jitted code computes with; aux: what it needs concrete\n"
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


def static_as_pytree(source: Source, finding: Finding, fresh: bool = False) -> Rewrite | Refusal:
    """The static object traced, its class made a pytree (unsafe). ``fresh``: the object is made
    anew for each call (RTL204), so a class compared by identity gains even with no leaf: its aux
    data is compared by value."""
    found = jitted(source, finding)
    if isinstance(found, Refusal):
        return found
    why = needs_static(source, found)
    if why is None:
        return Refusal(f"{found.name} can be traced as it is")
    plan = as_pytree(source, found.fdef, found.name, why, fresh)
    if isinstance(plan, Refusal):
        return plan
    replace = found.without(source)
    if isinstance(replace, Refusal):
        return replace
    return Rewrite(
        replace=replace,
        insert_before={} if plan.dataclass else _after_init(source, plan),
        decorate={source.start(plan.cls): (plan.decorator(),)},
        imports=plan.imports,
        unsafe=True,
    )


def fresh_as_pytree(source: Source, finding: Finding) -> Rewrite | Refusal:
    """RTL204: a fresh object passed static, its class made a pytree where the function is jitted."""
    return where_jitted(source, finding, lambda home, f: static_as_pytree(home, f, fresh=True))


def where_jitted(source: Source, finding: Finding, codemod: Codemod) -> Rewrite | Refusal:
    """``codemod`` made in the file where the finding's function is jitted (this file or the one the
    finding's jit site names: one fix edits both or neither)."""
    site = finding.jit_site
    if site is None:
        return Refusal("the finding names no jitted function")
    if site.location.path == finding.location.path:
        return codemod(source, finding)
    home = source.neighbour(site.location.path)
    if home is None:
        return Refusal(f"{site.location.path}, where {site.name} is jitted, cannot be read")
    made = codemod(home, finding)
    if isinstance(made, Refusal):
        return made
    return Rewrite(elsewhere={site.location.path: made}, unsafe=True)


def as_pytree(
    source: Source,
    fdef: ast.FunctionDef | ast.AsyncFunctionDef,
    name: str,
    why: str,
    fresh: bool = False,
) -> PytreeClass | Refusal:
    """How the class of ``fdef``'s static parameter ``name`` becomes a pytree so that it can be
    traced; ``why``: the reason the parameter must stay static, given when nothing of it can be."""
    refuse = f"{name} must stay static: {why}"
    if fdef.decorator_list[1:] or not _attributes_read(source, fdef, name):
        return Refusal(refuse)  # not an object whose attributes the body reads: nothing to add
    cls = class_of(source, fdef, name)
    if cls is None:
        return Refusal(f"{refuse}; its class is not known here")
    dataclass = len(cls.decorator_list) == 1 and _decorators(cls) <= _DATACLASSES
    plain = _plain(cls, dataclass)
    if plain is not None:
        return Refusal(f"{refuse}; {cls.name} {plain}")
    attributes = _fields(cls) if dataclass else _attributes(cls)
    if isinstance(attributes, str):
        return Refusal(f"{refuse}; {attributes}")
    reads = attribute_reads(source, cls, fdef, name, attributes)
    if isinstance(reads, str):
        return Refusal(f"{refuse}; {reads}")
    leaves = tuple(a for a in attributes if reads.get(a))
    if not leaves and not (fresh and method_named(cls, "__eq__") is None):
        return Refusal(refuse)
    if fresh:
        # a fresh object's aux data must compare by value, or each new one still re-traces
        unknown = [a for a in attributes if a not in leaves and not set_by_value(cls, a)]
        if unknown:
            return Refusal(f"{refuse}; {cls.name}.{unknown[0]} may not compare by value")
    imports = _imports(source, dataclass)
    if isinstance(imports, str):
        return Refusal(f"{refuse}; {imports}")
    aux = tuple(a for a in attributes if a not in leaves)
    return PytreeClass(cls, leaves, aux, dataclass, imports)


def _attributes_read(source: Source, fdef: ast.AST, name: str) -> set[str]:
    return {
        parent.attr
        for node in ast.walk(fdef)
        if isinstance(node, ast.Name) and node.id == name
        for parent in [source.parent(node)]
        if isinstance(parent, ast.Attribute)
    }


def _decorators(cls: ast.ClassDef) -> set[str]:
    return {dotted(d.func if isinstance(d, ast.Call) else d) for d in cls.decorator_list}


def class_of(
    source: Source, fdef: ast.FunctionDef | ast.AsyncFunctionDef, name: str
) -> ast.ClassDef | None:
    """The class of the parameter: the method's own for its first one, else the annotation's, else
    the one class of the module with every attribute and method the body reads of it."""
    parent = source.parent(fdef)
    positional = [a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)]
    if isinstance(parent, ast.ClassDef) and positional[:1] == [name]:
        return parent
    if isinstance(parent, ast.ClassDef):
        return None
    classes = [s for s in source.tree.body if isinstance(s, ast.ClassDef)]
    every = (*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs)
    arg = next((a for a in every if a.arg == name), None)
    if arg is None:
        return None
    if isinstance(arg.annotation, ast.Name):
        return next((c for c in classes if c.name == arg.annotation.id), None)
    read = _attributes_read(source, fdef, name)
    having = [c for c in classes if read and read <= _members(c)]
    return having[0] if len(having) == 1 else None


def _members(cls: ast.ClassDef) -> set[str]:
    fields = _fields(cls)
    attributes = _attributes(cls)
    own = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for found in (fields, attributes):
        if not isinstance(found, str):
            own |= set(found)
    return own


def _imports(source: Source, dataclass: bool) -> tuple[str, ...] | str:
    """The imports the decorator needs; why it cannot have them (the name is bound otherwise)."""
    needed = [("jax", "jax", "import jax")]
    if dataclass:
        needed.append(("partial", "functools.partial", "from functools import partial"))
    imports = []
    for name, module, statement in needed:
        if has_binding(source, name, module):
            continue
        if name in source.module_names:
            return f"the module binds {name} to something else"
        imports.append(statement)
    return tuple(imports)


def _after_init(source: Source, plan: PytreeClass) -> dict:
    """The two methods, put after ``__init__`` (before it when it ends the class)."""
    body = plan.cls.body
    init = next(i for i, n in enumerate(body) if getattr(n, "name", None) == "__init__")
    where = body[init + 1] if init + 1 < len(body) else body[init]
    return {source.start(where): pytree_statements(plan)}


def pytree_statements(plan: PytreeClass) -> list:
    import libcst as cst

    first, second = (parse_statement(code) for code in plan.methods())
    return [first, second.with_changes(leading_lines=[cst.EmptyLine(indent=False)])]


def _plain(cls: ast.ClassDef, dataclass: bool) -> str | None:
    """Why ``cls`` is not a plain class (or a plain dataclass) an unflatten can rebuild attribute by
    attribute."""
    if cls.decorator_list and not dataclass:
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
    init = method_named(cls, "__init__")
    if init is None or not init.args.args:
        return f"{cls.name} has no __init__ that assigns its attributes"
    me = init.args.args[0].arg
    top = [t for stmt in init.body for t in assigned_attributes(stmt, me)]
    everywhere = [t for stmt in ast.walk(init) for t in assigned_attributes(stmt, me)]
    missing = sorted(set(everywhere) - set(top))
    if missing:
        return f"__init__ assigns self.{missing[0]} only on some path"
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method is not init:
            other = method.args.args[0].arg if method.args.args else None
            changed = [t for stmt in ast.walk(method) for t in assigned_attributes(stmt, other)]
            if other and changed:
                return f"{method.name} assigns self.{changed[0]}, which a pytree would not carry"
    return tuple(dict.fromkeys(top))


def assigned_attributes(stmt: ast.AST, me: str | None) -> list[str]:
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


def method_named(cls: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next(
        (
            n
            for n in cls.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
        ),
        None,
    )


def _fields(cls: ast.ClassDef) -> tuple[str, ...] | str:
    """A dataclass's fields, in order; why not, when one is not set by its constructor."""
    out = []
    for stmt in cls.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        if "ClassVar" in dotted(getattr(stmt.annotation, "value", stmt.annotation)):
            continue
        value = stmt.value
        if isinstance(value, ast.Call) and any(
            k.arg == "init" and not (isinstance(k.value, ast.Constant) and k.value.value)
            for k in value.keywords
        ):
            return f"{cls.name}.{stmt.target.id} is not set by its constructor"
        out.append(stmt.target.id)
    return tuple(out)


def attribute_reads(
    source: Source, cls: ast.ClassDef, fdef: ast.AST, name: str, attributes: tuple[str, ...]
) -> dict[str, bool] | str:
    """Each attribute the jitted body reads of ``name`` (through the methods of the object it
    reaches too), with whether every read works on a traced value; why not, when the object is used
    otherwise."""
    out: dict[str, bool] = {}
    seen: set[str] = set()
    pending: list[tuple[ast.AST, str | None, int]] = [(fdef, name, _DEPTH)]
    while pending:
        fn, me, depth = pending.pop()
        by_attribute: dict[str, list[ast.AST]] = {}
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Name) and node.id == me):
                continue
            parent = source.parent(node)
            if not isinstance(parent, ast.Attribute) or not isinstance(parent.ctx, ast.Load):
                return f"line {node.lineno} uses {me} other than by reading its attributes"
            method = method_named(cls, parent.attr)
            if method is not None:
                if method.decorator_list or depth == 0 or not method.args.args:
                    return f"line {node.lineno} reaches {me}.{parent.attr}, which is not followed"
                if parent.attr not in seen:
                    seen.add(parent.attr)
                    pending.append((method, method.args.args[0].arg, depth - 1))
            elif parent.attr in attributes:
                by_attribute.setdefault(parent.attr, []).append(parent)
            elif not _class_level(cls, parent.attr):
                return f"line {node.lineno} reads {me}.{parent.attr}, which {cls.name} does not set"
        for attribute, nodes in by_attribute.items():
            traced = not isinstance(reads_need_static(source, fn, nodes, set()), str)
            out[attribute] = out.get(attribute, True) and traced
    return out


_SCALARS = frozenset({"int", "float", "str", "bool", "complex"})
_BY_VALUE = frozenset({"tuple", "frozenset", *_SCALARS})


def set_by_value(cls: ast.ClassDef, attribute: str) -> bool:
    """Whether the attribute is set to a value compared by value: a literal, a scalar or tuple made
    by its builtin, arithmetic of those, a parameter or field annotated as a scalar."""
    init = method_named(cls, "__init__")
    annotations = {
        a.arg: dotted(a.annotation) for a in (init.args.args if init else []) if a.annotation
    }
    for stmt in cls.body if init is None else init.body:
        if isinstance(stmt, ast.AnnAssign) and getattr(stmt.target, "id", None) == attribute:
            return dotted(stmt.annotation) in _SCALARS  # a dataclass field
        if isinstance(stmt, ast.Assign) and attribute in assigned_attributes(
            stmt, init.args.args[0].arg
        ):
            return _value_like(stmt.value, annotations)
    return False


def _value_like(node: ast.expr, annotations: dict[str, str]) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return annotations.get(node.id) in _SCALARS
    if isinstance(node, ast.Call):
        return dotted(node.func) in _BY_VALUE
    if isinstance(node, ast.BinOp):
        return _value_like(node.left, annotations) and _value_like(node.right, annotations)
    if isinstance(node, ast.UnaryOp):
        return _value_like(node.operand, annotations)
    return isinstance(node, ast.Tuple) and all(_value_like(e, annotations) for e in node.elts)


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
