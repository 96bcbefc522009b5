"""Link module summaries into one project: resolve every call site to a function or a jit site.

Resolution is import-aware and deliberately narrow: names through the module's own definitions and
imports (absolute, relative, aliased, re-exported through ``__init__``), ``self.m`` and ``super().m``
through the class and its bases, ``obj.m`` where ``obj`` was made by a class we know, or where every
caller, callee or store says what ``obj`` is (``_link_deferred``). Calls that cannot be resolved are
dropped, never guessed: a wrong edge makes a false finding, a missing one at worst a missed finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import networkx as nx

from retracelint.discover import ImportLayout
from retracelint.model import Location
from retracelint.summary import (
    Arg,
    Callee,
    CallSite,
    ClassSummary,
    FunctionSummary,
    JitSpec,
    ModuleSummary,
    Param,
)

_T = TypeVar("_T")
_MAX_DEPTH = 16  # re-export chains and base-class chains longer than this are not followed
_MAX_ROUNDS = 4  # rounds of linking calls resolved by their callers (each may type a parameter)
# Method names of builtin containers, strings, files, arrays and the module APIs of jax libraries:
# an object of no known class that calls one is most likely not of the one project class that
# defines it.
_COMMON_METHODS = frozenset(
    {
        *("get", "items", "keys", "values", "update", "pop", "setdefault", "copy", "clear"),
        *("append", "extend", "insert", "remove", "sort", "index", "count", "add", "discard"),
        *("join", "split", "strip", "replace", "format", "startswith", "endswith", "encode"),
        *("read", "write", "close", "open", "flush", "sum", "mean", "max", "min", "reshape"),
        *(
            "astype",
            "item",
            "tolist",
            "squeeze",
            "transpose",
            "apply",
            "init",
            "bind",
            "tree_flatten",
        ),
        *("tree_unflatten", "lower", "compile", "block_until_ready"),
    }
)


@dataclass(frozen=True)
class FuncTarget:
    qualname: str
    bound: bool  # called through an instance: the first parameter is already bound


@dataclass(frozen=True)
class JitTarget:
    module: str
    index: int
    bound: bool  # a jitted method called through an instance

    @property
    def key(self) -> tuple[str, int]:
        return (self.module, self.index)


@dataclass(frozen=True)
class ClassTarget:
    qualname: str


Target = FuncTarget | JitTarget | ClassTarget


@dataclass(frozen=True)
class JitBinding:
    """What a call into a jit site binds to: the jitted callable's parameters and which are static."""

    spec: JitSpec
    wrapped: FunctionSummary | None
    params: tuple[
        Param, ...
    ]  # as the jitted callable sees them (self included for decorated methods)
    offset: (
        int  # leading parameters already bound (self, for a jitted method called on an instance)
    )
    static: frozenset[str]  # the parameters that are static passed at least one way
    # static_argnums and static_argnames as jax applies them: jax decides per call, by how each
    # argument is passed (see ``static_at``).
    static_positions: tuple[int, ...] = ()
    static_keywords: frozenset[str] = frozenset()

    def static_at(self, call: CallSite, name: str) -> bool:
        """Whether the argument that ``call`` passes for parameter ``name`` is static: by keyword when
        the name is in static_argnames, by position when the position is in static_argnums (a negative
        one counts from the end of the positional arguments of that call)."""
        if any(key == name for key, _ in call.kwargs):
            return name in self.static_keywords
        positional = [p.name for p in self.params if p.kind in ("posonly", "normal")]
        if name not in positional:
            return False
        index = positional.index(name)
        # The bound self is the first positional argument; behind *args the count is unknown, so the
        # signature's stands in for it.
        count = len(positional) if call.star else self.offset + len(call.args)
        return any(num == index or count + num == index for num in self.static_positions)


class Project:
    """All module summaries, the resolved call graph, and the lookups the analysis needs."""

    def __init__(
        self,
        summaries: list[ModuleSummary],
        whole: Callable[[ModuleSummary], ModuleSummary] | None = None,
        layout: ImportLayout | None = None,
    ) -> None:
        self._whole = whole  # loads the whole summary of a module given as a head
        # Module keys are unique in a project (``discover``); the layout says which module an import
        # names from each file. Without one, a dotted name is the module's key.
        self.layout = layout
        self.modules: dict[str, ModuleSummary] = {}
        for summary in sorted(summaries, key=lambda s: s.path):
            if summary.error is None:
                self.modules.setdefault(summary.module, summary)
        self.functions: dict[str, FunctionSummary] = {}
        self.owner: dict[str, ModuleSummary] = {}
        self.classes: dict[str, ClassSummary] = {}
        for summary in self.modules.values():
            self._register(summary)
        # x64 is process-wide: a module that turns it on turns it on for every module it runs with.
        self.x64 = any(summary.x64 for summary in self.modules.values())
        self.targets: dict[tuple[str, int], Target] = {}
        self.callers: dict[str, list[tuple[str, int]]] = {}
        self.jit_callers: dict[tuple[str, int], list[tuple[str, int]]] = {}
        self.graph: nx.DiGraph = nx.DiGraph()
        self._mro: dict[str, list[str]] = {}
        self._types = {}
        self._definers: dict[str, list[str]] | None = None
        self._calls_at: dict[Location, tuple[str, int]] | None = None
        self._registered: dict[str, tuple[str, ...]] = {}
        for summary in self.modules.values():
            for name, static in summary.pytree_static.items():
                cls = self._class_named(summary, name)
                if cls is not None:
                    self._registered[cls] = static
        self._link()

    def function(self, qualname: str) -> FunctionSummary:
        """The function with everything the propagation reads: its calls' arguments and what it
        returns. A module read from the cache as a head (``summary.head_of``) is loaded whole the
        first time one of its functions is asked for; linking needs only the heads."""
        module = self.owner[qualname]
        if module.head:
            self._load_whole(module)
        return self.functions[qualname]

    def _load_whole(self, head: ModuleSummary) -> None:
        if self._whole is None:
            raise RuntimeError(f"retracelint: no whole summary for {head.module}")
        whole = self._whole(head)
        if self.modules.get(head.module) is head:
            self.modules[head.module] = whole
        self._register(whole)

    def _register(self, summary: ModuleSummary) -> None:
        for qualname, fn in summary.functions.items():
            self.functions[qualname] = fn
            self.owner[qualname] = summary
        for qualname, cls in summary.classes.items():
            self.classes[qualname] = cls
            self.owner[qualname] = summary

    # -- linking ------------------------------------------------------------------------------------
    def _link(self) -> None:
        # Within a module, a name resolves the same way from every function (half the calls of
        # the corpus repeat a name their module already called); ``self.m`` depends on the class.
        known: dict[tuple[str, Callee], tuple[Target | None, str | None]] = {}
        edges: dict[tuple[str, str], None] = {}  # in the order found
        for qualname, fn in self.functions.items():
            module = self.owner[qualname]
            for index, call in enumerate(fn.calls):
                if call.callee[0] == "recv":
                    continue  # typed by its callers: ``_link_deferred``
                # `self.m` and `super().m` depend on the class of the calling method.
                key = (
                    (module.module, call.callee)
                    if call.callee[0] not in ("self", "super")
                    else None
                )
                found = known.get(key) if key else None
                if found is None:
                    target = self.resolve_call(module, fn, call)
                    found = (target, self.callee_function(target) if target else None)
                    if key:
                        known[key] = found
                target, callee = found
                if target is not None:
                    self._add_edge(qualname, index, target, edges, callee)
        self._link_deferred(edges)
        self.graph.add_nodes_from(self.functions)
        self.graph.add_edges_from(edges)

    def _add_edge(
        self,
        qualname: str,
        index: int,
        target: Target,
        edges: dict[tuple[str, str], None],
        callee: str | None = None,
    ) -> None:
        self.targets[(qualname, index)] = target
        if isinstance(target, JitTarget):
            self.jit_callers.setdefault(target.key, []).append((qualname, index))
        callee = callee or self.callee_function(target)
        if callee is not None:
            self.callers.setdefault(callee, []).append((qualname, index))
            edges[qualname, callee] = None

    def _link_deferred(self, edges: dict[tuple[str, str], None]) -> None:
        """Calls resolved by what their callers pass, once the other calls are linked: a call of a
        parameter (``metric(segment, ref)``) calls what every caller passes for it (through any
        chain of parameters passed on), or the ``__call__`` of the objects they pass; a method of
        an object whose class comes from the callers, from a call's result, or from the class
        hierarchy. Each new edge may type another parameter, so this runs until nothing changes."""
        pending = [
            (qualname, index)
            for qualname, fn in self.functions.items()
            for index, call in enumerate(fn.calls)
            if call.callee[0] in ("param", "recv")
        ]
        for _ in range(_MAX_ROUNDS):
            self._types: dict[tuple[str, str], frozenset[str] | None] = {}
            linked = []
            for qualname, index in pending:
                fn = self.functions[qualname]
                target = self._resolve_deferred(self.owner[qualname], fn, fn.calls[index].callee)
                if target is not None:
                    self._add_edge(qualname, index, target, edges)
                    linked.append((qualname, index))
            if not linked:
                break
            done = set(linked)
            pending = [site for site in pending if site not in done]

    def _resolve_deferred(
        self, module: ModuleSummary, fn: FunctionSummary, callee: Callee
    ) -> Target | None:
        if callee[0] == "param":
            passed = self._passed(fn, callee[1], 0)
            return passed or self._method_of(module, fn, "__call__", (f"p:{callee[1]}",))
        return self._method_of(module, fn, callee[1], callee[2:])

    def _method_of(
        self, module: ModuleSummary, fn: FunctionSummary, name: str, refs: tuple[str, ...]
    ) -> Target | None:
        """Method ``name`` of an object that may be each of ``refs`` (``summary.Callee``): one
        target when every class it may be has the same, else none. An object of no known class
        that is an attribute (``self.model``) takes the method of the one class in the project that
        defines it, if only one does."""
        classes = self.classes_of(module, fn, refs, 0)
        if classes:
            found = {self.member(cls, name) for cls in classes}
            return found.pop() if len(found) == 1 else None
        if classes is None and all(_is_attribute_ref(ref) for ref in refs):
            return self._only_definer(name)
        return None

    def _only_definer(self, name: str) -> Target | None:
        if name.startswith("__") or name in _COMMON_METHODS:
            return None
        if self._definers is None:
            self._definers = {}
            for qualname, cls in self.classes.items():
                for method in {*cls.methods, *cls.jit_attrs}:
                    self._definers.setdefault(method, []).append(qualname)
        definers = self._definers.get(name, ())
        return self.member(definers[0], name) if len(definers) == 1 else None

    def classes_of(
        self, module: ModuleSummary, fn: FunctionSummary, refs: tuple[str, ...], depth: int
    ) -> frozenset[str] | None:
        """The classes an object may be an instance of, from what it may be (``summary.Callee``):
        None when one of them is not known."""
        out: set[str] = set()
        for ref in refs:
            key = (fn.qualname, ref)
            if key not in self._types:
                self._types[key] = frozenset()  # a cycle adds nothing
                self._types[key] = self._classes_of_ref(module, fn, ref, depth)
            classes = self._types[key]
            if classes is None:
                return None
            out |= classes
        return frozenset(out)

    def _classes_of_ref(
        self, module: ModuleSummary, fn: FunctionSummary, ref: str, depth: int
    ) -> frozenset[str] | None:
        kind, _, rest = ref.partition(":")
        if depth > _MAX_DEPTH:
            return None
        if kind == "c":
            cls = self._class_named(module, rest)
            return frozenset({cls}) if cls else None
        if kind == "p":
            return self._classes_passed(fn, rest, depth)
        line, col, end_line, end_col, item, path = rest.split(":", 5)
        if item or path:
            return None
        at = Location(module.path, int(line), int(col), int(end_line), int(end_col))
        found = self.call_at(at)
        if found is None:
            return None
        index = found[1]
        target = self.targets.get(found)
        if target is None and fn.calls[index].callee[0] in ("recv", "param"):
            # Not linked yet (`state = state.replace(...)` types itself): it adds no class.
            return frozenset()
        if isinstance(target, ClassTarget):
            return frozenset({target.qualname})
        if isinstance(target, FuncTarget):
            callee = self.functions[target.qualname]
            if callee.returned:
                return self.classes_of(
                    self.owner[callee.qualname], callee, callee.returned, depth + 1
                )
        return None

    def _classes_passed(self, fn: FunctionSummary, param: str, depth: int) -> frozenset[str] | None:
        """The classes of what every caller passes for ``param``; None unless each passes an
        object of known classes."""
        first = fn.params[0].name if fn.params else None
        head, _, attr = param.partition(".")
        if fn.kind in ("method", "classmethod") and head == first:
            cls = self._enclosing_class(fn)
            if not cls or fn.kind != "method" or "." in attr:
                return None
            return self._field_classes(cls, attr, depth) if attr else frozenset({cls})
        if attr:
            return None
        if not self.callers.get(fn.qualname):
            return None
        out: set[str] = set()
        for caller, call, offset in self._calls_of(fn):
            refs = _passed_entry(call.objects, call, fn.params, offset, param)
            if refs is None:
                return None
            classes = self.classes_of(self.owner[caller.qualname], caller, refs, depth + 1)
            if classes is None:
                return None
            out |= classes
        return frozenset(out)

    def _field_classes(self, cls: str, attr: str, depth: int) -> frozenset[str] | None:
        """The classes of what the methods of ``cls`` store in ``self.attr``; None unless every
        store is of an object of known classes."""
        stores = [
            s for klass in self.mro(cls) for s in self.classes[klass].field_objects.get(attr, ())
        ]
        if not stores:
            return None
        out: set[str] = set()
        for method, refs in stores:
            fn = self.functions.get(method)
            classes = (
                self.classes_of(self.owner[method], fn, refs, depth + 1) if fn and refs else None
            )
            if classes is None:
                return None
            out |= classes
        return frozenset(out)

    def call_at(self, location: Location) -> tuple[str, int] | None:
        """The function and call index of the call at ``location``, anywhere in the project."""
        if self._calls_at is None:
            self._calls_at = {
                call.location: (qualname, index)
                for qualname, fn in self.functions.items()
                for index, call in enumerate(fn.calls)
            }
        return self._calls_at.get(location)

    def _calls_of(self, fn: FunctionSummary) -> Iterator[tuple[FunctionSummary, CallSite, int]]:
        """Each linked call of ``fn``: the caller, the call, and how many leading parameters it
        binds itself (``self`` of a method called on an instance, or of a class called)."""
        for caller_name, index in self.callers.get(fn.qualname, ()):
            target = self.targets[(caller_name, index)]
            bound = isinstance(target, ClassTarget) or getattr(target, "bound", False)
            caller = self.functions[caller_name]
            yield caller, caller.calls[index], 1 if bound else 0

    def _passed(self, fn: FunctionSummary, param: str, depth: int) -> Target | None:
        """What every caller of ``fn`` passes for ``param`` as a function; None unless they agree."""
        found: set[Target] = set()
        if not self.callers.get(fn.qualname) or depth > _MAX_DEPTH:
            return None
        for caller, call, offset in self._calls_of(fn):
            ref = _passed_entry(call.functions, call, fn.params, offset, param)
            if ref is None:
                return None
            if ref[0] == "param":
                passed = self._passed(caller, ref[1], depth + 1)
            else:
                passed = self.resolve_callee(self.owner[caller.qualname], caller, ref)
            if passed is None:
                return None
            found.add(passed)
        return found.pop() if len(found) == 1 else None

    def callee_function(self, target: Target) -> str | None:
        if isinstance(target, FuncTarget):
            return target.qualname
        if isinstance(target, ClassTarget):
            return self.method(target.qualname, "__init__")
        binding = self.jit_binding(target)
        return binding.wrapped.qualname if binding and binding.wrapped else None

    def resolve_call(
        self, module: ModuleSummary, fn: FunctionSummary, call: CallSite
    ) -> Target | None:
        return self.resolve_callee(module, fn, call.callee)

    def resolve_callee(
        self, module: ModuleSummary, fn: FunctionSummary, callee: Callee
    ) -> Target | None:
        """What a callee named in ``fn`` (a ``summary.Callee``) refers to."""
        kind = callee[0]
        if kind == "jit":
            return JitTarget(module.module, int(callee[2]), bound=False)
        if kind == "qual":
            return self._as_target(module, callee[1], bound=False)
        if kind == "self":
            cls = self._enclosing_class(fn)
            return self.member(cls, callee[2]) if cls else None
        if kind == "super":
            cls = self._enclosing_class(fn)
            bases = self.mro(cls)[1:] if cls else []
            found = next((b for b in bases if callee[2] in self.classes[b].methods), None)
            return self.member(found, callee[2]) if found else None
        if kind == "method":
            cls = self._class_named(module, callee[1])
            return self.member(cls, callee[2]) if cls else None
        if kind == "recv":
            return self._resolve_deferred(module, fn, callee)
        return self.resolve_name(module, callee[1])

    def _class_named(self, module: ModuleSummary, name: str) -> str | None:
        """The class an instance value names: its qualified name when the summariser knew the class
        (made in the same scope), else a name as written in ``module``, else an absolute name."""
        if name in self.classes:
            return name
        target = self.resolve_name(module, name) or self.resolve_qualified(name)
        return target.qualname if isinstance(target, ClassTarget) else None

    def class_named(self, module: ModuleSummary, name: str) -> str | None:
        return self._class_named(module, name)

    def class_of_method(self, fn: FunctionSummary) -> str | None:
        """The class of a method (or of the method a nested function is in)."""
        return self._enclosing_class(fn)

    def init_fields(self, cls: str) -> tuple[str, ...]:
        """The parameters of the __init__ a dataclass (NamedTuple, flax struct...) generates: the
        fields its bases declare, then its own."""
        out: list[str] = []
        for klass in reversed(self.mro(cls)):
            out.extend(f for f in self.classes[klass].fields if f not in out)
        return tuple(out)

    def field_default(self, cls: str, attr: str) -> Arg | None:
        """The literal default of a generated ``__init__``'s field, from the class that declares it."""
        for klass in self.mro(cls):
            if attr in self.classes[klass].field_defaults:
                return self.classes[klass].field_defaults[attr]
        return None

    def static_fields(self, cls: str) -> tuple[str, ...]:
        """The attributes a pytree of class ``cls`` keeps in its treedef: those its declaration
        says (tree_flatten's aux data, static fields) and those a registration call names."""
        out: list[str] = []
        for klass in self.mro(cls):
            out.extend(f for f in self.classes[klass].static_fields if f not in out)
        out.extend(f for f in self._registered.get(cls, ()) if f not in out)
        return tuple(out)

    def _enclosing_class(self, fn: FunctionSummary) -> str | None:
        while fn.cls is None and fn.parent is not None:
            parent = self.functions.get(fn.parent)
            if parent is None:
                return None
            fn = parent
        return fn.cls

    def _as_target(self, module: ModuleSummary, qualname: str, bound: bool) -> Target | None:
        fn = self.functions.get(qualname)
        if fn is not None:
            if fn.jit is not None:
                return JitTarget(self.owner[qualname].module, fn.jit, bound=bound)
            return FuncTarget(qualname, bound=bound)
        if qualname in self.classes:
            return ClassTarget(qualname)
        return None

    def resolve_name(self, module: ModuleSummary, dotted: str, depth: int = 0) -> Target | None:
        """A dotted name as written in ``module``: local definitions first, then imports."""
        if depth > _MAX_DEPTH:
            return None
        head, _, rest = dotted.partition(".")
        local = f"{module.module}.{head}"
        if local in self.functions or local in self.classes:
            target = self._as_target(module, local, bound=False)
            return self._attribute(target, rest) if rest else target
        value = module.globals.get(head)
        if value is not None and value.site is not None and not rest:
            return JitTarget(module.module, value.site, bound=False)
        imported = module.imports.get(head)
        if imported is not None:
            dotted = f"{imported}.{rest}" if rest else imported
            return self.resolve_qualified(dotted, depth + 1, module)
        return None

    def resolve_qualified(
        self, dotted: str, depth: int = 0, importer: ModuleSummary | None = None
    ) -> Target | None:
        """A fully qualified name, as ``importer`` imports it: the longest prefix that is a module,
        then a name inside it."""
        if depth > _MAX_DEPTH:
            return None
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:cut])
            if importer is not None and self.layout is not None:
                prefix = self.layout.module(importer.module, prefix)
            module = self.modules.get(prefix)
            if module is not None:
                return self.resolve_name(module, ".".join(parts[cut:]), depth + 1)
        return None

    def _attribute(self, target: Target | None, rest: str) -> Target | None:
        if isinstance(target, ClassTarget) and "." not in rest:
            return self.member(target.qualname, rest, bound=False)
        return None

    def member(self, cls: str, name: str, bound: bool = True) -> Target | None:
        """``name`` looked up on class ``cls`` and its bases (a method or a jitted attribute)."""
        for klass in self.mro(cls):
            info = self.classes[klass]
            if name in info.methods:
                fn = self.functions.get(info.methods[name])
                if fn is None:
                    return None
                is_bound = bound and fn.kind not in ("staticmethod",)
                if fn.jit is not None:
                    return JitTarget(self.owner[fn.qualname].module, fn.jit, bound=is_bound)
                return FuncTarget(fn.qualname, bound=is_bound)
            if name in info.jit_attrs:
                return JitTarget(self.owner[klass].module, info.jit_attrs[name], bound=False)
        return None

    def method(self, cls: str, name: str) -> str | None:
        target = self.member(cls, name)
        return target.qualname if isinstance(target, FuncTarget) else None

    def mro(self, cls: str) -> list[str]:
        """The class and its known bases, depth first (enough for single inheritance and mixins)."""
        cached = self._mro.get(cls)
        if cached is None:
            cached = self._mro[cls] = self._compute_mro(cls)
        return cached

    def _compute_mro(self, cls: str) -> list[str]:
        out: list[str] = []
        stack = [cls]
        while stack and len(out) < _MAX_DEPTH:
            current = stack.pop(0)
            if current in out or current not in self.classes:
                continue
            out.append(current)
            module = self.owner[current]
            for base in self.classes[current].bases:
                resolved = self.resolve_base(module, base)
                if resolved:
                    stack.append(resolved)
        return out

    def resolve_base(self, module: ModuleSummary, base: str) -> str | None:
        if base in self.classes:
            return base
        target = self.resolve_qualified(base, importer=module) or self.resolve_name(module, base)
        return target.qualname if isinstance(target, ClassTarget) else None

    # -- jit sites ----------------------------------------------------------------------------------
    def jit_spec(self, target: JitTarget) -> JitSpec:
        return self.modules[target.module].jits[target.index]

    def jit_binding(self, target: JitTarget) -> JitBinding | None:
        spec = self.jit_spec(target)
        module = self.modules[target.module]
        wrapped: FunctionSummary | None = None
        bound_method = False
        if spec.target is not None:
            kind = spec.target[0]
            resolved: Target | None
            if kind == "qual":
                resolved = FuncTarget(spec.target[1], bound=False)
            elif kind == "self":
                fn = self.functions.get(spec.function)
                cls = self._enclosing_class(fn) if fn else None
                resolved = self._member_function(cls, spec.target[2]) if cls else None
            elif kind == "method":
                cls_name = self._class_named(module, spec.target[1])
                resolved = self._member_function(cls_name, spec.target[2]) if cls_name else None
            elif kind == "recv":
                fn = self.functions.get(spec.function)
                method = (
                    self._method_of(module, fn, spec.target[1], spec.target[2:]) if fn else None
                )
                resolved = self._bound_function(method)
            elif kind == "name":
                resolved = self._plain_function(module, spec.target[1])
            else:
                resolved = None
            if isinstance(resolved, FuncTarget):
                wrapped = self.functions.get(resolved.qualname)
                bound_method = resolved.bound
        if wrapped is not None:
            params = wrapped.params[1:] if bound_method else wrapped.params
        elif spec.lambda_params is not None:
            params = spec.lambda_params
        else:
            return JitBinding(spec, None, (), 0, frozenset())
        offset = (
            1
            if target.bound and params and wrapped is not None and wrapped.kind != "staticmethod"
            else 0
        )
        positions, keywords = _static_parameters(spec, params)
        static = keywords | {
            name for num in positions if (name := _positional_name(params, num)) is not None
        }
        return JitBinding(spec, wrapped, params, offset, static, positions, keywords)

    def _member_function(self, cls: str, name: str) -> FuncTarget | None:
        for klass in self.mro(cls):
            qualname = self.classes[klass].methods.get(name)
            if qualname is not None:
                fn = self.functions.get(qualname)
                return FuncTarget(qualname, bound=fn is not None and fn.kind != "staticmethod")
        return None

    def _bound_function(self, target: Target | None) -> FuncTarget | None:
        """The function a method target runs, bound to its instance (a jitted method's own def)."""
        if isinstance(target, FuncTarget):
            return target
        if isinstance(target, JitTarget):
            spec = self.jit_spec(target)
            if spec.decorated and spec.target and spec.target[0] == "qual":
                fn = self.functions.get(spec.target[1])
                return FuncTarget(spec.target[1], bound=fn is not None and fn.kind == "method")
        return None

    def _plain_function(self, module: ModuleSummary, dotted: str) -> FuncTarget | None:
        """The function a jit wraps by name: the def itself, even when it is jit-decorated too."""
        local = f"{module.module}.{dotted}"
        if local in self.functions:
            return FuncTarget(local, bound=False)
        target = self.resolve_name(module, dotted)
        if isinstance(target, FuncTarget):
            return target
        if isinstance(target, JitTarget):
            binding_spec = self.jit_spec(target)
            if binding_spec.target and binding_spec.target[0] == "qual":
                return FuncTarget(binding_spec.target[1], bound=False)
        return None

    def all_jits(self) -> list[JitTarget]:
        return [
            JitTarget(name, spec.index, bound=False)
            for name, module in sorted(self.modules.items())
            for spec in module.jits
        ]


def bind_arg(call: CallSite, params: tuple[Param, ...], offset: int, name: str) -> Arg | None:
    """The argument passed for parameter ``name`` at ``call``; None when not passed or not knowable."""
    for key, arg in call.kwargs:
        if key == name:
            return arg
    positional = [p for p in params if p.kind in ("posonly", "normal")]
    for i, param in enumerate(positional[offset:]):
        if param.name == name:
            if call.star and i >= len(call.args):
                return None
            return call.args[i] if i < len(call.args) else None
    return None


def _static_parameters(
    spec: JitSpec, params: tuple[Param, ...]
) -> tuple[tuple[int, ...], frozenset[str]]:
    """static_argnums and static_argnames as jax uses them. When only one of the two is given, jax
    fills in the other from the signature, for positional-or-keyword parameters only; when both are
    given, each is taken as written (jax._src.api_util.infer_argnums_and_argnames)."""
    positions, keywords = spec.static_argnums, frozenset(spec.static_argnames)
    if not spec.static_inferred:
        return positions, keywords
    either = [(i, p.name) for i, p in enumerate(params) if p.kind == "normal"]
    return (
        positions + tuple(i for i, name in either if name in keywords),
        keywords | {name for i, name in either if i in positions},
    )


def _positional_name(params: tuple[Param, ...], num: int) -> str | None:
    """The parameter at static position ``num`` when every positional parameter is passed."""
    positional = [p for p in params if p.kind in ("posonly", "normal")]
    index = num if num >= 0 else len(positional) + num
    return positional[index].name if 0 <= index < len(positional) else None


def _is_attribute_ref(ref: str) -> bool:
    """An attribute of a parameter (``p:self.model``) or of an object a call made."""
    kind, _, rest = ref.partition(":")
    return (kind == "p" and "." in rest) or (kind == "m" and not rest.endswith(":"))


def _passed_entry(
    entries: tuple[tuple[int | str, _T], ...],
    call: CallSite,
    params: tuple[Param, ...],
    offset: int,
    name: str,
) -> _T | None:
    """What ``entries`` (of ``call``: its ``functions`` or ``objects``, by position or keyword) say
    of the argument passed for parameter ``name``, if they say something."""
    passed = dict(entries)
    if name in passed:
        return passed[name]
    positional = [p.name for p in params if p.kind in ("posonly", "normal")][offset:]
    if name in positional and not call.star:
        return passed.get(positional.index(name))
    return None
