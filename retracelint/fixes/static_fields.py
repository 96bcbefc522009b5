"""RTL201 / RTL202 at a static field of a registered dataclass (``field(metadata=dict(static=True))``,
``eqx.field(static=True)``, ``struct.field(pytree_node=False)``, ``jax.tree.static()``, or a name in
``register_dataclass``'s ``meta_fields``, which moves to ``data_fields``) whose value changes: the field
is made a leaf of the pytree, so that jax traces it instead of keying its cache on it.

Inside the jitted function the field is then a traced value: the fix is made when every read of it there
(``runtime.ftol`` in the jitted def, its nested functions and the module's functions it is handed to)
works on a traced value, as ``closure_args`` decides for a value a closure reads. The class may be
used by other jitted functions, elsewhere in the project, that need it concrete, and a leaf must be an
array or a number: only a user can check those, so the fix is unsafe.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    Start,
    dataclass_field,
    dotted,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.closure_args import FOLLOW_DEPTH, imported_name, why_static
from retracelint.fixes.static_closure import defining_path
from retracelint.model import Finding
from retracelint.summarise.apis import DIFFERENTIABLE_TYPES, DIFFERENTIATES

_FIELDS = frozenset(
    {
        "field",
        "dataclasses.field",
        "eqx.field",
        "equinox.field",
        "struct.field",
        "flax.struct.field",
        "jax.tree.static",
    }
)
# ``dataclasses.field`` with static=True put in its metadata by the call itself.
_STATIC_BY_ITSELF = frozenset({"jax.tree.static"})
_REGISTER_DATACLASS = frozenset(
    {"jax.tree_util.register_dataclass", "tree_util.register_dataclass", "register_dataclass"}
)
_PARTIALS = frozenset({"partial", "functools.partial"})
# RTL201/RTL202's message at a static field names it with its class.
_NAMED = re.compile(r"^static field (\w+)\.(\w+)\b")
# The keywords that make a field static, with the value that does.
_STATIC_KEYWORDS = {"static": True, "pytree_node": False}
# Methods that build the object or its treedef: they read every field, as it is.
_PYTREE_METHODS = frozenset(
    {"__init__", "tree_flatten", "tree_unflatten", "__repr__", "__eq__", "__hash__"}
)


def make_leaf(source: Source, finding: Finding) -> Rewrite | Refusal:
    field_def = _field_at(source, finding)
    path, where = finding.location.path, source
    if field_def is None:
        home = _named_class(source, finding)
        if home is not None:
            path, where, cls, name = home
            field_def = next((f for f in map(_field, cls.body) if f and f[0] == name), None)
            listed = _meta_to_data(source, finding, where, cls, name)
            if field_def is None and listed is not None:
                return _in(path, finding, listed)
    if field_def is None:
        return _aux_to_child(source, finding, home)
    name, call = field_def
    kept = _without_static(call)
    if isinstance(kept, Refusal):
        return kept
    reason = _needs_static(source, finding, name)
    if reason is not None:
        return Refusal(f"{name} must stay static: {reason}")
    func = _plain_field(where, call)
    if isinstance(func, Refusal):
        return func
    args = [where.code(a) for a in call.args] + kept
    new = f"{func[0]}({', '.join(args)})"
    made = Rewrite(replace={where.span(call): parse_expression(new)}, imports=func[1], unsafe=True)
    return _in(path, finding, made)


def _in(path: str, finding: Finding, rewrite: Rewrite | Refusal) -> Rewrite | Refusal:
    """The rewrite of the file at ``path``, made from the finding's own."""
    if isinstance(rewrite, Refusal) or path == finding.location.path:
        return rewrite
    return Rewrite(elsewhere={path: rewrite}, unsafe=True)


def _named_class(source: Source, finding: Finding) -> tuple[str, Source, ast.ClassDef, str] | None:
    """The class and field the message names (``static field Reading.gain``), with the file that
    declares the class."""
    named = _NAMED.match(finding.message)
    home = _class_home(source, finding, named.group(1)) if named else None
    return (*home, named.group(2)) if home and named else None


def _plain_field(source: Source, call: ast.Call) -> tuple[str, tuple[str, ...]] | Refusal:
    """The field call without what makes it static, and the import that needs: ``jax.tree.static()``
    is ``dataclasses.field()`` with static metadata, so it becomes that."""
    if dotted(call.func) not in _STATIC_BY_ITSELF:
        return source.code(call.func), ()
    return dataclass_field(source)


def _meta_to_data(
    source: Source, finding: Finding, where: Source, cls: ast.ClassDef, name: str
) -> Rewrite | Refusal | None:
    """A field ``register_dataclass(Cls, data_fields=[...], meta_fields=[...])`` lists as meta (as a
    call, or a ``partial`` of it decorating the class) moves to ``data_fields``; None when the class
    is not registered so."""
    call = _registration(where, cls)
    lists = [_names_listed(call, k) for k in ("data_fields", "meta_fields")] if call else []
    if not lists or lists[0] is None or lists[1] is None or name not in lists[1][1]:
        return None
    (data, data_names), (meta, meta_names) = lists  # type: ignore[misc]
    reason = (
        _needs_static(source, finding, name, frozenset(data_names))
        or _needs_static_in_class(where, cls, name)
        or _differentiated(source, finding, cls, name)
    )
    if reason is not None:
        return Refusal(f"{name} must stay static: {reason}")
    quote = where.code(meta.elts[meta_names.index(name)])
    return Rewrite(
        replace={
            _inside_parentheses(where, meta): parse_expression(
                _names_display(where, meta, [e for e in meta.elts if where.code(e) != quote])
            ),
            _inside_parentheses(where, data): parse_expression(
                _names_display(where, data, data.elts, quote)
            ),
        },
        unsafe=True,
    )


def _class_home(
    source: Source, finding: Finding, name: str
) -> tuple[str, Source, ast.ClassDef] | None:
    """The file whose top level defines class ``name``, found from the files the finding names (its
    own, the jit site's, those on its call path) and the modules beside them they import it from."""
    paths = [finding.location.path]
    if finding.jit_site is not None:
        paths.append(finding.jit_site.location.path)
    paths += [step.location.path for step in finding.call_path]
    for path in dict.fromkeys(paths):
        start = source if path == finding.location.path else source.neighbour(path)
        home = defining_path(start, name, path) if start is not None else None
        where = (start if home == path else source.neighbour(home)) if home else None
        cls = _top_class(where, name)
        if home is not None and where is not None and cls is not None:
            return home, where, cls
    return _beside(source, name, paths)


def _top_class(source: Source | None, name: str) -> ast.ClassDef | None:
    body = source.tree.body if source is not None else []
    return next((s for s in body if isinstance(s, ast.ClassDef) and s.name == name), None)


def _beside(source: Source, name: str, paths: list[str]) -> tuple[str, Source, ast.ClassDef] | None:
    """The one module in the folders of ``paths`` whose top level defines class ``name``: the
    objects may reach the jitted function from a third module (the script that makes them), which
    imports the class where the jitted module does not."""
    folders = dict.fromkeys(Path(p).parent for p in paths)
    found = []
    for folder in folders:
        for candidate in sorted(folder.glob("*.py")):
            path = str(candidate)
            if path in paths or f"class {name}".encode() not in _bytes(candidate):
                continue
            where = source.neighbour(path)
            cls = _top_class(where, name)
            if where is not None and cls is not None:
                found.append((path, where, cls))
    return found[0] if len(found) == 1 else None


def _bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _registration(source: Source, cls: ast.ClassDef) -> ast.Call | None:
    """``register_dataclass``'s call with the field lists: a ``partial`` of it decorating ``cls``, or a
    top-level call on ``cls``."""
    for decorator in cls.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and dotted(decorator.func) in _PARTIALS
            and decorator.args
            and dotted(decorator.args[0]) in _REGISTER_DATACLASS
        ):
            return decorator
    for stmt in source.tree.body:
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if (
            isinstance(value, ast.Call)
            and dotted(value.func) in _REGISTER_DATACLASS
            and value.args
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id == cls.name
        ):
            return value
    return None


def _names_listed(call: ast.Call, keyword: str) -> tuple[ast.List | ast.Tuple, list[str]] | None:
    """The list or tuple display of names given as ``keyword``, with the names."""
    value = next((k.value for k in call.keywords if k.arg == keyword), None)
    if not isinstance(value, (ast.List, ast.Tuple)):
        return None
    names = [e.value for e in value.elts if isinstance(e, ast.Constant)]
    if len(names) != len(value.elts) or not all(isinstance(n, str) for n in names):
        return None
    return value, names  # type: ignore[return-value]


def _names_display(
    source: Source, node: ast.List | ast.Tuple, elts: list[ast.expr], added: str = ""
) -> str:
    """The display's items (as written) with ``added`` after them; a tuple's without its
    parentheses, which the rewrite keeps."""
    items = [source.code(e) for e in elts] + ([added] if added else [])
    if isinstance(node, ast.List):
        return f"[{', '.join(items)}]"
    if not items:
        return "()"
    return ", ".join(items) + ("," if len(items) == 1 else "")


def _aux_to_child(
    source: Source,
    finding: Finding,
    home: tuple[str, Source, ast.ClassDef, str] | None = None,
) -> Rewrite | Refusal:
    """``aux = (self.dt, self.rtol)`` in ``tree_flatten``: ``self.dt`` moves to the end of the children
    and leaves ``None`` in its place, and ``tree_unflatten`` first puts it back where it was, so that
    the rest of both methods reads what it read before. Elsewhere (the finding at what an object is
    made with), where the field the message names (``home``) is one the jitted function or a method
    of its class needs concrete, the refusal says so: no form of the fix would do."""
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    aux = source.parent(node) if node is not None else None
    flatten = next((a for a in source.ancestors(node) if isinstance(a, ast.FunctionDef)), None)
    cls = source.parent(flatten) if flatten is not None else None
    if (
        not isinstance(node, ast.Attribute)
        or not isinstance(aux, ast.Tuple)
        or flatten is None
        or flatten.name != "tree_flatten"
        or not isinstance(cls, ast.ClassDef)
    ):
        needed = home and (
            _needs_static(source, finding, home[3])
            or _needs_static_in_class(home[1], home[2], home[3])
        )
        if needed:
            return Refusal(f"{home[3]} must stay static: {needed}")  # type: ignore[index]
        return Refusal(
            "a static field not declared as name: type = field(...) or in tree_flatten's aux tuple"
        )
    index = aux.elts.index(node)
    if any(isinstance(e, ast.Starred) for e in aux.elts[: index + 1]):
        return Refusal("the aux tuple unpacks a sequence before it")
    children = _children_of(flatten, aux)
    unflatten = next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "tree_unflatten"), None
    )
    if children is None or unflatten is None:
        return Refusal("tree_flatten does not return (children tuple, aux tuple) as displays")
    if [dotted(d) for d in unflatten.decorator_list] != ["classmethod"] or len(
        unflatten.args.args
    ) != 3:
        return Refusal("tree_unflatten is not a classmethod of (cls, aux, children)")
    reason = _needs_static(source, finding, node.attr) or _needs_static_in_class(
        source, cls, node.attr
    )
    if reason is not None:
        return Refusal(f"{node.attr} must stay static: {reason}")
    items = [source.code(e) for e in children.elts] + [source.code(node)]
    aux_name, children_name = (a.arg for a in unflatten.args.args[1:])
    put_back = parse_statement(
        f"{aux_name}, {children_name} = (*{aux_name}[:{index}], {children_name}[-1],"
        f" *{aux_name}[{index + 1}:]), {children_name}[:-1]\n"
    )
    first = next(
        (
            s
            for s in unflatten.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ),
        None,
    )
    if first is None:
        return Refusal("tree_unflatten has no statement")
    appended = ", ".join(items) + ("," if len(items) == 1 else "")
    return Rewrite(
        replace={
            source.span(node): parse_expression("None"),
            _inside_parentheses(source, children): parse_expression(appended),
        },
        insert_before={source.start(first): [put_back]},
        unsafe=True,
    )


def _inside_parentheses(source: Source, node: ast.Tuple) -> tuple[Start, Start]:
    """A tuple's span as libcst gives it: ast counts its parentheses, libcst does not (and keeps
    them as they are around the new tuple)."""
    (line, col), (end_line, end_col) = source.span(node)
    lines = source.text.splitlines()
    if lines[line - 1][col : col + 1] == "(" and lines[end_line - 1][end_col - 1 : end_col] == ")":
        return (line, col + 1), (end_line, end_col - 1)
    return (line, col), (end_line, end_col)


def _children_of(flatten: ast.FunctionDef, aux: ast.Tuple) -> ast.Tuple | None:
    """The children tuple display ``tree_flatten`` returns beside ``aux`` (directly, or through names
    each assigned once)."""
    returns = [n for n in ast.walk(flatten) if isinstance(n, ast.Return)]
    if len(returns) != 1 or not isinstance(returns[0].value, ast.Tuple):
        return None
    pair = returns[0].value.elts
    if len(pair) != 2:
        return None
    shown = [_display(flatten, e) for e in pair]
    return shown[0] if shown[1] is aux and isinstance(shown[0], ast.Tuple) else None


def _display(flatten: ast.FunctionDef, node: ast.expr) -> ast.expr | None:
    if not isinstance(node, ast.Name):
        return node
    assigned = [
        s
        for s in ast.walk(flatten)
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == node.id for t in s.targets)
    ]
    return assigned[0].value if len(assigned) == 1 and len(assigned[0].targets) == 1 else None


def _needs_static_in_class(source: Source, cls: ast.ClassDef, name: str) -> str | None:
    """Why a method of the class (traced when a jitted function calls it) needs ``self.name``
    concrete."""
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method.name in _PYTREE_METHODS:
            continue
        me = method.args.args[0].arg if method.args.args else None
        reads = [
            n
            for n in ast.walk(method)
            if isinstance(n, ast.Attribute) and n.attr == name and dotted(n.value) == me
        ]
        found = why_static(source, method, reads, FOLLOW_DEPTH)
        if found is not None:
            return found.reason if isinstance(found, Refusal) else f"{method.name} {found}"
    return None


def _field_at(source: Source, finding: Finding) -> tuple[str, ast.Call] | None:
    """The static field declared at the finding's line, or the one a keyword of a constructor of a
    class of this module sets there (``Cylinder(..., part_id=i)``)."""
    line = finding.location.line
    for cls in ast.walk(source.tree):
        if isinstance(cls, ast.ClassDef):
            for stmt in cls.body:
                field = _field(stmt)
                if field is not None and stmt.lineno == line:
                    return field
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    keyword = source.parent(node) if node is not None else None
    call = source.parent(keyword) if isinstance(keyword, ast.keyword) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        return None
    named = call.func.id
    cls = next(
        (s for s in source.tree.body if isinstance(s, ast.ClassDef) and s.name == named), None
    )
    fields = [_field(stmt) for stmt in cls.body] if cls is not None else []
    return next((f for f in fields if f is not None and f[0] == keyword.arg), None)  # type: ignore[union-attr]


def _field(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """``name: type = field(...)``: the name and the field call."""
    if (
        isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and isinstance(stmt.value, ast.Call)
        and dotted(stmt.value.func) in _FIELDS
    ):
        return stmt.target.id, stmt.value
    return None


def _without_static(call: ast.Call) -> list[str] | Refusal:
    """The field call's keywords (as text) without the one that makes it static."""
    kept, dropped = [], dotted(call.func) in _STATIC_BY_ITSELF
    for keyword in call.keywords:
        if keyword.arg in _STATIC_KEYWORDS:
            if not _is_constant(keyword.value, _STATIC_KEYWORDS[keyword.arg]):
                return Refusal(f"{keyword.arg}= is not a literal")
            dropped = True
        elif keyword.arg == "metadata":
            if not _only_static(keyword.value):
                return Refusal("its metadata holds more than static=True")
            dropped = True
        else:
            kept.append(ast.unparse(keyword))
    return kept if dropped else Refusal("the field is not marked static by its own keywords")


def _is_constant(node: ast.expr, value: bool) -> bool:
    return isinstance(node, ast.Constant) and node.value is value


def _only_static(node: ast.expr) -> bool:
    """``dict(static=True)`` or ``{"static": True}``."""
    if isinstance(node, ast.Call) and dotted(node.func) == "dict" and not node.args:
        return [k.arg for k in node.keywords] == ["static"] and _is_constant(
            node.keywords[0].value, True
        )
    if isinstance(node, ast.Dict) and len(node.keys) == 1:
        key = node.keys[0]
        return (
            isinstance(key, ast.Constant)
            and key.value == "static"
            and _is_constant(node.values[0], True)
        )
    return False


def _differentiated(source: Source, finding: Finding, cls: ast.ClassDef, name: str) -> str | None:
    """Why the field cannot be a leaf of the object the jitted function differentiates
    (``jax.value_and_grad(loss)(obj, ...)``): one not annotated as a float or an array may be an
    integer, which jax does not differentiate."""
    fdef, home, param = source.jitted_def(finding), source.jit_home(finding), finding.parameter
    annotation = next(
        (
            s.annotation
            for s in cls.body
            if isinstance(s, ast.AnnAssign)
            and isinstance(s.target, ast.Name)
            and s.target.id == name
        ),
        None,
    )
    if (
        fdef is None
        or home is None
        or (annotation is not None and dotted(annotation) in DIFFERENTIABLE_TYPES)
    ):
        return None
    for call in ast.walk(fdef):
        made = call.func if isinstance(call, ast.Call) else None
        if not (
            isinstance(made, ast.Call) and imported_name(home, dotted(made.func)) in DIFFERENTIATES
        ):
            continue
        if any(isinstance(a, ast.Name) and a.id == param for a in call.args):  # type: ignore[union-attr]
            kind = ast.unparse(annotation) if annotation is not None else "not annotated"
            return (
                f"line {call.lineno} differentiates {param}, whose {name} is {kind}: jax"
                " differentiates no integer leaf"
            )
    return None


def _needs_static(
    source: Source, finding: Finding, name: str, leaves: frozenset[str] = frozenset()
) -> str | None:
    """Why the jitted function needs the field concrete (a read of ``param.name`` in it), or None.
    ``leaves``: the class's other fields that are leaves of the pytree."""
    site = finding.jit_site
    if site is None or not finding.parameter:
        return "the finding names no jitted function"
    where: Source | None = source
    if site.location.path != finding.location.path:  # the jitted function is in another module
        where = source.neighbour(site.location.path)
        if where is None:
            return f"{site.location.path} cannot be read"
    fdef = next(
        (
            n
            for n in ast.walk(where.tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name == site.name
            and n.lineno <= site.location.line <= (n.end_lineno or n.lineno)
        ),
        None,
    )
    if fdef is None:
        return f"the def of {site.name} is not where the jit site says"
    reads = [
        n
        for n in ast.walk(fdef)
        if isinstance(n, ast.Attribute)
        and n.attr == name
        and isinstance(n.value, ast.Name)
        and n.value.id == finding.parameter
    ]
    # the field is made a leaf: a copy of the object with it (or another leaf) set to the traced
    # value holds it as a leaf
    found = why_static(where, fdef, reads, FOLLOW_DEPTH, leaves | {name})
    return found.reason if isinstance(found, Refusal) else found
