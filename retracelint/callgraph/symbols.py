"""The definitions of a project and the lookups that depend on them alone: which function, class or
jit site a name means in a module (through imports, re-exports and ``from m import *``), the bases
and members of a class, the fields of a pytree, which modules run with x64 on.

Nothing here depends on how calls are linked, with one exception: a method called on a module-level
instance (``registry.add``) may be a function the class stores on its instances, which only the
linker can resolve (``instance_member``, ``Project._member_or_stored``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from retracelint.callgraph.targets import ClassTarget, FuncTarget, JitTarget, Site, Target
from retracelint.discover import ImportLayout
from retracelint.model import Location
from retracelint.readlog import query
from retracelint.session import Picked
from retracelint.summary import (
    Arg,
    Callee,
    ClassSummary,
    FunctionSummary,
    JitSpec,
    ModuleSummary,
    loaded,
)
from retracelint.values import INSTANCE, Value

_T = TypeVar("_T")
MAX_DEPTH = 16  # re-export chains and base-class chains longer than this are not followed


@dataclass(frozen=True, eq=False)
class Registered:
    """The tables of a project's ``Symbols``: its modules by key, and the functions, classes and
    the module of each (``owner``) by qualified name. A fill-in (``Symbols.function``) puts the
    whole module in ``modules`` too, so a module that is the object registered here has its
    functions and classes here as it registered them."""

    modules: dict[str, ModuleSummary]
    functions: dict[str, FunctionSummary]
    owner: dict[str, ModuleSummary]
    classes: dict[str, ClassSummary]


class Symbols:
    """The modules, functions and classes of one project, by key and qualified name."""

    def __init__(
        self,
        summaries: list[ModuleSummary],
        load: Callable[[ModuleSummary, str], ModuleSummary | None] | None,
        layout: ImportLayout | None,
        instance_member: Callable[[str, str], Target | None],
        picked: Picked | None = None,
        last: Registered | None = None,
    ) -> None:
        # ``last``: the tables a run before registered, taken over where they hold (``_kept``).
        # Fills in a function of a module given as a head (or returns the module summarised again).
        self._load = load
        # Module keys are unique in a project (``discover``); the layout says which module an import
        # names from each file. Without one, a dotted name is the module's key.
        self.layout = layout
        self._instance_member = instance_member
        self.modules: dict[str, ModuleSummary] = {}
        for summary in sorted(summaries, key=lambda s: s.path):
            if summary.error is None:
                self.modules.setdefault(summary.module, summary)
        self.functions: dict[str, FunctionSummary] = {}
        self.owner: dict[str, ModuleSummary] = {}
        self.classes: dict[str, ClassSummary] = {}
        if last is None or not self._kept(last):
            for summary in self.modules.values():
                self._register(summary)
        # x64 is process-wide: a module that turns it on turns it on for every module it runs with.
        self.x64 = any(summary.x64 for summary in self.modules.values())
        self.settings = _one_setting_each(self.modules.values())
        self._mro: dict[str, list[str]] = {}
        self._subclass_index: dict[str, list[str]] | None = None
        self._registered: dict[str, tuple[str, ...]] = {}
        self._calls_at: dict[str, dict[tuple[int, int, int, int], Site]] = {}
        # Each module's calls by place, kept from run to run while its summary is the same object
        # (a long-lived process's; ``call_span``).
        self._picked = picked if picked is not None else Picked()
        self._by_path: dict[str, list[ModuleSummary]] | None = None
        self._static_names: frozenset[str] | None = None  # ``static_field_names``

    def register_pytrees(self) -> None:
        """The static parts the ``register_pytree_node``/``register_dataclass`` calls of the project
        name, by class (``static_fields``)."""
        for summary in self.modules.values():
            for name, static in summary.pytree_static.items():
                cls = self.class_named(summary, name)
                if cls is not None:
                    self._registered[cls] = static

    def function(self, qualname: str) -> FunctionSummary:
        """The function with everything the propagation reads: its calls' arguments and what it
        returns. A function read from the cache as a head (``summary.HEAD_LEFT_OUT``) is filled in
        the first time it is asked for; linking needs only the heads."""
        fn = self.functions[qualname]
        if not loaded(fn):
            self._fill_in(qualname)
        return self.functions[qualname]

    def _fill_in(self, qualname: str) -> None:
        head = self.owner[qualname]
        if self._load is None:
            raise RuntimeError(f"retracelint: no whole summary for {head.module}")
        whole = self._load(head, qualname)
        if whole is not None:
            if self.modules.get(head.module) is head:
                self.modules[head.module] = whole
            self._register(whole)

    def registered(self) -> Registered:
        """The tables this project registered, for a run after an edit (``_kept``)."""
        return Registered(self.modules, self.functions, self.owner, self.classes)

    def _kept(self, last: Registered) -> bool:
        """Take over ``last``'s tables (copied, in C), with the modules whose summary is not the
        object it registered registered again, where those define the same functions and classes
        in the same order: registering every module in its order gives the same tables (100,000
        functions of the speed corpus, on each edit a language server makes). Where those hold
        half of them, registering every module costs less."""
        if list(last.modules) != list(self.modules):
            return False
        changed = [
            summary
            for summary, was in zip(self.modules.values(), last.modules.values(), strict=True)
            if summary is not was
        ]
        if sum(len(m.functions) + len(m.classes) for m in changed) > len(last.owner) // 2 or any(
            list(summary.functions) != list(last.modules[summary.module].functions)
            or list(summary.classes) != list(last.modules[summary.module].classes)
            for summary in changed
        ):
            return False
        self.functions, self.owner = dict(last.functions), dict(last.owner)
        self.classes = dict(last.classes)
        for summary in changed:
            self._register(summary)
        return True

    def _register(self, summary: ModuleSummary) -> None:
        # In C, the same order as one name at a time: every module of a project is registered on
        # each run (0.03 CPU s of a language server's edit of the speed corpus, as a Python loop).
        self.functions.update(summary.functions)
        self.owner.update(dict.fromkeys(summary.functions, summary))
        self.classes.update(summary.classes)
        self.owner.update(dict.fromkeys(summary.classes, summary))

    @query("symbols", whole=True)
    def subclasses(self) -> dict[str, list[str]]:
        """Each class's subclasses in the project, at any depth."""
        if self._subclass_index is None:
            self._subclass_index = {}
            for cls in self.classes:
                for base in self.mro(cls)[1:]:
                    self._subclass_index.setdefault(base, []).append(cls)
        return self._subclass_index

    def resolve_callee(
        self, module: ModuleSummary, fn: FunctionSummary, callee: Callee
    ) -> Target | None:
        """What a callee named in ``fn`` (a ``summary.Callee``) refers to, when that does not depend
        on other calls (see ``Project.resolve_ref``)."""
        kind = callee[0]
        if kind == "jit":
            return JitTarget(module.module, int(callee[2]), bound=False)
        if kind == "qual":
            return self.as_target(callee[1], bound=False) or self.resolve_qualified(callee[1])
        if kind in ("self", "super"):
            cls = self.class_of_method(fn)
            if cls is None:
                return None
            return self.member(cls, callee[2], after=cls if kind == "super" else None)
        if kind == "method":
            cls = self.class_named(module, callee[1])
            return self.member(cls, callee[2]) if cls else None
        if kind == "name":
            return self.resolve_name(module, callee[1])
        return None

    def class_named(self, module: ModuleSummary, name: str, depth: int = 0) -> str | None:
        """The class an instance value names: its qualified name when the summariser knew the class
        (made in the same scope), else a name as written in ``module``, else a dotted name as
        ``module`` imports it (``bo.gp.GP`` after ``from bo.gp import GP``): the summariser writes
        import names, which the layout resolves from ``module``'s folder first, as Python does for
        a script beside its helper package (not the module keyed ``bo.gp`` elsewhere, nor none when
        two folders have a ``bo``). ``depth``: the names being resolved meanwhile (``experiment = experiment.Run()`` names its
        class through itself)."""
        if name in self.classes:
            return name
        target = self.resolve_name(module, name, depth) or self.resolve_qualified(
            name, depth, module
        )
        return target.qualname if isinstance(target, ClassTarget) else None

    def init_fields(self, cls: str) -> tuple[str, ...]:
        """The parameters of the __init__ a dataclass (NamedTuple, flax struct...) generates: the
        fields its bases declare, then its own."""
        out: list[str] = []
        for klass in reversed(self.mro(cls)):
            out.extend(f for f in self.classes[klass].fields if f not in out)
        return tuple(out)

    @query("symbols", whole=True)
    def static_field_names(self) -> frozenset[str]:
        """The names any pytree class of the project keeps in its treedef: ``static_fields`` of
        every class, told without their bases (each is a class of the project, whose own static
        fields are there already), so no class's MRO is worked out for it (a whole-project walk
        on every edit in the language server)."""
        if self._static_names is None:
            own = (f for summary in self.classes.values() for f in summary.static_fields)
            registered = (
                f for cls, static in self._registered.items() if cls in self.classes for f in static
            )
            self._static_names = frozenset((*own, *registered))
        return self._static_names

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

    def static_declared(self, cls: str, attr: str) -> Location | None:
        """Where a class of the hierarchy of ``cls`` makes ``attr`` part of the treedef: its
        static field, or the aux data of its ``tree_flatten``."""
        return next(
            (at for k in self.mro(cls) if (at := self.classes[k].static_at.get(attr))), None
        )

    def class_of_method(self, fn: FunctionSummary) -> str | None:
        """The class of a method (or of the method a nested function is in)."""
        while fn.cls is None and fn.parent is not None:
            parent = self.functions.get(fn.parent)
            if parent is None:
                return None
            fn = parent
        return fn.cls

    def as_target(self, qualname: str, bound: bool) -> Target | None:
        fn = self.functions.get(qualname)
        if fn is not None:
            bound = bound or fn.kind == "classmethod"  # bound to its class, however it is named
            if fn.jit is not None:
                return JitTarget(self.owner[qualname].module, fn.jit, bound=bound)
            return FuncTarget(qualname, bound=bound)
        if qualname in self.classes:
            return ClassTarget(qualname)
        return None

    def resolve_name(self, module: ModuleSummary, dotted: str, depth: int = 0) -> Target | None:
        """A dotted name as written in ``module``: local definitions first, then imports."""
        if depth > MAX_DEPTH:
            return None
        head, _, rest = dotted.partition(".")
        local = f"{module.module}.{head}"
        if local in self.functions or local in self.classes:
            target = self.as_target(local, bound=False)
            return self._attribute(target, rest) if rest else target
        value = module.globals.get(head)
        if value is not None and value.site is not None and not rest:
            return JitTarget(module.module, value.site, bound=False)
        if value is not None and value.ty == INSTANCE and value.ref and rest and "." not in rest:
            # A method of a module-level instance (``registry.add(...)`` after importing it).
            cls = self.class_named(module, value.ref, depth + 1)
            return self._instance_member(cls, rest) if cls is not None else None
        imported = module.imports.get(head)
        if imported is not None:
            dotted = f"{imported}.{rest}" if rest else imported
            return self.resolve_qualified(dotted, depth + 1, module)
        star = self.star_source(module, head) if value is None else None
        return self.resolve_name(star, dotted, depth + 1) if star is not None else None

    def star_source(
        self, module: ModuleSummary, name: str, seen: frozenset[str] = frozenset()
    ) -> ModuleSummary | None:
        """The module whose ``from m import *`` binds ``name`` in ``module``: the last one that
        exports it (its ``__all__``, else its public names) and binds it."""
        seen = seen | {module.module}
        for star in reversed(module.star_imports):
            key = self.layout.module(module.module, star) if self.layout is not None else star
            found = self.modules.get(key)
            if found is None or found.module in seen:
                continue
            exported = found.exports
            if name not in exported if exported is not None else name.startswith("_"):
                continue
            local = f"{found.module}.{name}"
            if (
                local in self.functions
                or local in self.classes
                or name in found.globals
                or name in found.imports
                or self.star_source(found, name, seen) is not None
            ):
                return found
        return None

    def resolve_qualified(
        self, dotted: str, depth: int = 0, importer: ModuleSummary | None = None
    ) -> Target | None:
        """A fully qualified name, as ``importer`` imports it: the longest prefix that is a module,
        then a name inside it."""
        if depth > MAX_DEPTH:
            return None
        found = self.module_of(dotted, importer)
        return self.resolve_name(found[0], found[1], depth + 1) if found is not None else None

    @query("symbols", whole=True)
    def runs_x64(self, module: str, library: bool = False) -> bool:
        """Whether code of ``module`` runs with jax's 64-bit types on, when run from there: the
        module, or one it imports at any depth, turns them on (a script of the project that turns
        them on does not for another script that does not import it). ``library``: run by whoever
        imports it (a function nothing in the project calls), so also when a module that turns
        them on imports it."""
        if not self.x64:
            return False
        importers, imported = self._x64_reach
        return module in importers or (library and module in imported)

    def x64_inputs(self) -> tuple[tuple[object, ...], ...]:
        """What ``_x64_reach`` is found from besides the layout: each module's name, imports and
        whether it turns x64 on."""
        return tuple((name, m.imports, m.star_imports, m.x64) for name, m in self.modules.items())

    def x64_reach(self) -> tuple[frozenset[str], frozenset[str]]:
        return self._x64_reach

    def take_x64_reach(self, reach: tuple[frozenset[str], frozenset[str]]) -> None:
        """Take ``_x64_reach`` as a run found it from the same inputs (``x64_inputs``, the same
        layout): a long-lived process's last run."""
        self.__dict__["_x64_reach"] = reach

    @cached_property
    def _x64_reach(self) -> tuple[frozenset[str], frozenset[str]]:
        """The modules that import a module turning x64 on (at any depth, itself included), and
        those such a module imports: one walk of the import graph each way, instead of every
        module's import closure (which took half of the rules' time on the speed corpus)."""
        edges = {name: self._imported_modules(summary) for name, summary in self.modules.items()}
        back: dict[str, list[str]] = {}
        for name, imported in edges.items():
            for other in imported:
                back.setdefault(other, []).append(name)
        on = [name for name, summary in self.modules.items() if summary.x64]
        return _reached(on, lambda m: back.get(m, ())), _reached(on, edges.__getitem__)

    @query("symbols", whole=True)
    def is_script(self, module: str) -> bool:
        """Whether ``module`` is one of ``scripts``."""
        return module in self.scripts

    @cached_property
    def scripts(self) -> frozenset[str]:
        """The modules outside any package that no module of the project imports: files run as
        programs of their own (``examples/run.py``), whose top level runs only there. Told by the
        name Python imports them by: ``exp_a/train.py`` beside ``exp_b/train.py`` is keyed
        ``exp_a.train``, and is still a module of no package."""
        imported = {m for s in self.modules.values() for m in self._imported_modules(s)}
        named = self.layout.name if self.layout is not None else str
        return frozenset(
            name for name in self.modules if "." not in named(name) and name not in imported
        )

    def _imported_modules(self, module: ModuleSummary) -> set[str]:
        """The project's modules that ``module`` imports (``import a.b``, ``from a import b``, ``from
        a.b import name``, ``from a import *``)."""
        out: set[str] = set()
        for dotted in (*module.imports.values(), *module.star_imports):
            key = self.layout.module(module.module, dotted) if self.layout is not None else dotted
            found = self.modules.get(key)
            if found is None:
                within = self.module_of(dotted, module)  # `from a.b import name`: a.b
                found = within[0] if within is not None else None
            if found is not None:
                out.add(found.module)
        return out

    def constant(self, dotted: str, importer: ModuleSummary) -> int | None:
        """The int a module constant holds (``ModuleSummary.constants``), by its qualified name as
        ``importer`` imports it, through the modules that import it in turn."""
        return self._module_level(dotted, importer, lambda module: module.constants)

    def global_value(self, dotted: str, importer: ModuleSummary) -> Value | None:
        """What a module-level name holds (``ModuleSummary.globals``: a display, a number), by its
        qualified name as ``importer`` imports it, through the modules that import it in turn."""
        return self._module_level(dotted, importer, lambda module: module.globals)

    def _module_level(
        self,
        dotted: str,
        importer: ModuleSummary,
        table: Callable[[ModuleSummary], Mapping[str, _T]],
        depth: int = 0,
    ) -> _T | None:
        found = self.module_of(dotted, importer) if depth <= MAX_DEPTH else None
        if found is None:
            return None
        module, name = found
        held = table(module)
        if name in held:
            return held[name]
        imported = module.imports.get(name)
        if imported is None:
            return None
        return self._module_level(imported, module, table, depth + 1)

    def module_of(
        self, dotted: str, importer: ModuleSummary | None
    ) -> tuple[ModuleSummary, str] | None:
        """The longest prefix of ``dotted`` that is a module, as ``importer`` imports it, and the
        name inside it."""
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:cut])
            if importer is not None and self.layout is not None:
                prefix = self.layout.module(importer.module, prefix)
            module = self.modules.get(prefix)
            if module is not None:
                return module, ".".join(parts[cut:])
        return None

    def _attribute(self, target: Target | None, rest: str) -> Target | None:
        """``Cls.rest``: a method, or a class nested in the body of ``Cls`` or of one of its bases
        (``class C(A.B)``, ``A.B.make()``)."""
        if not isinstance(target, ClassTarget):
            return None
        head, _, tail = rest.partition(".")
        for klass in self.mro(target.qualname):
            info = self.classes[klass]
            if head in info.methods or head in info.jit_attrs:
                return self.member(klass, head, bound=False) if not tail else None
            nested = f"{klass}.{head}"
            if nested in self.classes:
                return self._attribute(ClassTarget(nested), tail) if tail else ClassTarget(nested)
        return None

    def member(
        self, cls: str, name: str, bound: bool = True, after: str | None = None
    ) -> Target | None:
        """``name`` looked up on class ``cls`` and its bases (a method or a jitted attribute); with
        ``after``, only on the classes after it (``super().name``)."""
        chain = self.mro(cls)
        if after is not None:
            chain = chain[chain.index(after) + 1 :] if after in chain else []
        for klass in chain:
            info = self.classes[klass]
            if name in info.methods:
                fn = self.functions.get(info.methods[name])
                if fn is None:
                    return None
                # A classmethod is bound to the class even when read off it (`Grid.uniform(n)`).
                is_bound = (bound or fn.kind == "classmethod") and fn.kind != "staticmethod"
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
        while stack and len(out) < MAX_DEPTH:
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

    def derives_from(self, cls: str, bases: frozenset[str]) -> bool:
        """Whether ``cls`` or a known base of it is written deriving from one of ``bases``
        (library classes, by canonical name: ``flax.linen.Module``)."""
        return any(base in bases for klass in self.mro(cls) for base in self.classes[klass].bases)

    def resolve_base(self, module: ModuleSummary, base: str) -> str | None:
        if base in self.classes:
            return base
        target = self.resolve_qualified(base, importer=module) or self.resolve_name(module, base)
        return target.qualname if isinstance(target, ClassTarget) else None

    # A question, not a read of the module: the rules ask about jit sites of modules whose other
    # facts an edit changed.
    @query("symbols", whole=True)
    def jit_spec(self, target: JitTarget) -> JitSpec:
        return self.modules[target.module].jits[target.index]

    @query("symbols", whole=True)
    def path_of(self, module: str) -> str:
        """The file of ``module``."""
        return self.modules[module].path

    def member_function(self, cls: str, name: str) -> FuncTarget | None:
        for klass in self.mro(cls):
            qualname = self.classes[klass].methods.get(name)
            if qualname is not None:
                fn = self.functions.get(qualname)
                return FuncTarget(qualname, bound=fn is not None and fn.kind != "staticmethod")
        return None

    def call_at(self, location: Location) -> Site | None:
        """The function and call index of the call at ``location``, anywhere in the project."""
        span = (location.line, location.col, location.end_line, location.end_col)
        return self.call_span(location.path, span)

    def call_span(self, path: str, span: tuple[int, int, int, int]) -> Site | None:
        """``call_at`` of the location in file ``path`` that starts and ends at ``span``: keyed by
        plain tuples, whose hash is C's (a ``Location``'s is a dataclass's Python ``__hash__``).
        Linking asks it of a few files again and again: found there, not asked as a question
        (while the rules' reads are logged, none is there, ``readlog.recording``)."""
        calls = self._calls_at.get(path)
        return (calls if calls is not None else self.calls_in(path)).get(span)

    @query("symbols", whole=True)
    def calls_in(self, path: str) -> dict[tuple[int, int, int, int], Site]:
        """The calls of the module in file ``path``, by where each starts and ends."""
        calls = self._calls_at.get(path)
        if calls is None:
            # By module, when first asked: linking asks of a few modules only.
            modules = self.modules_at(path)
            if not modules:
                calls = {}
            else:
                module = modules[-1]  # where two keys name one file, the last
                picked = self._picked.each(((module.module, module),), _calls_by_span, _spanned)
                calls = picked[0]
            self._calls_at[path] = calls
        return calls

    @query("symbols", whole=True)
    def modules_at(self, path: str) -> list[ModuleSummary]:
        """The modules of the file at ``path`` (one, but where two keys name one file), in the
        project's order."""
        if self._by_path is None:
            self._by_path = {}
            for module in self.modules.values():
                self._by_path.setdefault(module.path, []).append(module)
        return self._by_path.get(path, [])


def _calls_by_span(module: ModuleSummary) -> dict[tuple[int, int, int, int], Site]:
    """The calls of ``module`` in its own file, by where each starts and ends (``call_span``): a
    function of the summary alone (a head has its calls' places too)."""
    calls: dict[tuple[int, int, int, int], Site] = {}
    # A call a closure makes that its enclosing function reads in place (the one expression of a
    # nested def, ``summarise.calls``) is recorded by both: the enclosing function, declared
    # first, knows what the closure's names are.
    for qualname, fn in module.functions.items():
        for index, call in enumerate(fn.calls):
            if (at := call.location).path == module.path:
                calls.setdefault((at.line, at.col, at.end_line, at.end_col), (qualname, index))
    return calls


def _spanned(_: str, module: ModuleSummary) -> tuple[dict[tuple[int, int, int, int], Site]]:
    return (_calls_by_span(module),)


def _reached(start: Iterable[str], following: Callable[[str], Iterable[str]]) -> frozenset[str]:
    """``start`` and every node reached from it along ``following``."""
    reached = set(start)
    queue = deque(reached)
    while queue:
        for other in following(queue.popleft()):
            if other not in reached:
                reached.add(other)
                queue.append(other)
    return frozenset(reached)


def _one_setting_each(modules: Iterable[ModuleSummary]) -> dict[str, str]:
    """The options the program sets at a module's top level, each that every module setting it
    sets alike: the setting every call runs under, whichever module is imported first."""
    seen: dict[str, set[str]] = {}
    for summary in modules:
        for option, setting in summary.settings.items():
            seen.setdefault(option, set()).add(setting)
    return {option: next(iter(v)) for option, v in sorted(seen.items()) if len(v) == 1}
