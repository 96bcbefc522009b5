"""The module pass: imports, definitions (functions, classes, jit decorators), and the walk of the
top level and of every function body."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.jitspec import Wrapper
from retracelint.model import Location
from retracelint.summarise.apis import (
    _EXTERNAL,
    _GENERATORS,
    _MEMOISER,
    _PARTIALS,
    _PYTREE_REGISTRATIONS,
    dtype_defaults,
)
from retracelint.summarise.closures import lengths_read
from retracelint.summarise.feeding import read_params
from retracelint.summarise.function import FunctionPass
from retracelint.summarise.objects import (
    compared_fields,
    declared_fields,
    field_defaults,
    flattened_static_reads,
    hashed_by_identity,
    registered_static,
)
from retracelint.summarise.points import body_names, spelled_points
from retracelint.summarise.syntax import (
    _BLOCKS,
    _blocks,
    _dotted,
    _is_true,
    _params,
    _returns_cached,
    _statements,
    bound_names,
)
from retracelint.summary import (
    ClassSummary,
    FunctionSummary,
    ModuleSummary,
    Points,
)
from retracelint.values import (
    EMPTY,
    UNKNOWN,
    UNKNOWN_VALUE,
    IterDep,
    RetDep,
    Value,
)

if TYPE_CHECKING:
    from retracelint.summarise.source import SummaryOptions, _Positions


# Bases whose subclasses get an __init__ made from the fields declared in their body.
_FIELD_BASES = frozenset(
    {
        "typing.NamedTuple",
        "NamedTuple",
        "flax.struct.PyTreeNode",
        "flax.linen.Module",
        "equinox.Module",
    }
)


class _ModulePass:
    def __init__(self, summary: ModuleSummary, pos: _Positions, options: SummaryOptions) -> None:
        self.summary = summary
        self.pos = pos
        self.options = options
        # The wrappers known here: the options' and, once the imports are read, this module's own
        # aliases of them (``module_aliases``).
        self.wrappers = options.wrappers
        self.module = summary.module
        # The def of each declared function, so that its body is walked exactly once.
        self.nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        # Each lambda's function, by its node (loop bodies are walked twice), and how many lambdas
        # each scope has, to name them as PyCG does: ``main.<lambda1>``, ``main.f.<lambda2>``.
        self.lambdas: dict[int, FunctionSummary] = {}
        self.lambda_counts: dict[str, int] = {}
        # Module-level names as a function of the module reads them, and imported names, once
        # every global is bound.
        self.global_views: dict[str, Value] = {}
        self.globals_bound = False
        # The module-level names bound once to a display no code resizes (``_displays``).
        self.displays: dict[str, ast.expr] = {}
        # The location of each node asked for: loop bodies are walked twice (the tree outlives the
        # walk, so a node's id stays its own).
        self._locations: dict[int, Location] = {}
        # Per class, the attributes its methods set to a NumPy random generator: known before any
        # method is walked, so that ``self.rng.integers(...)`` in one method is a draw.
        self.generator_fields: dict[str, frozenset[str]] = {}
        # The attributes __init__ makes empty (`jnp.zeros((0, n))`, `[]`), per class.
        self.empty_fields: dict[str, frozenset[str]] = {}

    def run(self, tree: ast.Module) -> None:
        rebound = self._collect_imports(tree)
        self._collect_aliases(tree.body)
        bound = _bound_once(tree.body, rebound)
        self.summary.constants = _int_constants(bound)
        self.displays = _displays(bound, tree.body)
        self.summary.points = _display_points(self.displays)
        self._declare(tree.body, prefix=self.module, cls=None)
        top = FunctionSummary(
            self.summary.toplevel, "<module>", self.pos.of(tree), (), kind="module"
        )
        self.summary.functions[top.qualname] = top
        body_pass = FunctionPass(self, top, None, module_level=True)
        body_pass.run(tree.body)
        self.summary.globals = {
            k: v
            for k, v in body_pass.env.items()
            if v.site is not None or v.ty != UNKNOWN or v.callables
        }
        self.globals_bound = True
        # Module-level functions are walked once every global is known, wherever it is assigned.
        for fn, node, cls in body_pass.deferred:
            body_pass.walk_function(fn, node, cls)

    # -- imports ------------------------------------------------------------------------------------
    def _collect_imports(self, tree: ast.Module) -> set[str]:
        """Every import in the file, wherever it is: a name imported in a function body is still that name.
        Returns the names some function declares ``global``: it may rebind them."""
        imports = self.summary.imports
        rebound: set[str] = set()
        for node in _statements(tree.body):
            if isinstance(node, ast.Global):
                rebound.update(node.names)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        imports[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        imports.setdefault(head, head)
            elif isinstance(node, ast.ImportFrom):
                base = self._resolve_from(node)
                for alias in node.names:
                    if alias.name == "*":
                        if base and base not in self.summary.star_imports:
                            self.summary.star_imports += (base,)
                        continue
                    target = f"{base}.{alias.name}" if base else alias.name
                    imports[alias.asname or alias.name] = target
            elif isinstance(node, ast.Assign) and _assigns_all(node.targets):
                self.summary.exports = _literal_names(node.value)
            elif isinstance(node, ast.AugAssign) and _assigns_all([node.target]):
                more = _literal_names(node.value)
                known = self.summary.exports
                self.summary.exports = (
                    known + more if known is not None and more is not None else None
                )
        return rebound

    def _collect_aliases(self, body: list[ast.stmt]) -> None:
        """Module-level names bound to a jit wrapper, or to a partial of one with keywords only
        (``pmap = functools.partial(jax.pmap, axis_name="i")``): each is that wrapper wherever it
        is used, here (by its name) and in the modules that import it (``aliases``)."""
        found: list[tuple[str, Wrapper]] = []
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef) and not stmt.decorator_list:
                factory = self.factory_of(stmt)
                if factory is not None:
                    found.append((stmt.name, factory))
                    self.wrappers = {**self.wrappers, stmt.name: factory}
                continue
            target = _single_target(stmt)
            value = getattr(stmt, "value", None)
            if target is None or value is None:
                continue
            wrapper = self.alias_of(value)
            if wrapper is not None:
                found.append((target, wrapper))
                self.wrappers = {**self.wrappers, target: wrapper}
        self.summary.wrapper_aliases = tuple(found)

    def alias_of(self, value: ast.expr) -> Wrapper | None:
        """The wrapper ``value`` is: a wrapper's name, a partial that binds only keywords of
        one (a positional argument would be the function it jits), or a call of a function that
        returns one (``jit_with(static_argnames=("n",))``)."""
        wrapper = self.wrapper(value)
        if wrapper is not None or not isinstance(value, ast.Call):
            return wrapper
        made = self.factory_call(value)
        if made is not None:
            wrapper, keywords = made
            given = tuple((k.arg, ast.unparse(k.value)) for k in keywords if k.arg)
            return replace(wrapper, preset=tuple(sorted(dict(wrapper.preset + given).items())))
        if self.canonical(_dotted(value.func) or "") not in _PARTIALS or len(value.args) != 1:
            return None
        wrapper = self.wrapper(value.args[0])
        if wrapper is None or any(k.arg is None for k in value.keywords):
            return None
        given = {k.arg: ast.unparse(k.value) for k in value.keywords if k.arg}
        read = (wrapper.argnums, wrapper.argnames)
        preset = dict(wrapper.preset) | {k: v for k, v in given.items() if k in read}
        return replace(wrapper, preset=tuple(sorted(preset.items())))

    def factory_of(self, node: ast.FunctionDef) -> Wrapper | None:
        """The wrapper a def returns when its body only returns one, or a partial of one whose
        keywords are literals or its own parameters (``return partial(jax.jit,
        static_argnames=static_argnames)``): a decorator factory, whose calls are the wrapper."""
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            return None
        value = body[0].value
        args = node.args
        params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        keywords = value.keywords if isinstance(value, ast.Call) else []
        forwarded = tuple(
            (k.arg, k.value.id)
            for k in keywords
            if k.arg and isinstance(k.value, ast.Name) and k.value.id in params
        )
        if forwarded and isinstance(value, ast.Call):
            names = {kw for kw, _ in forwarded}
            value = ast.Call(value.func, value.args, [k for k in keywords if k.arg not in names])
        wrapper = self.alias_of(value)
        if wrapper is None or (not forwarded and params and self.wrapper(value) is not None):
            return None  # ``return jax.jit`` of a def with parameters: not a factory of jit
        positional = tuple(a.arg for a in (*args.posonlyargs, *args.args))
        return replace(wrapper, factory=positional, forwarded=forwarded)

    def factory_call(self, node: ast.Call) -> tuple[Wrapper, list[ast.keyword]] | None:
        """For a call of a decorator factory (``factory_of``), the wrapper it returns and the
        keywords it passes that wrapper, taken from the call's arguments."""
        wrapper = self.wrappers.get(self.canonical(_dotted(node.func) or ""))
        if wrapper is None or wrapper.factory is None:
            return None
        given = dict(zip(wrapper.factory, node.args, strict=False))
        given |= {k.arg: k.value for k in node.keywords if k.arg}
        keywords = [
            ast.keyword(arg=kw, value=given[param])
            for kw, param in wrapper.forwarded
            if param in given
        ]
        return replace(wrapper, factory=None, forwarded=()), keywords

    def _resolve_from(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = self.module.split(".")
        keep = len(parts) - node.level + (1 if self.summary.is_package else 0)
        base = ".".join(parts[: max(keep, 0)])
        if node.module:
            return f"{base}.{node.module}" if base else node.module
        return base

    def global_value(self, name: str) -> Value:
        """A name the walked function does not bind: a module-level value (its functions named from
        the top level, where it was made), an imported name of the project, or nothing known."""
        value = self.global_views.get(name)
        if value is not None:
            return value
        found = self.summary.globals.get(name)
        if found is not None:
            value = _read_in_function(found)
        elif name in self.summary.imports and not self.summary.imports[name].startswith(_EXTERNAL):
            value = Value(callables=funcrefs.single(("global", self.summary.imports[name])))
        else:
            value = UNKNOWN_VALUE
        if self.globals_bound:
            self.global_views[name] = value
        return value

    def lambda_function(self, node: ast.Lambda, context: FunctionPass) -> FunctionSummary:
        """The function a lambda makes, walked (once) as a def whose body returns its expression."""
        fn = self.lambdas.get(id(node))
        if fn is not None:
            return fn
        scope = self.module if context.module_level else f"{context.fn.qualname}.<locals>"
        count = self.lambda_counts[scope] = self.lambda_counts.get(scope, 0) + 1
        name = f"<lambda{count}>"
        fn = FunctionSummary(
            f"{scope}.{name}",
            name,
            self.pos.of(node),
            _params(node.args),
            parent=None if context.module_level else context.fn.qualname,
        )
        self.summary.functions[fn.qualname] = self.lambdas[id(node)] = fn
        fn.defaults = context.defaults_of(node.args)
        body = ast.copy_location(ast.Return(value=node.body), node.body)
        FunctionPass(self, fn, None, enclosing=context).run([body])
        return fn

    def loc(self, node: ast.AST) -> Location:
        key = id(node)
        known = self._locations.get(key)
        if known is None:
            known = self._locations[key] = self.pos.of(node)
        return known

    def canonical(self, dotted: str) -> str:
        head, _, rest = dotted.partition(".")
        target = self.summary.imports.get(head)
        if target is None:
            return dotted
        return f"{target}.{rest}" if rest else target

    def wrapper(self, node: ast.AST) -> Wrapper | None:
        dotted = _dotted(node)
        if dotted is None:
            return None
        wrapper = self.wrappers.get(self.canonical(dotted))
        return wrapper if wrapper is None or wrapper.factory is None else None

    # -- definitions --------------------------------------------------------------------------------
    def _declare(self, body: list[ast.stmt], prefix: str, cls: ClassSummary | None) -> None:
        """Create summaries for the defs and classes of a module or class body (bodies walked later)."""
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.declare_function(node, f"{prefix}.{node.name}", cls, parent=None)
            elif isinstance(node, ast.ClassDef):
                self._declare_class(node, f"{prefix}.{node.name}")
            elif isinstance(node, ast.If | ast.Try):
                # Defs under `if TYPE_CHECKING:` / `try: ... except ImportError:` are still module defs.
                for block in _blocks(node):
                    self._declare(block, prefix, cls)

    def _declare_class(self, node: ast.ClassDef, qualname: str) -> None:
        bases = tuple(self.canonical(d) for d in map(_dotted, node.bases) if d)
        info = ClassSummary(qualname, node.name, self.pos.of(node), bases)
        defined = set()
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                defined.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if (
                        isinstance(target, ast.Name)
                        and target.id == "__hash__"
                        and isinstance(stmt.value, ast.Constant)
                        and stmt.value.value is None
                    ):
                        info.unhashable = "it sets __hash__ = None"
        frozen, dataclass_eq = self._dataclass_flags(node)
        named_tuple = any(b in ("typing.NamedTuple", "NamedTuple", "enum.Enum") for b in bases)
        identity = hashed_by_identity(node, inherits=any(b != "object" for b in bases))
        info.identity_hashed = identity is True
        info.value_equal = identity is False if "__eq__" in defined else named_tuple or dataclass_eq
        info.value_hashed = identity is False and (
            named_tuple or frozen or {"__eq__", "__hash__"} <= defined
        )
        info.compared = compared_fields(node) if info.value_hashed else None
        if dataclass_eq and not frozen and "__hash__" not in defined:
            info.unhashable = "a mutable dataclass has no __hash__"
        elif "__eq__" in defined and "__hash__" not in defined and not (frozen or named_tuple):
            # type.__new__ sets __hash__ = None in a class body that defines __eq__ alone (a
            # NamedTuple's methods are set after its class is made, and keep tuple's hash).
            info.unhashable = "it defines __eq__ without __hash__, so Python sets __hash__ = None"
        fields, static = declared_fields(node)
        if self._generates_init(node, bases):
            info.fields = fields
            info.field_defaults = field_defaults(node, self.pos)
        flatten = next(
            (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "tree_flatten"),
            None,
        )
        flattened = flattened_static_reads(flatten, self.displays) if flatten else {}
        info.static_fields = tuple(static) + tuple(flattened) + self._decorator_static(node)
        info.static_at = {name: self.pos.of(at) for name, at in {**flattened, **static}.items()}
        self.summary.classes[qualname] = info
        self.generator_fields[qualname] = frozenset(self._generator_fields(node))
        self.empty_fields[qualname] = frozenset(_empty_fields(node))
        self._declare(node.body, qualname, info)

    def _decorator_static(self, node: ast.ClassDef) -> tuple[str, ...]:
        """The static fields a registration as a decorator names:
        ``@partial(jax.tree_util.register_dataclass, data_fields=[...], meta_fields=[...])`` (its
        arguments sit where a call's would, the class's place taken by the function)."""
        for deco in node.decorator_list:
            if not isinstance(deco, ast.Call) or not deco.args:
                continue
            if self.canonical(_dotted(deco.func) or "") not in _PARTIALS:
                continue
            kind = _PYTREE_REGISTRATIONS.get(self.canonical(_dotted(deco.args[0]) or ""))
            if kind is not None:
                return registered_static(deco, kind, None)
        return ()

    def _generator_fields(self, node: ast.ClassDef) -> Iterator[str]:
        """The attributes a method of the class sets to a new NumPy random generator
        (``self.rng = np.random.default_rng(seed)``)."""

        def generator(value: ast.expr) -> bool:
            if not isinstance(value, ast.Call):
                return False
            module, _, name = self.canonical(_dotted(value.func) or "").rpartition(".")
            return module == "numpy.random" and name in _GENERATORS

        for method in node.body:
            if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from _attributes_set(method, generator)

    def _generates_init(self, node: ast.ClassDef, bases: tuple[str, ...]) -> bool:
        """Whether the class's __init__ is generated from the fields declared in its body."""
        if any(b in _FIELD_BASES for b in bases):
            return True
        return any(
            self.canonical(_dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith(
                "dataclass"
            )
            for d in node.decorator_list
        )

    def _dataclass_flags(self, node: ast.ClassDef) -> tuple[bool, bool]:
        """(frozen, eq) for a dataclass-like decorator; (False, False) when not a dataclass."""
        for deco in node.decorator_list:
            call = deco if isinstance(deco, ast.Call) else None
            name = _dotted(call.func if call else deco) or ""
            canon = self.canonical(name)
            if not canon.endswith("dataclass") and not canon.endswith("dataclasses.dataclass"):
                continue
            kw = {k.arg: k.value for k in (call.keywords if call else []) if k.arg}
            frozen = _is_true(kw.get("frozen"))
            if canon in ("flax.struct.dataclass", "chex.dataclass") and "frozen" not in kw:
                frozen = canon == "flax.struct.dataclass"
            unsafe_hash = _is_true(kw.get("unsafe_hash"))
            eq = not (isinstance(kw.get("eq"), ast.Constant) and kw["eq"].value is False)  # type: ignore[union-attr]
            return frozen or unsafe_hash, eq
        return False, False

    def declare_function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        qualname: str,
        cls: ClassSummary | None,
        parent: str | None,
    ) -> FunctionSummary:
        kind = "method" if cls else "function"
        memoised = False
        for deco in node.decorator_list:
            name = _dotted(deco)
            if name in ("staticmethod", "classmethod"):
                kind = name
            called = (_dotted(deco.func) if isinstance(deco, ast.Call) else name) or ""
            # functools.cache and lru_cache, and the projects' own (jax's util.cache, memoize...).
            memoised = memoised or _MEMOISER.search(called.rpartition(".")[2]) is not None
        memoised = memoised or _returns_cached(node.body)
        fn = FunctionSummary(
            qualname,
            node.name,
            self.pos.of(node),
            dtype_defaults(read_params(_params(node.args), node), node.args),
            cls=cls.qualname if cls else None,
            kind=kind,
            parent=parent,
            memoised=memoised,
        )
        self.summary.functions[qualname] = fn
        if cls is not None:
            cls.methods[node.name] = qualname
        self.nodes[qualname] = node
        return fn

    def jit_from_decorators(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        fn: FunctionSummary,
        context: FunctionPass,
    ) -> int | None:
        for deco in node.decorator_list:
            spec = self.decorator_spec(deco)
            if spec is None:
                continue
            wrapper, kwargs = spec
            nested = fn.parent is not None
            return context.new_jit(
                wrapper,
                deco,
                kwargs,
                target=("qual", fn.qualname),
                target_text=fn.name,
                fresh="nested def" if nested else None,
                fresh_sources=context.context_src() if nested else EMPTY,
                decorated=True,
                configured_by=context.closure_settings(node) if nested else EMPTY,
                lengths=tuple(sorted(lengths_read(node, self.canonical))),
            )
        return None

    def decorator_spec(self, deco: ast.AST) -> tuple[Wrapper, list[ast.keyword]] | None:
        wrapper = self.wrapper(deco)
        if wrapper is not None:
            return wrapper, []
        if not isinstance(deco, ast.Call):
            return None
        made = self.factory_call(deco)
        if made is not None:  # @jit_with(static_argnames=...), a factory of the project
            return made
        wrapper = self.wrapper(deco.func)
        if wrapper is not None:  # @jax.jit(static_argnames=...)
            return wrapper, deco.keywords
        if self.canonical(_dotted(deco.func) or "") in _PARTIALS and deco.args:
            wrapper = self.wrapper(deco.args[0])
            if wrapper is not None:  # @partial(jax.jit, static_argnums=...)
                return wrapper, deco.keywords
        return None


def _single_target(stmt: ast.stmt) -> str | None:
    """The one name a module-level ``name = value`` (or ``name: T = value``) binds."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
    elif isinstance(stmt, ast.AnnAssign):
        target = stmt.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


def _int_constants(bound: dict[str, ast.expr]) -> dict[str, int]:
    """The module-level names bound once to an int literal (``BATCH = 32``, ``FRAME: int = 4``)."""
    return {
        name: value.value
        for name, value in bound.items()
        if isinstance(value, ast.Constant) and type(value.value) is int
    }


def _displays(bound: dict[str, ast.expr], body: list[ast.stmt]) -> dict[str, ast.expr]:
    """The module-level names bound once to a list, tuple or set display that no code of the
    module resizes (``RESOLUTIONS = [64, 128]``): the points a loop over them walks."""
    displays = {
        name: value
        for name, value in bound.items()
        if isinstance(value, ast.List | ast.Tuple | ast.Set) and not name.startswith("__")
    }
    # A collection built of those (``TASKS = tuple(itertools.product(SIZES, SHIFTS))``) walks
    # points the source fixes as surely.
    displays |= {
        name: value
        for name, value in bound.items()
        if isinstance(value, ast.Call) and spelled_points(value, displays.get) is not None
    }
    if not displays:
        # The whole module is walked for resizing calls only where a display can be a sweep's
        # points (``__all__`` and other dunders name the module's API, never a sweep's points).
        return {}
    resized = body_names(body).resized
    return {name: value for name, value in displays.items() if name not in resized}


def _display_points(displays: dict[str, ast.expr]) -> dict[str, Points]:
    """The points each module-level display (``_displays``) spells out, where it does."""
    found = {name: spelled_points(value, displays.get) for name, value in displays.items()}
    return {name: points for name, points in found.items() if points is not None}


def _bound_once(body: list[ast.stmt], rebound: set[str]) -> dict[str, ast.expr]:
    """The module-level names bound once, by a top-level assignment, and not ``rebound`` (declared
    ``global`` in a function), each with the expression bound: module-level statements are read,
    not the bodies of defs and classes, which bind names of their own."""
    stores: dict[str, int] = {}
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stores[stmt.name] = stores.get(stmt.name, 0) + 1
            continue
        for target in bound_names([stmt], "targets"):
            stores[target] = stores.get(target, 0) + 1
        for name in _BLOCKS.get(type(stmt), ()):
            stack.extend(getattr(stmt, name))
    out: dict[str, ast.expr] = {}
    for stmt in body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else getattr(stmt, "target", None)
        value = getattr(stmt, "value", None)
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or value is None:
            continue
        # `BATCH = 32`, and each name of `VOCAB, DIM, BATCH = 50, 8, 4`.
        pairs = (
            zip(target.elts, value.elts, strict=True)
            if isinstance(target, ast.Tuple)
            and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)
            else [(target, value)]
        )
        for name, item in pairs:
            if isinstance(name, ast.Name) and stores.get(name.id) == 1 and name.id not in rebound:
                out[name.id] = item
    return out


def _assigns_all(targets: list[ast.expr]) -> bool:
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def _literal_names(node: ast.expr) -> tuple[str, ...] | None:
    """The names of a literal ``__all__``; None when it is computed (its public names stand)."""
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    names = tuple(e.value for e in node.elts if isinstance(e, ast.Constant))
    return (
        names if all(isinstance(n, str) for n in names) and len(names) == len(node.elts) else None
    )


# What makes an array empty along its first axis when asked for a length 0 there.
_SIZED_MAKERS = frozenset({"zeros", "empty", "ones", "full"})


def _empty_fields(node: ast.ClassDef) -> Iterator[str]:
    """The attributes the class's ``__init__`` sets to an empty list or an array with no rows
    (``self.history = jnp.zeros((0, n))``): a window of it grows from nothing."""
    init = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is not None:
        yield from _attributes_set(init, _empty)


def _attributes_set(
    method: ast.FunctionDef | ast.AsyncFunctionDef, test: Callable[[ast.expr], bool]
) -> Iterator[str]:
    """The attributes of a method's first parameter (``self``) it assigns a value ``test`` accepts."""
    if not method.args.args:
        return
    owner = method.args.args[0].arg
    # An assignment is a statement, never inside an expression: only the blocks are walked.
    for stmt in _statements(method.body):
        if not isinstance(stmt, ast.Assign) or not test(stmt.value):
            continue
        for target in stmt.targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == owner
            ):
                yield target.attr


def _empty(value: ast.expr) -> bool:
    if isinstance(value, ast.List | ast.Tuple):
        return not value.elts
    if not isinstance(value, ast.Call) or not value.args:
        return False
    if (_dotted(value.func) or "").rpartition(".")[2] not in _SIZED_MAKERS:
        return False
    shape = value.args[0]
    first = shape.elts[0] if isinstance(shape, ast.Tuple | ast.List) and shape.elts else shape
    return isinstance(first, ast.Constant) and first.value == 0


def _read_in_function(found: Value) -> Value:
    """A module-level value as a function of the module reads it: its functions named from the
    top level, where it was made, and without what it took from the module's own calls. Those
    are indices into the module's call sites (``forward, params = init_policy(...)``: item 0 of
    module call 0); read in a function they would name that function's calls, whatever they
    return (an array, and a jitted function passed as a static argument "raises")."""
    deps = frozenset(d for d in found.deps if not isinstance(d, RetDep | IterDep))
    return found.with_(callables=funcrefs.rescoped(found.callables, "module"), deps=deps)
