"""``Project``: links the calls of a project's functions, in rounds, and answers what the analysis asks
of the links (the targets of a call site, the callers of a function, what a jit site binds).

A name resolves through ``Symbols``; a function value (a parameter, a call's result, an item of a
dict) and the class of an object through the calls linked so far (``resolve_ref``, ``classes_of``),
so those are resolved again, in rounds, each lookup recording what it read (``_Reads``) so that a
round resolves again only what a change may move.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, insort
from collections.abc import Callable, Container, Hashable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, fields, replace
from functools import cached_property
from itertools import count, filterfalse
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from retracelint import funcrefs
from retracelint.discover import ImportLayout
from retracelint.funcrefs import FuncRef, Path
from retracelint.readlog import query
from retracelint.summary import (
    Callee,
    CallSite,
    FunctionSummary,
    ModuleSummary,
    Param,
)

if TYPE_CHECKING:
    import networkx as nx

    from retracelint.session import Picked
from retracelint.callgraph import jits
from retracelint.callgraph.symbols import MAX_DEPTH, Registered, Symbols
from retracelint.callgraph.targets import (
    ClassTarget,
    FuncTarget,
    JitBinding,
    JitTarget,
    Signature,
    Site,
    Target,
)

_T = TypeVar("_T")
_K = TypeVar("_K", bound=Hashable)
_MAX_ROUNDS = 8  # rounds of linking function values: each follows the calls the last one found
_MAX_REF_DEPTH = 48  # function values followed through this many parameters and returns at most
# A lookup whose chains of nested lookups are none longer than this meets neither depth limit above,
# whatever was cached before it, so that what it finds depends only on what it read.
_SHORT = MAX_DEPTH + 1
# Callees resolved along the call graph (``funcrefs``), after the others.
_ALONG_THE_GRAPH = frozenset(
    {"param", "ret", "up", "module", "wrapped", "partial", "transform", "mapped", "recv", "new"}
)
# ``self.m()`` is linked to the overrides of ``m`` in the subclasses too, unless more of them than
# this override it: then it is a plugin interface, whose implementations a configuration picks (one
# per run), and the call is linked to its own class's ``m`` alone.
_MAX_OVERRIDES = 16
# Callees that resolve through the class of an object, which its callers may tell.
_BY_CLASS_OF_OBJECT = ("recv", "new")
# Callees that resolve through the class of the function that calls them: not the same from every
# function of a module.
_PER_CLASS = frozenset({"self", "super"})
# What a resolution depends on: the call graph (it is done after the plain names), and the callers
# of a function (it may change while more calls are linked).
_ALONG, _CALLERS = 1, 2
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


@dataclass(eq=False, slots=True)
class _Reads:
    """What a lookup read of the calls linked so far. A round of linking resolves a call site again
    only when something its last resolution read has changed since (``Project._link``)."""

    since: int  # the clock (``Project._clock``) when the oldest lookup it reuses was done
    depends: int = 0  # _ALONG, _CALLERS
    # The links it read: the callers of a function (its qualified name), the targets of a call
    # site. None for none, as most lookups read none.
    links: set[str | Site] | None = None
    # It met a lookup in progress (a cycle) or a depth limit: what it found depends on which lookup
    # came first, not only on what it read.
    unsure: bool = False
    height: int = 0  # its longest chain of nested lookups, those it found cached included

    def read(self, link: str | Site) -> None:
        if self.links is None:
            self.links = {link}
        else:
            self.links.add(link)

    def add(self, other: _Reads) -> None:
        """Take in what a lookup it used read."""
        if other.since < self.since:
            self.since = other.since
        self.depends |= other.depends
        if other.links:
            if self.links is None:
                self.links = set(other.links)
            else:
                self.links |= other.links
        if other.unsure:
            self.unsure = True
        if other.height > self.height:
            self.height = other.height


# What a lookup that meets itself in progress reads of it: in ``resolve_ref`` a result that may
# change (the rounds go on with it), elsewhere nothing more. Never changed themselves.
_CYCLE_REF = _Reads(sys.maxsize, _ALONG | _CALLERS, unsure=True)
_CYCLE = _Reads(sys.maxsize, unsure=True)


class _Order(Generic[_K]):
    """The order of the keys of ``Project.callers`` (or ``jit_callers``): by where ``_connect`` first
    meets each, a call site (its rank) and a target in it. Linking only what changed appends new keys
    and moves none: those it may have put out of place are ``moved``."""

    def __init__(self, last: tuple[int, int] | None) -> None:
        self.moved: set[_K] = set()
        self.last = last  # where the last key in place is first met

    def appended(self, key: _K, first: tuple[int, int]) -> None:
        if self.last is None or first > self.last:
            self.last = first
        else:
            self.moved.add(key)


class _Diverged(Exception):
    """A round that left call sites as they were may have found otherwise than one that resolves
    them all (``Project._round``)."""


@dataclass
class LinkState:
    """What linking a project found, kept for its next run: after an edit of one module that no
    other imports, that run links only the edited module's calls again (``Project``'s ``last``)."""

    modules: tuple[str, ...]
    # Each equal target one object, which pickle writes once: 11,400 of the speed corpus's 35,000.
    site_targets: dict[Site, tuple[Target, ...]]
    callers: dict[str, list[Site]]
    jit_callers: dict[tuple[str, int], list[Site]]
    callees: dict[JitTarget, str | None]  # the function each jit runs
    too_deep: dict[Site, None]
    # Calls by name linked in rounds, as the names turned out to depend on the call graph.
    named_late: frozenset[Site]
    # The method names a lookup asked the one class that defines them for (``_only_definer``).
    asked_definers: frozenset[str]
    # The links (the callers of a function, the targets of a call site) that the last resolution of
    # a call site, or the finding of a jit's function, read: the readers, by link (some may be gone
    # or read it no more: a module linked again adds its readers and removes none).
    read_by: dict[str | Site, set[Site | JitTarget]]


@dataclass(frozen=True)
class Relink:
    """The last link of a project and the one module edited since (as it was then)."""

    state: LinkState
    edited: ModuleSummary


@dataclass(frozen=True, eq=False)
class Lookups:
    """What the lookups of a project's run found, each with what it read (``resolve_ref``,
    ``classes_of``, ``jit_binding``), and each class's MRO (``Symbols.mro``): the next run, which
    links one module again from ``state`` (the link this run left, by identity), takes over
    those of the others that read no link the edit changed (``Project._take_over``)."""

    state: LinkState
    refs: dict[tuple[str, Callee], tuple[tuple[Target, ...], _Reads]]
    types: dict[tuple[str, str], tuple[frozenset[str] | None, _Reads]]
    bindings: dict[JitTarget, tuple[JitBinding, _Reads]]
    # The symbol tables, which the next run takes over where its modules are the same (whether
    # it links one module again or all of them: they depend on the modules alone).
    registered: Registered
    mro: dict[str, list[str]]  # last: ``getattr(Lookups, "mro")`` is a default (``type.mro``)


@dataclass(frozen=True, eq=False)
class Relinked:
    """What linking one module again (``Project._relinked``) changed of the link it started from:
    the other functions' callers are the call sites they were, with the same targets."""

    base: dict[str, list[Site]]  # that link's callers table (``LinkState.callers``): names it
    moved: frozenset[str]  # the functions whose callers it changed
    # The links it changed (the callers of a function, the targets of a call site), and those a
    # lookup of another module may have read of the edited module's calls: what read none of
    # them elsewhere finds what it found (``Project._take_over``).
    changed: frozenset[str | Site] = frozenset()


class Project:
    """All module summaries, the resolved call graph, and the lookups the analysis needs."""

    def __init__(
        self,
        summaries: list[ModuleSummary],
        load: Callable[[ModuleSummary, str], ModuleSummary | None] | None = None,
        layout: ImportLayout | None = None,
        last: Relink | None = None,
        sources: Callable[[str], bytes | None] | None = None,
        picked: Picked | None = None,
        lookups: Lookups | None = None,
    ) -> None:
        # The definitions and the lookups that depend on them alone; their tables are this project's
        # (``project.functions`` is ``project.symbols.functions``, filled in as functions are loaded).
        # ``picked``: what a run before found of each module's summary alone (``session.Picked``);
        # ``lookups``: what the last run's lookups found (``Lookups``), for a relink from its link.
        self.symbols = Symbols(
            summaries,
            load,
            layout,
            instance_member=self._member_or_stored,
            picked=picked,
            last=lookups.registered if lookups is not None else None,
        )
        self.modules, self.functions = self.symbols.modules, self.symbols.functions
        self.owner, self.classes = self.symbols.owner, self.symbols.classes
        self.x64 = self.symbols.x64
        self.settings = self.symbols.settings
        # The first target of each call site, and all of them (a value called may be one of
        # several functions), by call site and by callee function.
        self.targets: dict[Site, Target] = {}
        self.site_targets: dict[Site, tuple[Target, ...]] = {}
        self._target_to: dict[tuple[Site, str], Target] = {}
        self.callers: dict[str, list[Site]] = {}
        self.jit_callers: dict[tuple[str, int], list[Site]] = {}
        # What a function value resolves to, the classes of an object, jit bindings, each with what
        # finding it read: kept per round of linking.
        self._refs: dict[tuple[str, Callee], tuple[tuple[Target, ...], _Reads]] = {}
        self._types: dict[tuple[str, str], tuple[frozenset[str] | None, _Reads]] = {}
        self._bindings: dict[JitTarget, tuple[JitBinding, _Reads]] = {}
        self._reads = _Reads(0)  # what the lookup in progress read
        self._depth = 0  # resolutions in progress
        # Linking in rounds (``_link``): what each call site's last resolution read, and what
        # finding the function each jit runs read; the call sites that read each link; the sites
        # to resolve again, as a link they read changed since; when each link last changed, by a
        # clock that ticks at each change; the order call sites entered ``site_targets``
        # (``_connect``'s); the function each jit runs as linked last.
        self._site_reads: dict[Site, _Reads] = {}
        self._jit_reads: dict[JitTarget, _Reads] = {}
        self._readers: dict[str | Site, set[Site]] = {}
        self._dirty: set[Site] = set()
        self._changed_at: dict[str | Site, int] = {}
        self._clock = 0
        self._rank: dict[Site, int] = {}
        self._ranks = 0
        self._position: dict[Site, int] = {}  # the order of the call sites in a round
        self._callees: dict[JitTarget, str | None] = {}
        # Call sites whose targets changed in this round after a site that read them was left as
        # it was: what that site cached of them is out of date (``_round``).
        self._risky: set[Site] = set()
        self._callee_order: _Order[str] = _Order(None)
        self._jit_order: _Order[tuple[str, int]] = _Order(None)
        self._definers: dict[str, list[str]] | None = None
        # Call sites whose callee could not be followed: finding it went deeper than Python's stack
        # (a chain of names or values the depth limits do not bound). Left unlinked and reported.
        self.too_deep: dict[Site, None] = {}
        # What the last resolution of each call site, and the finding of each jit's function, read
        # (``LinkState.read_by``).
        self._last_reads: dict[Site | JitTarget, _Reads] = {}
        self._read_by: dict[str | Site, set[Site | JitTarget]] | None = None
        self._named_late: frozenset[Site] = frozenset()
        self._asked_definers: set[str] = set()
        # The text of each module's file, by path (``_names_unread``); None: not known.
        self._sources = sources
        # Set where this project linked one module again, the rest taken over from ``last``.
        self.relinked: Relinked | None = None
        self.symbols.register_pytrees()
        if last is None or not self._relinked(last):
            self._link()
        elif lookups is not None and lookups.state is last.state and self.relinked is not None:
            self._take_over(lookups, last.edited, self.relinked.changed)

    def function(self, qualname: str) -> FunctionSummary:
        return self.symbols.function(qualname)

    def _link(self) -> None:
        """Resolve every call. A name resolves the same way from every function of a module (half
        the calls of the corpus repeat a name their module already called); ``self.m`` depends on
        the class. A function value (a parameter, a call's result, an item of a dict) depends on
        the calls linked so far, so those are resolved again, in rounds, until nothing changes.

        A round resolves again only the call sites whose last resolution read a link that changed
        since (the callers of a function, the targets of a call site), and links again only what
        changed: after the first round, a few dozen of the 14,000 sites that read the callers change
        (speed corpus). It finds what resolving them all finds (``_round`` says why)."""
        deferred = self._link_names(self.functions.items())
        self._rank = {site: rank for rank, site in enumerate(self.site_targets)}
        self._ranks = len(self._rank)
        pending = dict.fromkeys(deferred)  # the sites of the next round
        self._position = {site: at for at, site in enumerate(deferred)}  # the order of every round
        self._connect()
        self._jit_reads.clear()  # read while round 0 was still finding the targets
        for round_ in range(_MAX_ROUNDS):
            # The last round leaves the lookups that ``jit_binding`` reuses afterwards cached as
            # resolving every site does: it resolves them all, as the first does.
            whole = round_ == _MAX_ROUNDS - 1
            before = dict(self.site_targets)  # ranks stay: a site that enters again gets a new one
            try:
                changed, settled = self._round(pending, skipping=round_ > 0 and not whole)
                if changed and not whole:
                    self._connect_changes(changed)
            except _Diverged:
                self.site_targets = before
                changed, settled = self._round(pending, skipping=False)
                whole = True
            if not changed:
                break
            if whole:
                self._connect()
            for site in settled:
                del pending[site]
        self._refs, self._bindings, self._reads, self._risky = {}, {}, _Reads(self._clock), set()
        self.callers = _reordered(self.callers, self._callee_order.moved, self._first_callee)
        self.jit_callers = _reordered(self.jit_callers, self._jit_order.moved, self._first_jit)
        self._in_source_order()
        self._site_reads, self._jit_reads, self._readers, self._dirty = {}, {}, {}, set()
        self._changed_at, self._rank, self._position = {}, {}, {}

    def _in_source_order(self) -> None:
        """Put the call sites, and the callers of each function and jit, in the order of the
        functions and of the calls in each: the order does not depend on the rounds a call was
        linked in, so that linking one module again (``_relinked``) finds the same order. Only the
        calls linked in the rounds (``_position``) can be out of it: the others were ranked in it."""
        order, rounds = self._order, self._position
        self.site_targets = dict(
            sorted(self.site_targets.items(), key=lambda item: (order[item[0][0]], item[0][1]))
        )
        for sites in self.callers.values():
            if any(site in rounds for site in sites):
                sites.sort(key=self._place)
        self.callers = {
            callee: self.callers[callee] for callee in sorted(self.callers, key=self._met)
        }
        for sites in self.jit_callers.values():
            sites.sort(key=self._place)
        self.jit_callers = {
            key: self.jit_callers[key] for key in sorted(self.jit_callers, key=self._jit_met)
        }

    @cached_property
    def _order(self) -> dict[str, int]:
        return dict(zip(self.functions, count()))  # in C: 100,000 functions, made on each edit

    def _place(self, site: Site) -> tuple[int, int]:
        """Where a call site is in the project: its function's place, the call's in the function."""
        return self._order[site[0]], site[1]

    def _met(self, callee: str) -> tuple[int, int, int]:
        """Where the callers of function ``callee`` meet it first: the call, the target in it."""
        site = self.callers[callee][0]
        target = self.target_to(site, callee)
        return (*self._place(site), self.site_targets[site].index(target))  # type: ignore[arg-type]

    def _jit_met(self, key: tuple[str, int]) -> tuple[int, int, int]:
        site = self.jit_callers[key][0]
        targets = self.site_targets[site]
        at = next(i for i, t in enumerate(targets) if isinstance(t, JitTarget) and t.key == key)
        return (*self._place(site), at)

    def _relinked(self, last: Relink) -> bool:
        """Link from ``last``: its links, with the calls of its edited module resolved again. False,
        with nothing linked, unless that finds what linking every module finds: the module is
        imported by none (so no other call names its functions or classes), its classes are as
        the other modules see them (``_classes_kept``), resolving its calls met no cycle, depth
        limit or object typed by its callers (what those find depends on the order calls are
        linked in, ``_settle``), and every call or jit elsewhere that read a link the edit may have
        changed finds again what it found (``_found_again``): the targets of one of its calls, the
        callers of a function it calls from a function that changed (a reader may read the
        arguments of those calls)."""
        state, before = last.state, last.edited
        module = self.modules.get(before.module)
        if (
            module is None
            or module.is_package
            or state.modules != tuple(self.modules)
            or not self._classes_kept(before, module, state.asked_definers)
            or (module.pytree_static, module.x64, module.settings)
            != (before.pytree_static, before.x64, before.settings)
            or any(site[0] in before.functions for site in state.too_deep)
        ):
            return False
        imported = self._imported(module.module)
        if imported and not _face_kept(before, module, self._whole):
            return False
        if not self._names_unread(before, module):
            return False
        names = module.functions.keys() | before.functions.keys()
        edited = {name for name in names if before.functions.get(name) != self._whole(name)}
        again = self._linked_again(before, module, edited, imported)
        self._named_late = frozenset(s for s in state.named_late if s[0] not in again)
        self._asked_definers |= state.asked_definers
        self.site_targets, self.callers, self.jit_callers = (
            state.site_targets,
            state.callers,
            state.jit_callers,
        )
        self._callees = state.callees
        self.too_deep = state.too_deep
        # In C: a whole-project table, made again on each edit a language server links alone.
        self.targets = dict(
            zip(self.site_targets, map(itemgetter(0), self.site_targets.values()), strict=True)
        )
        gone = _sites_of(self.site_targets, before.functions, sorted(again))
        touched: dict[str, list[Site]] = {}
        for site, targets in gone.items():
            self._unlink(site, targets, touched)
            del self.site_targets[site]
        jits = {t: self._callees.pop(t) for t in list(self._callees) if t.module == module.module}
        linked = [name for name in module.functions if name in again]
        deferred = self._link_names((name, self.functions[name]) for name in linked)
        if (
            not self._settle(module, linked, deferred, touched)
            or not self._jits_found(jits)
            or self._jits_elsewhere(again, jits)
        ):
            self._unlinked()
            return False
        changed: set[str | Site] = {
            callee
            for callee, sites in touched.items()
            if sites != self.callers.get(callee)
            or any(site[0] in edited for site in (*sites, *self.callers.get(callee, ())))
        }
        now = _sites_of(self.site_targets, self.functions, sorted(again))
        changed.update(site for site in gone.keys() | now.keys() if gone.get(site) != now.get(site))
        # A lookup that follows a call to one of the module's functions reads what it returns
        # and takes (``_returned_targets``), not only the call's targets: where that changed, so
        # did each call of it, here or in a module that reached it through what it was passed.
        changed.update(
            site
            for name in edited
            if _link_face(before.functions.get(name)) != _link_face(self._whole(name))
            for site in self.callers.get(name, ())
        )
        if imported or again != names:
            # Other modules name its functions (or its other functions, whose calls are kept, do),
            # and a lookup of theirs that reached one may have read any of its calls (the
            # arguments it passes, what it returns), whatever the targets: each call of a
            # function that changed is a link that changed.
            changed.update(
                (name, index)
                for name in edited
                for index in range(
                    max(_calls(before.functions.get(name)), _calls(self._whole(name)))
                )
            )
        readers = {
            reader
            for link in changed
            for reader in state.read_by.get(link, ())
            if not self._in_module(reader, module, again)
        }
        if not self._found_again(readers):
            self._unlinked()
            return False
        self._reorder(module, now, touched, (*gone.values(), *now.values()))
        self.relinked = Relinked(state.callers, frozenset(touched), frozenset(changed))
        self._read_by = state.read_by
        self._add_reads(self._read_by)
        self._refs, self._bindings, self._reads = {}, {}, _Reads(self._clock)
        return True

    def _linked_again(
        self, before: ModuleSummary, after: ModuleSummary, edited: set[str], imported: bool
    ) -> set[str]:
        """The functions of the edited module ``after`` (``before``, as it was) whose calls are
        linked again: every one, unless the edit changed only plain functions (``edited``: no
        method, not the top level, whose names and classes a lookup reads of the module) and the
        module shows its functions what it showed them (``_face_kept``, as for a module that
        others import); then those, and those around them or nested in them (a callee ``up``
        resolves in the enclosing function). The other functions' calls are kept as another
        module's are: what their lookups read of a changed function is its link face and its
        calls, which are links (``_relinked`` counts them changed, ``_found_again`` their
        readers). So a call typed by its callers in a function the edit left (``_settle``
        refuses to link it again alone) no longer links the whole project."""
        names = after.functions.keys() | before.functions.keys()
        whole = self._whole
        if any(
            fn is not None and fn.kind != "function"
            for name in edited
            for fn in (before.functions.get(name), whole(name))
        ) or not (imported or _face_kept(before, after, whole)):
            return set(names)
        again = set(edited)
        for name in names:
            fn = before.functions.get(name) or whole(name)
            chain = set()
            while fn is not None and fn.parent is not None:
                chain.add(fn.qualname)
                fn = before.functions.get(fn.parent) or whole(fn.parent)
            if fn is not None:
                chain.add(fn.qualname)
            if not chain.isdisjoint(edited):
                again |= chain
        return again

    def lookups(self, state: LinkState) -> Lookups:
        """What this run's lookups found, for the next run, which may link one module again from
        ``state``, this link (``link_state``)."""
        symbols = self.symbols
        return Lookups(
            state, self._refs, self._types, self._bindings, symbols.registered(), symbols._mro
        )

    def _take_over(
        self, last: Lookups, before: ModuleSummary, changed: AbstractSet[str | Site]
    ) -> None:
        """Take over the lookups of the last run (``last``, whose link this one linked a module
        again from: ``before``, as it was, changing the links ``changed``) that find here what
        they found then: those that read none of ``changed``, of no function of that module,
        whose answer holds none of its functions or classes. That is what keeps a call site's
        targets in ``_relinked`` (the edit changed none of the names, classes or bases the other
        modules' own resolve to); a lookup that met a cycle or a depth limit may find otherwise in
        another order, and is made again. What the rules ask again after an edit (the traced
        roots: 1,400 jit bindings and what callers pass to the functions that hand a parameter
        on; every class's MRO for the subclass index) is then found in these tables, not again."""
        after = self.modules[before.module]
        edited = {*before.functions, *before.classes, *after.functions, *after.classes}

        def unchanged(reads: _Reads) -> bool:
            return (
                not reads.unsure
                and reads.height <= _SHORT
                and (not reads.links or changed.isdisjoint(reads.links))
            )

        self._refs = {
            key: found
            for key, found in last.refs.items()
            if key[0] not in edited and unchanged(found[1])
        }
        for key, typed in last.types.items():
            if key not in self._types and key[0] not in edited and unchanged(typed[1]):
                self._types[key] = typed
        self._bindings = {
            target: found
            for target, found in last.bindings.items()
            if target.module != before.module
            and unchanged(found[1])
            and (found[0].wrapped is None or found[0].wrapped.qualname not in edited)
        }
        mro = self.symbols._mro
        for cls, line in last.mro.items():
            if cls not in mro and edited.isdisjoint(line):
                mro[cls] = line

    def _names_unread(self, before: ModuleSummary, after: ModuleSummary) -> bool:
        """Whether the functions the edit added to module ``after`` or removed from it (``before``,
        as it was) are named nowhere in the project but in their own definitions: no call, value or
        import of another module or of this one read them by name, so a name added or gone changes
        no other link (a call of another function of the module that passes one would: read
        through the callers of what it calls, that call did not change)."""
        changed = before.functions.keys() ^ after.functions.keys()
        if not changed:
            return True
        if self._sources is None:
            return False
        words = sorted({qualname.rpartition(".")[2].encode() for qualname in changed})
        named = re.compile(rb"(?<![\w])(?:%s)(?![\w])" % b"|".join(words))
        spans = [
            (fn.location.line, fn.location.end_line)
            for qualname, fn in after.functions.items()
            if qualname in changed
        ]
        for module in self.modules.values():
            text = self._sources(module.path)
            if text is None:
                return False
            if not any(word in text for word in words):
                continue  # a plain search first: most files name none of them
            for found in named.finditer(text):
                line = text.count(b"\n", 0, found.start()) + 1
                if module is not after or not any(a <= line <= b for a, b in spans):
                    return False
        return True

    def _in_module(
        self, reader: Site | JitTarget, module: ModuleSummary, names: Container[str]
    ) -> bool:
        """Whether ``reader`` is of ``module`` (``names``: its functions, now and before), or gone."""
        if isinstance(reader, JitTarget):
            return reader.module == module.module or reader.index >= len(
                self.modules[reader.module].jits
            )
        fn = self.functions.get(reader[0])
        return reader[0] in names or fn is None or reader[1] >= len(fn.calls)

    def _found_again(self, readers: Iterable[Site | JitTarget]) -> bool:
        """Whether each of ``readers``, the calls and jits of other modules that read a link the
        edit changed, finds again what it found (no change reaches further), as a lookup that met
        no cycle or depth limit."""
        self._refs, self._bindings, self._types = {}, {}, {}
        for reader in readers:
            reads = self._reads = _Reads(self._clock)
            try:
                if isinstance(reader, JitTarget):
                    found: object = self._find_callee(reader)[0]
                    before: object = self._callees.get(reader)
                else:
                    found, before = self._site_targets(*reader), self.site_targets.get(reader, ())
            except RecursionError:
                return False
            except KeyError:
                # It read a call whose targets, not found again yet, name a function the edit
                # removed: a link it read changed.
                return False
            if reads.unsure or reads.height > _SHORT or found != before:
                return False
            self._last_reads[reader] = reads
        return True

    def _reorder(
        self,
        module: ModuleSummary,
        again: dict[Site, tuple[Target, ...]],
        touched: dict[str, list[Site]],
        linked: Iterable[tuple[Target, ...]],
    ) -> None:
        """``_in_source_order`` after linking calls of ``module`` again (``again``: those, now),
        which were taken out and put back (``touched``: the functions whose callers that
        changed, as they were; ``linked``: the targets of those calls, before and now, of which
        only the jits' callers changed)."""
        order, functions = self._order, module.functions
        start = min(order[name] for name in functions) if functions else 0
        # The other sites are in source order, as the last link left them, and those linked again
        # after them: they go among the module's other sites (its functions are in a row in the
        # project's order), whose span is found by bisection.
        items = list(self.site_targets.items())
        others = items[: len(items) - len(again)]
        place = self._place
        split = bisect_left(others, start, key=lambda item: order[item[0][0]])
        stop = bisect_left(others, start + len(functions), key=lambda item: order[item[0][0]])
        self.site_targets = dict(others[:split])
        self.site_targets.update(
            sorted((*others[split:stop], *again.items()), key=lambda item: place(item[0]))
        )
        self.site_targets.update(others[stop:])
        self.callers = _reordered(self.callers, set(touched), self._met)
        jits = {t.key for targets in linked for t in targets if isinstance(t, JitTarget)}
        self.jit_callers = _reordered(self.jit_callers, jits, self._jit_met)

    def _jits_found(self, jits: dict[JitTarget, str | None]) -> bool:
        """Find again the function each jit of the edited module (``jits``, as linked last) runs
        that its own calls do not reach (another module calls it); False where finding it met a
        cycle or a depth limit (what it finds may then depend on the order of the lookups)."""
        for target in [t for t in jits if t not in self._callees]:  # in the order linked last
            callee, reads = self._find_callee(target)
            if reads.unsure or reads.height > _SHORT:
                return False
            self._callees[target] = callee
        return True

    def _jits_elsewhere(self, again: Container[str], jits: dict[JitTarget, str | None]) -> bool:
        """Whether a call of a function not linked again (``again``: of another module, or of
        the edited one) may reach a jit of the edited module (passed to it, say) whose function
        changed or is no longer found, the calls linked again reaching it no more."""
        moved = {t for t, callee in jits.items() if self._callees.get(t, callee) != callee}
        moved |= jits.keys() - self._callees.keys()
        return bool(moved) and any(
            t in moved
            for site, targets in self.site_targets.items()
            if site[0] not in again
            for t in targets
        )

    def _classes_kept(
        self, before: ModuleSummary, after: ModuleSummary, asked: frozenset[str]
    ) -> bool:
        """Whether the edit of module ``after`` (``before``, as it was) left its classes as the other
        modules see them. They cannot name them (nothing imports the module), but a base class of
        another module calls the methods its subclasses define, and a method of an object of no
        known class is the one class's that defines it (``_only_definer``): a class may change only
        where its bases are as they were and of this module or none of the project's, and where
        the method names it adds or drops were never asked for that way."""
        if before.classes.keys() != after.classes.keys():
            return False
        for name, now in after.classes.items():
            was = before.classes[name]
            if replace(was, location=now.location) == now:
                continue
            if was.bases != now.bases:
                return False
            if any(self.owner[c].module != after.module for c in self.symbols.mro(name)):
                return False
            if ({*was.methods, *was.jit_attrs} ^ {*now.methods, *now.jit_attrs}) & asked:
                return False
        return True

    def _whole(self, qualname: str) -> FunctionSummary | None:
        return self.symbols.function(qualname) if qualname in self.functions else None

    def _imported(self, module: str) -> bool:
        """Whether another module may import ``module``: one of its imports names a module of that
        last name (a relative or re-rooted import names it by a shorter path), or starts with the
        name of a package above it (``import lib`` reaches ``lib.model.fit`` as an attribute)."""
        *above, name = module.split(".")
        named = {name, *(_FIRST + part for part in above)}
        # Each module's words kept while its summary is the same object (``session.Picked``): a
        # script imported by none is otherwise a walk of every import of the project per edit.
        words = self.symbols._picked.each(self.modules.items(), _import_words, _import_words)
        return any(
            key != module and not named.isdisjoint(found)
            for key, found in zip(self.modules, words, strict=True)
        )

    def _unlink(
        self, site: Site, targets: tuple[Target, ...], touched: dict[str, list[Site]]
    ) -> None:
        """Take call ``site`` (whose targets were ``targets``) out of the callers and jit callers,
        keeping in ``touched`` each function's callers as they were first."""
        self.targets.pop(site, None)
        for callee in self._reached(targets):
            sites = self.callers[callee]
            touched.setdefault(callee, list(sites))
            sites.remove(site)
            if not sites:
                del self.callers[callee]
            self._target_to.pop((site, callee), None)
        for key in dict.fromkeys(t.key for t in targets if isinstance(t, JitTarget)):
            sites = [s for s in self.jit_callers[key] if s != site]
            if sites:
                self.jit_callers[key] = sites
            else:
                del self.jit_callers[key]

    def _link_site(self, site: Site, touched: dict[str, list[Site]]) -> None:
        """Put call ``site`` among the callers of what its targets reach, in the order of calls."""
        targets = self.site_targets[site]
        self.targets[site] = targets[0]
        for target in targets:
            if isinstance(target, JitTarget) and target not in self._callees:
                self._callees[target] = self._find_callee(target)[0]
        for callee, target in self._reached(targets).items():
            sites = self.callers.get(callee)
            if sites is None:
                touched.setdefault(callee, [])
                self.callers[callee] = [site]
            else:
                touched.setdefault(callee, list(sites))
                insort(sites, site, key=self._place)
            self._target_to[site, callee] = target
        jits = [t.key for t in targets if isinstance(t, JitTarget)]
        for key in dict.fromkeys(jits):
            sites = self.jit_callers.setdefault(key, [])
            at = bisect_left(sites, self._place(site), key=self._place)
            sites[at:at] = [site] * jits.count(key)

    def _settle(
        self,
        module: ModuleSummary,
        linked: list[str],
        deferred: list[Site],
        touched: dict[str, list[Site]],
    ) -> bool:
        """Link the call sites of the functions ``linked`` of ``module`` (those of ``deferred`` in
        rounds, until none changes); False where what that finds may depend on the order calls
        are linked in."""
        for site in _sites_of(self.site_targets, module.functions, linked):
            self._link_site(site, touched)
        for _ in range(_MAX_ROUNDS):
            self._refs, self._bindings, self._types = {}, {}, {}
            moved = False
            for site in deferred:
                reads = self._reads = _Reads(self._clock)
                try:
                    targets = self._site_targets(*site)
                except RecursionError:
                    return False
                if reads.unsure or reads.height > _SHORT:
                    return False
                if targets and self._method_call(site) and reads.depends & _CALLERS:
                    return False  # typed once by the callers linked first: see ``_round``
                if not reads.depends & _CALLERS and any(map(self._in_rounds, reads.links or ())):
                    # Linking every module leaves it as the first round found it, which may be
                    # before the call whose targets it read found its own.
                    return False
                self._last_reads[site] = reads
                before = self.site_targets.get(site, ())
                if targets == before:
                    continue
                moved = True
                if before:
                    self._unlink(site, before, touched)
                    del self.site_targets[site]
                if targets:
                    self.site_targets[site] = targets
                    self._link_site(site, touched)
            if not moved:
                return not any(
                    reads.unsure or reads.height > _SHORT
                    for reader, reads in self._last_reads.items()
                    if isinstance(reader, JitTarget)
                )
        return False

    def _in_rounds(self, link: str | Site) -> bool:
        """Whether ``link`` is a call site linked in the rounds, whose targets may change there."""
        if isinstance(link, str):
            return False
        return link in self._named_late or _along_the_graph(self.functions[link[0]].calls[link[1]])

    def _unlinked(self) -> None:
        """Forget what linking one module again did, to link them all."""
        self.site_targets, self.targets, self.callers, self.jit_callers = {}, {}, {}, {}
        self.too_deep, self._named_late, self._asked_definers = {}, frozenset(), set()
        self._target_to, self._callees, self._last_reads = {}, {}, {}
        self._refs, self._bindings, self._types, self._reads = {}, {}, {}, _Reads(self._clock)

    def _add_reads(self, read_by: dict[str | Site, set[Site | JitTarget]]) -> None:
        """Add to ``read_by`` the links ``_last_reads`` read, by reader."""
        for reader, reads in self._last_reads.items():
            for link in reads.links or ():
                found = read_by.get(link)
                if found is None:
                    read_by[link] = {reader}
                else:
                    found.add(reader)

    def link_state(self) -> LinkState:
        """What this link found, for the next run of the project (``Relink``)."""
        read_by = self._read_by
        if read_by is None:
            read_by = self._read_by = {}
            self._add_reads(read_by)
        one: dict[Target, Target] = {}
        return LinkState(
            modules=tuple(self.modules),
            # A link made from another (``relinked``) holds that one's objects but for the module
            # linked again: making each equal target one object again (0.03 CPU s per edit of the
            # speed corpus) would save pickle only the few new ones.
            site_targets=dict(self.site_targets)
            if self.relinked is not None
            else {
                site: tuple([one.setdefault(t, t) for t in targets])
                for site, targets in self.site_targets.items()
            },
            callers=self.callers,
            jit_callers=self.jit_callers,
            callees=self._callees,
            too_deep=self.too_deep,
            named_late=self._named_late,
            asked_definers=frozenset(self._asked_definers),
            read_by=read_by,
        )

    def _link_names(self, functions: Iterable[tuple[str, FunctionSummary]]) -> list[Site]:
        """Round 0: the call sites of ``functions`` whose callees are names, each name resolved once
        per module. Returns the sites left to the rounds: those along the call graph
        (``funcrefs``) and those whose names turned out to depend on it."""
        known: dict[tuple[str, Callee], tuple[Target, ...] | None] = {}
        deferred: list[Site] = []
        late: list[Site] = []
        site_targets, owner = self.site_targets, self.owner
        for qualname, fn in functions:
            module = owner[qualname].module
            for index, call in enumerate(fn.calls):
                callee = call.callee
                kind = callee[0]
                if _along_the_graph(call):
                    deferred.append((qualname, index))
                    continue
                key = (module, callee) if kind not in _PER_CLASS else None
                targets = known.get(key) if key is not None else None
                if targets is None:
                    reads = self._reads = _Reads(self._clock)
                    try:
                        targets = self.resolve_ref(fn, callee)
                    except RecursionError:
                        targets = self._overflowed((qualname, index))
                    if reads.depends:  # a module-level value that is a decorated def, say
                        deferred.append((qualname, index))
                        late.append((qualname, index))
                        key = None
                    elif reads.links:  # what an object made in the module is, say
                        self._last_reads[qualname, index] = reads
                    if key is not None:
                        known[key] = targets
                if targets:
                    site_targets[qualname, index] = targets
        self._named_late |= frozenset(late)
        return deferred

    def _round(
        self, pending: dict[Site, None], skipping: bool
    ) -> tuple[dict[Site, tuple[Target, ...]], list[Site]]:
        """Resolve the call sites of ``pending`` again: all of them, or (``skipping``) those whose
        last resolution read a link that changed since. Returns the sites whose targets changed
        (with their targets before) and those settled: their targets no longer change as more
        calls are linked.

        A round that leaves sites as they were finds what a whole one finds, although a whole one
        caches the lookups of every site and later sites reuse them: a lookup finds what it read,
        and a site left read nothing that changed. Not so, and the round raises ``_Diverged`` to be
        done whole: where a site's chain of lookups is long enough to meet a depth limit (whether it
        does depends on what was cached), and where a lookup reads the targets of a site that
        changed earlier in this round after a site that read them was left (a whole round has them
        cached as they were before). A lookup that met a cycle found what it found by the order the
        sites came in: its sites are not left, so the lookups of the cycle are done in this order."""
        self._refs, self._bindings, self._types, self._risky = {}, {}, {}, set()
        work: Iterable[Site] = pending
        working: Container[Site] = pending
        if skipping:
            work = sorted(self._dirty, key=self._position.__getitem__)
            working = set(work)
        changed: dict[Site, tuple[Target, ...]] = {}
        settled: list[Site] = []
        for site in work:
            last = self._site_reads.get(site)
            reads = self._reads = _Reads(self._clock)
            try:
                targets = self._site_targets(*site)
            except RecursionError:
                targets = self._overflowed(site)
            if skipping and reads.height > _SHORT:
                raise _Diverged
            self._last_reads[site] = reads
            # A method of an object typed once by the callers linked first is not resolved again.
            if not reads.depends & _CALLERS or (targets and self._method_call(site)):
                settled.append(site)
                self._forget(site, last)
            else:
                self._record(site, last, reads)
            before = self.site_targets.get(site, ())
            if targets != before:
                changed[site] = before
                self._clock += 1
                position = self._position[site]
                if any(
                    reader not in working and self._position[reader] < position
                    for reader in self._readers.get(site, ())
                ):
                    self._risky.add(site)  # read by a site left as it was, before it in the round
                self._set_targets(site, targets)
                self._changed(site)
        return changed, settled

    def _record(self, site: Site, last: _Reads | None, reads: _Reads) -> None:
        """Keep what resolving call ``site`` read (``last``: what it read before), by link."""
        self._unread(site, last)
        self._site_reads[site] = reads
        for link in reads.links or ():
            readers = self._readers.get(link)
            if readers is None:
                self._readers[link] = {site}
            else:
                readers.add(site)
        if self._still(reads):
            self._dirty.discard(site)
        else:
            self._dirty.add(site)

    def _forget(self, site: Site, last: _Reads | None) -> None:
        """Drop what resolving call ``site`` read last (``last``): it is not resolved again."""
        self._unread(site, last)
        self._site_reads.pop(site, None)
        self._dirty.discard(site)

    def _unread(self, site: Site, last: _Reads | None) -> None:
        if last is not None and last.links:
            for link in last.links:
                self._readers[link].discard(site)

    def _changed(self, link: str | Site) -> None:
        """``link`` (the callers of a function, the targets of a call site) changed just now: the
        sites that read it are resolved again."""
        self._changed_at[link] = self._clock
        readers = self._readers.get(link)
        if readers:
            self._dirty |= readers

    def _still(self, reads: _Reads) -> bool:
        """Whether a lookup that read ``reads`` finds what it found: nothing it read changed since
        (not even before it, while it reused a lookup from before the change), and it met no cycle
        and no depth limit."""
        if reads.unsure or reads.height > _SHORT:
            return False
        changed_at, since = self._changed_at, reads.since
        return not reads.links or all(changed_at.get(link, 0) <= since for link in reads.links)

    def _set_targets(self, site: Site, targets: tuple[Target, ...]) -> None:
        if not targets:
            self.site_targets.pop(site, None)
            return
        if site not in self.site_targets:
            self._rank[site] = self._ranks
            self._ranks += 1
        self.site_targets[site] = targets

    def _method_call(self, site: Site) -> bool:
        """Whether call ``site`` is a method of an object whose class its callers tell (``recv``)."""
        return self.functions[site[0]].calls[site[1]].callee[0] in _BY_CLASS_OF_OBJECT

    def _overflowed(self, site: Site) -> tuple[Target, ...]:
        """What call ``site`` resolves to when resolving it overflowed the stack: nothing. The
        lookups it left in progress stay as cycles do (found nothing, not sure), so the rest of the
        project links as if this call had no callee."""
        self.too_deep[site] = None
        self._reads.unsure = True
        return ()

    def _site_targets(self, qualname: str, index: int) -> tuple[Target, ...]:
        fn = self.functions[qualname]
        call = fn.calls[index]
        out: dict[Target, None] = {}
        for callee in (call.callee, *call.alternatives):
            out.update(dict.fromkeys(self.resolve_ref(fn, callee)))
        return tuple(out)

    def _connect(self) -> None:
        """Callers, jit callers and first targets from the targets of every call site."""
        callers_before, target_to_before, targets_before = (
            self.callers,
            self._target_to,
            self.targets,
        )
        self.targets = {site: targets[0] for site, targets in self.site_targets.items()}
        target_to: dict[tuple[Site, str], Target] = {}
        callers: dict[str, list[Site]] = {}
        jit_callers: dict[tuple[str, int], list[Site]] = {}
        found: set[JitTarget] = set()
        for site, targets in self.site_targets.items():
            for target in targets:
                if isinstance(target, JitTarget):
                    jit_callers.setdefault(target.key, []).append(site)
                    if target not in found:
                        found.add(target)
                        self._callees[target] = self._find_callee(target)[0]
            for callee, target in self._reached(targets).items():
                target_to[site, callee] = target
                callers.setdefault(callee, []).append(site)
        self._target_to, self.callers, self.jit_callers = target_to, callers, jit_callers
        self._callee_order = _Order(
            self._first_callee(next(reversed(callers))) if callers else None
        )
        self._jit_order = _Order(
            self._first_jit(next(reversed(jit_callers))) if jit_callers else None
        )
        self._clock += 1
        if not self._site_reads:
            return  # round 0: nothing read the links yet
        for callee in callers_before.keys() | callers.keys():
            if callers_before.get(callee) != callers.get(callee):
                self._changed(callee)
        for key in target_to_before.keys() | target_to.keys():
            if target_to_before.get(key) != target_to.get(key):
                self._changed(key[1])
        for site in targets_before.keys() | self.targets.keys():
            if targets_before.get(site) != self.targets.get(site):
                self._changed(site)

    def _connect_changes(self, changed: dict[Site, tuple[Target, ...]]) -> None:
        """``_connect`` for what a round changed: the call sites whose targets changed (given with
        their targets before), and those that reach a jit whose function changed (found again when
        something that finding it read changed). Callers stay in ``_connect``'s order."""
        uses: dict[JitTarget, list[Site]] = {}  # the jits of the sites that changed
        for site in changed:
            for target in self.site_targets.get(site, ()):
                if isinstance(target, JitTarget):
                    uses.setdefault(target, []).append(site)
        again = [
            t
            for t in self._callees
            if t not in self._jit_reads or not self._still(self._jit_reads[t])
        ]
        again += [t for t in uses if t not in self._callees]
        # Found in the order ``_connect`` meets them, as each caches lookups the next ones reuse.
        first: dict[JitTarget, tuple[int, int]] = {}
        for target in again:
            at = [
                (self._rank[site], targets.index(target))
                for site in (*self.jit_callers.get(target.key, ()), *uses.get(target, ()))
                if target in (targets := self.site_targets.get(site, ()))
            ]
            if at:
                first[target] = min(at)
        found: dict[JitTarget, str | None] = {}
        for target in sorted(first, key=first.__getitem__):
            callee, reads = self._find_callee(target)
            if reads.height > _SHORT:
                raise _Diverged
            found[target] = callee
        self._clock += 1
        affected = dict(changed)
        for target, callee in found.items():
            if target in self._callees and self._callees[target] != callee:
                for site in self.jit_callers.get(target.key, ()):
                    if target in self.site_targets.get(site, ()):
                        affected.setdefault(site, self.site_targets[site])
        reached = {site: self._reached(before) for site, before in affected.items()}
        self._callees.update(found)
        for site, before in affected.items():
            self._relink(site, before, reached[site])

    def _relink(self, site: Site, before: tuple[Target, ...], reached: dict[str, Target]) -> None:
        """Update what ``_connect`` links from call ``site``, whose targets were ``before`` and
        reached the functions ``reached``; mark the links that changed."""
        targets = self.site_targets.get(site, ())
        now = self._reached(targets)
        rank = self._rank.__getitem__
        for callee in reached.keys() | now.keys():
            sites = self.callers.get(callee)
            if sites is not None and sites[0] == site:
                self._callee_order.moved.add(callee)  # its place is where this site calls it
            target = now.get(callee)
            if target == reached.get(callee):
                continue
            self._changed(callee)
            if target is None:
                sites = self.callers[callee]
                sites.remove(site)
                if not sites:
                    del self.callers[callee]
                del self._target_to[site, callee]
                continue
            self._target_to[site, callee] = target
            if sites is None:
                self.callers[callee] = [site]
                self._callee_order.appended(callee, self._first_callee(callee))
            elif callee not in reached:
                insort(sites, site, key=rank)
                if sites[0] == site:
                    self._callee_order.moved.add(callee)
        if targets == before:
            return  # only the function a jit runs changed
        if targets[:1] != before[:1]:
            self._changed(site)
            if targets:
                self.targets[site] = targets[0]
            else:
                del self.targets[site]
        jits_before = [t.key for t in before if isinstance(t, JitTarget)]
        jits = [t.key for t in targets if isinstance(t, JitTarget)]
        for key in set(jits_before):
            sites = self.jit_callers[key]
            if sites[0] == site:
                self._jit_order.moved.add(key)
            sites[:] = [s for s in sites if s != site]
            if not sites:
                del self.jit_callers[key]
        for key in dict.fromkeys(jits):
            sites = self.jit_callers.get(key)
            if sites is None:
                self.jit_callers[key] = [site] * jits.count(key)
                self._jit_order.appended(key, self._first_jit(key))
                continue
            at = bisect_left(sites, rank(site), key=rank)
            sites[at:at] = [site] * jits.count(key)
            if at == 0:
                self._jit_order.moved.add(key)

    def _find_callee(self, target: JitTarget) -> tuple[str | None, _Reads]:
        """The function jit ``target`` runs (``callee_function``), and what finding it read (kept)."""
        reads = self._jit_reads[target] = self._reads = _Reads(self._clock)
        self._last_reads[target] = reads
        return self.callee_function(target), reads

    def _reached(self, targets: tuple[Target, ...]) -> dict[str, Target]:
        """The functions that ``targets`` run, each with the first target that runs it."""
        out: dict[str, Target] = {}
        for target in targets:
            if isinstance(target, FuncTarget):
                callee: str | None = target.qualname
            elif isinstance(target, JitTarget):
                callee = self._callees[target]
            else:
                callee = self.callee_function(target)
            if callee is not None:
                out.setdefault(callee, target)
        return out

    def _first_callee(self, callee: str) -> tuple[int, int]:
        """Where ``_connect`` meets function ``callee`` first: its first call site, the target."""
        site = self.callers[callee][0]
        return self._rank[site], self.site_targets[site].index(self._target_to[site, callee])

    def _first_jit(self, key: tuple[str, int]) -> tuple[int, int]:
        site = self.jit_callers[key][0]
        targets = self.site_targets[site]
        return self._rank[site], next(
            i for i, t in enumerate(targets) if isinstance(t, JitTarget) and t.key == key
        )

    def target_to(self, site: Site, callee: str) -> Target | None:
        """How call ``site`` reaches function ``callee`` (through an instance, a jit...). Found when
        first asked after linking one module again (``_relinked``): what its targets reach."""
        found = self._target_to.get((site, callee))
        if found is None and site in self.site_targets:
            targets = self.site_targets[site]
            if any(isinstance(t, JitTarget) and t not in self._callees for t in targets):
                # Linking one module again (``_relinked``), a lookup of what a caller passes
                # reached a jit of that module whose function is not found again yet: what it
                # finds would depend on which is found first, so the relink gives way to linking
                # every module (``_settle`` resolves such a lookup, and sees it unsure).
                self._reads.depends |= _CALLERS
                self._reads.unsure = True
                return None
            for reached, target in self._reached(targets).items():
                self._target_to.setdefault((site, reached), target)
            found = self._target_to.get((site, callee))
        return found

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The call graph, made when first asked for (the checks do not)."""
        import networkx as nx

        graph = nx.DiGraph()
        graph.add_nodes_from(self.functions)
        graph.add_edges_from(
            (caller, callee) for callee, sites in self.callers.items() for caller, _ in sites
        )
        return graph

    def _collect(self, depends: int, compute: Callable[..., _T], *args: Any) -> tuple[_T, _Reads]:
        """``compute(*args)`` as a lookup of its own (starting with ``depends``), and what it read,
        which the lookup in progress then reads too."""
        outer = self._reads
        reads = self._reads = _Reads(self._clock, depends)
        try:
            found = compute(*args)
        finally:
            self._reads = outer
        reads.height += 1
        outer.add(reads)
        return found, reads

    def _callers_of(self, fn: FunctionSummary) -> list[Site]:
        self._reads.read(fn.qualname)
        return self.callers.get(fn.qualname, [])

    def resolve_ref(self, fn: FunctionSummary, callee: Callee) -> tuple[Target, ...]:
        """What a callee named in ``fn`` may be: the targets of the functions it may be."""
        key = (fn.qualname, callee)
        known = self._refs.get(key)
        if known is not None:
            self._reads.add(known[1])
            return known[0]
        if self._depth >= _MAX_REF_DEPTH:
            self._reads.unsure = True
            return ()  # a chain of function values this long is not followed
        # A cycle adds nothing in this round; what is found through it may change.
        self._refs[key] = ((), _CYCLE_REF)
        depends = _ALONG if callee[0] in _ALONG_THE_GRAPH else 0
        self._depth += 1
        try:
            self._refs[key] = self._collect(depends, self._resolve_ref, fn, callee)
        finally:
            self._depth -= 1
        return self._refs[key][0]

    def _resolve_ref(self, fn: FunctionSummary, callee: Callee) -> tuple[Target, ...]:
        kind = callee[0]
        if kind in ("up", "module"):
            scope = self._scope(fn, kind)
            if scope is None:
                return ()
            if kind == "up" and callee[1] == "param":
                # A closure over its maker's parameter is made per call of the maker: it calls
                # what that call passed, so only what every call passes is known (a decorator's
                # wrapper, used on many functions, calls one of them, not all).
                return self._passed_targets(scope, callee[2], callee[3:], agree=True)
            return self.resolve_ref(scope, callee[1:])
        if kind == "param":
            passed = self._passed_targets(fn, callee[1], callee[2:])
            if passed or len(callee) > 2:
                return passed
            # Or the __call__ of the objects the callers pass.
            method = self.method_of(self.owner[fn.qualname], fn, "__call__", (f"p:{callee[1]}",))
            return (method,) if method is not None else ()
        if kind == "recv":
            self._reads.depends |= _CALLERS  # the class of the object is found from the callers
            method = self.method_of(self.owner[fn.qualname], fn, callee[1], callee[2:])
            return (method,) if method is not None else ()
        if kind == "new":
            self._reads.depends |= _CALLERS
            classes = self.classes_of(self.owner[fn.qualname], fn, callee[1:], 0)
            return tuple(ClassTarget(cls) for cls in sorted(classes or ()))
        if kind == "ret":
            return self._returned_targets(fn, int(callee[1]), callee[2:])
        if kind == "wrapped":
            returned = self._returned_targets(fn, int(callee[1]), ())
            return returned or self.resolve_ref(fn, callee[2:])
        if kind == "partial":
            # Only a partial that binds keywords leaves the positions of the arguments as they are.
            return self.resolve_ref(fn, callee[4:]) if callee[1] == "0" else ()
        if kind == "transform":
            # ``jax.grad(f)`` called: f runs, under a trace of its own, with those arguments (each
            # time, outside a jit: a jitted function f calls is looked up with what f passes it).
            return self.resolve_ref(fn, callee[1:])
        if kind == "mapped":
            return ()  # ``jax.vmap(f)`` called: f sees an item of each argument
        if kind == "name":
            return self._name_targets(self.owner[fn.qualname], callee[1])
        if kind == "global":
            return self._global_targets(callee[1], self.owner[fn.qualname], path=callee[2:])
        target = self.symbols.resolve_callee(self.owner[fn.qualname], fn, callee)
        if target is not None and kind == "self":
            cls = self.symbols.class_of_method(fn)
            assert cls is not None  # resolve_callee found the method on it
            return (target, *self._overrides(cls, callee[2], target))
        if target is not None:
            return (target,)
        if kind == "self":
            cls = self.symbols.class_of_method(fn)
            return self._self_attribute(cls, callee[2]) if cls is not None else ()
        if kind == "method":
            cls = self.symbols.class_named(self.owner[fn.qualname], callee[1])
            return self._stored_targets(cls, callee[2]) if cls is not None else ()
        return ()

    def _scope(self, fn: FunctionSummary, kind: str) -> FunctionSummary | None:
        """The function whose names a callee read from ``fn`` is in: the enclosing function, or the
        module's top level."""
        if kind == "up" and fn.parent is not None:
            return self.functions.get(fn.parent)
        return self.functions.get(self.owner[fn.qualname].toplevel)

    def _name_targets(
        self, module: ModuleSummary, dotted: str, depth: int = 0, path: Path = ()
    ) -> tuple[Target, ...]:
        """A name of the module's scope: what a module-level name is bound to (a def, a decorated
        def, an alias, a lambda), or what an imported name is bound to in its module; with
        ``path``, what is at ``path`` inside it (``STEPPERS[method]`` of a dict of functions)."""
        if depth > MAX_DEPTH:
            return ()
        head, _, rest = dotted.partition(".")
        value = module.globals.get(head)
        if not rest and value is not None and value.callables:
            top = self.functions.get(module.toplevel)
            out: dict[Target, None] = {}
            refs = funcrefs.at(value.callables, path)
            for callee in funcrefs.called(refs) if top is not None else ():
                out.update(dict.fromkeys(self.resolve_ref(top, callee)))  # type: ignore[arg-type]
            return tuple(out)
        imported = module.imports.get(head)
        local = f"{module.module}.{head}"
        defined = local in self.functions or local in self.classes
        if imported is not None and value is None and not defined:
            dotted = f"{imported}.{rest}" if rest else imported
            return self._global_targets(dotted, module, depth + 1, path)
        star = self.symbols.star_source(module, head) if value is None and not defined else None
        if star is not None:
            return self._name_targets(star, dotted, depth + 1, path)
        target = self.symbols.resolve_name(module, dotted) if not path else None
        return (target,) if target is not None else ()

    def _global_targets(
        self, dotted: str, importer: ModuleSummary, depth: int = 0, path: Path = ()
    ) -> tuple[Target, ...]:
        """A module-level name by its qualified name (``pkg.mod.name``) as ``importer`` imports it,
        through re-exports (at ``path`` inside it, when given)."""
        found = self.symbols.module_of(dotted, importer)
        return self._name_targets(found[0], found[1], depth + 1, path) if found is not None else ()

    def _passed_targets(
        self, fn: FunctionSummary, param: str, path: Path, agree: bool = False
    ) -> tuple[Target, ...]:
        """What the callers of ``fn`` pass for ``param`` (at ``path`` inside it), or its default where
        a caller does not pass it: all of it, or (``agree``) only what every caller passes."""
        self._reads.depends |= _CALLERS
        sites = self._callers_of(fn)
        found = [self.passed_at(site, fn, param, path) for site in sites]
        if not sites:
            found.append(self._default_targets(fn, param, path))
        if agree:
            return found[0] if all(set(f) == set(found[0]) for f in found) else ()
        out: dict[Target, None] = {}
        for targets in found:
            out.update(dict.fromkeys(targets))
        return tuple(out)

    def passed_at(
        self, site: Site, fn: FunctionSummary, param: str, path: Path = ()
    ) -> tuple[Target, ...]:
        """What call ``site`` of ``fn`` passes for ``param`` (at ``path`` inside it), or its default
        where it does not pass it: one caller's part of ``_passed_targets``."""
        passed = self._passed(
            site, fn, self.signature(self.target_to(site, fn.qualname), fn), param
        )
        if passed is None:
            return self._default_targets(fn, param, path)
        return self._targets_at(self.functions[site[0]], passed, path)

    def method_of(
        self, module: ModuleSummary, fn: FunctionSummary, name: str, refs: tuple[str, ...]
    ) -> Target | None:
        """Method ``name`` of an object that may be each of ``refs`` (``summary.Callee``): one
        target when every class it may be has the same, else none. An object of no known class
        that is an attribute (``self.model``) takes the method of the one class in the project that
        defines it, if only one does; so does one that may be an object of that class or of no
        known class (``model = cp.load_model(model)`` under an ``if``, a library's call)."""
        classes = self.classes_of(module, fn, refs, 0)
        if classes:
            found = {self._member_or_stored(cls, name) for cls in classes}
            return found.pop() if len(found) == 1 else None
        if classes is None and all(_is_attribute_ref(ref) for ref in refs):
            return self._only_definer(name)
        if classes is None and len(refs) > 1:
            definer = self._only_definer(name)
            known = [self.classes_of(module, fn, (ref,), 0) for ref in refs]
            if definer is not None and any(
                c and {self._member_or_stored(cls, name) for cls in c} == {definer} for c in known
            ):
                return definer
        return None

    def _stored_targets(self, cls: str, name: str) -> tuple[Target, ...]:
        """The functions the methods of ``cls`` and its bases store in ``self.name``, for an
        instance of ``cls`` with no method of that name: an instance attribute, called unbound
        (a method read off ``self`` and stored is ``cls``'s, bound to the instance)."""
        out: dict[Target, None] = {}
        for klass in self.symbols.mro(cls):
            for method, refs in self.classes[klass].field_functions.get(name, ()):
                fn = self.functions.get(method)
                for callee in funcrefs.called(frozenset(refs)) if fn is not None else ():
                    if callee[0] == "self":
                        found = self.symbols.member(cls, callee[2])
                        out.update(dict.fromkeys((found,) if found is not None else ()))
                    else:
                        out.update(dict.fromkeys(self.resolve_ref(fn, callee)))  # type: ignore[arg-type]
        return tuple(out)

    def _member_or_stored(self, cls: str, name: str) -> Target | None:
        """Method ``name`` of an instance of ``cls``, or the one function it stores there."""
        found = self.symbols.member(cls, name)
        if found is None:
            stored = self._stored_targets(cls, name)
            found = stored[0] if len(stored) == 1 else None
        return found

    def _self_attribute(self, cls: str, name: str) -> tuple[Target, ...]:
        """``self.name(...)`` in a method of ``cls`` that has no method ``name``: what it stores in
        ``self.name``, else (``self`` is then an instance of a subclass) what the subclasses have:
        their methods (``_overrides``) and the functions they store there."""
        stored = self._stored_targets(cls, name)
        if stored:
            return stored
        out: dict[Target, None] = {}
        for sub in self.symbols.subclasses().get(cls, ()):
            if self.symbols.member(sub, name) is None:
                out.update(dict.fromkeys(self._stored_targets(sub, name)))
        return (*self._overrides(cls, name, None), *out)

    def _overrides(self, cls: str, name: str, own: Target | None) -> tuple[Target, ...]:
        """The methods ``name`` of the subclasses of ``cls`` (in the project) other than ``own``,
        what ``cls`` itself has: ``self.name()`` in a method of ``cls`` runs one of them when
        ``self`` is an instance of that subclass. In name order; none when more than
        ``_MAX_OVERRIDES`` differ (a plugin interface)."""
        found = {
            method
            for sub in self.symbols.subclasses().get(cls, ())
            if (method := self.symbols.member(sub, name)) is not None and method != own
        }
        if len(found) > _MAX_OVERRIDES:
            return ()
        return tuple(sorted(found, key=repr))

    def linked_by_subclasses(self, fn: FunctionSummary, name: str) -> bool:
        """Whether ``self.name(...)`` in ``fn`` is linked to functions the subclasses of its class
        store in ``self.name`` (``_self_attribute``'s fallback): its class neither defines nor
        stores ``name``, and no subclass defines it as a method. (The methods subclasses define are
        what the call runs when ``self`` is one of them, as overrides of a method the class has:
        linked all together, none is a guess.)"""
        cls = self.symbols.class_of_method(fn)
        return (
            cls is not None
            and self.symbols.member(cls, name) is None
            and not self._stored_targets(cls, name)
            and not self._overrides(cls, name, None)
        )

    @query("project")
    def _only_definer(self, name: str) -> Target | None:
        if name.startswith("__") or name in _COMMON_METHODS:
            return None
        self._asked_definers.add(name)
        if self._definers is None:
            self._definers = {}
            for qualname, cls in self.classes.items():
                for method in {*cls.methods, *cls.jit_attrs}:
                    self._definers.setdefault(method, []).append(qualname)
        definers = self._definers.get(name, ())
        return self.symbols.member(definers[0], name) if len(definers) == 1 else None

    def classes_of(
        self, module: ModuleSummary, fn: FunctionSummary, refs: tuple[str, ...], depth: int
    ) -> frozenset[str] | None:
        """The classes an object may be an instance of, from what it may be (``summary.Callee``):
        None when one of them is not known."""
        out: set[str] = set()
        for ref in refs:
            key = (fn.qualname, ref)
            known = self._types.get(key)
            if known is None:
                self._types[key] = (frozenset(), _CYCLE)  # a cycle adds nothing
                known = self._types[key] = self._collect(
                    0, self._classes_of_ref, module, fn, ref, depth
                )
            else:
                self._reads.add(known[1])
            classes = known[0]
            if classes is None:
                return None
            out |= classes
        return frozenset(out)

    def _classes_of_ref(
        self, module: ModuleSummary, fn: FunctionSummary, ref: str, depth: int
    ) -> frozenset[str] | None:
        kind, _, rest = ref.partition(":")
        if depth > MAX_DEPTH:
            self._reads.unsure = True
            return None
        if kind == "c":
            cls = self.symbols.class_named(module, rest)
            return frozenset({cls}) if cls else None
        if kind == "p":
            return self._classes_passed(fn, rest, depth)
        if kind == "u":
            # A closure's free variable: ``rest`` as the function around it reads it.
            outer = self.functions.get(fn.parent) if fn.parent is not None else None
            return self.classes_of(module, outer, (rest,), depth + 1) if outer else None
        line, col, end_line, end_col, item, path = rest.split(":", 5)
        if path:
            return None
        found = self.symbols.call_span(
            module.path, (int(line), int(col), int(end_line), int(end_col))
        )
        if found is None:
            return None
        index = found[1]
        self._reads.read(found)
        target = self.targets.get(found)
        # The call may be in an enclosing function (an object a closure or a lambda reads).
        caller = self.functions[found[0]]
        if target is None and caller.calls[index].callee[0] in (*_BY_CLASS_OF_OBJECT, "param"):
            # Not linked yet (`state = state.replace(...)` types itself): it adds no class.
            return frozenset()
        if isinstance(target, ClassTarget) and not item:
            return frozenset({target.qualname})
        made_by = target.qualname if isinstance(target, FuncTarget) else None
        if isinstance(target, JitTarget):
            # jit hands back the pytree the function it wraps returns, of the same classes
            # (``scaler = step(params, scaler)[1]`` is what ``step`` returns there).
            binding = self.jit_binding(target)
            made_by = binding.wrapped.qualname if binding and binding.wrapped else None
        if made_by is not None and made_by in self.functions:
            callee = self.functions[made_by]
            # An item of the tuple it returns (`model, state = build(...)`): what that item is.
            items = callee.returned_items
            returned = callee.returned if not item else ()
            if item and int(item) < len(items):
                returned = items[int(item)]
            if returned:
                return self.classes_of(self.owner[callee.qualname], callee, returned, depth + 1)
        return None

    def _classes_passed(self, fn: FunctionSummary, param: str, depth: int) -> frozenset[str] | None:
        """The classes of what every caller passes for ``param``; None unless each passes an
        object of known classes."""
        first = fn.params[0].name if fn.params else None
        head, _, attr = param.partition(".")
        if fn.kind in ("method", "classmethod") and head == first:
            cls = self.symbols.class_of_method(fn)
            if not cls or fn.kind != "method" or "." in attr:
                return None
            return self._field_classes(cls, attr, depth) if attr else frozenset({cls})
        if attr:
            return None
        if not self._callers_of(fn):
            return None
        out: set[str] = set()
        for caller, call, seen in self._calls_of(fn):
            refs = _passed_entry(call.objects, call, seen.params, seen.offset, param)
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
            s
            for klass in self.symbols.mro(cls)
            for s in self.classes[klass].field_objects.get(attr, ())
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

    def signature(self, target: Target | None, fn: FunctionSummary) -> Signature:
        """``fn``'s parameters as a call through ``target`` passes them its arguments: a jit's
        callable's (``JitBinding.params``, without what a partial binds), else all, the first bound
        already for a method called on an instance or a class called. Every mapping of a call's
        arguments to what it calls goes through here."""
        if isinstance(target, JitTarget):
            binding = self.jit_binding(target)
            wrapped = binding.wrapped if binding is not None else None
            if binding is not None and wrapped is not None and wrapped.qualname == fn.qualname:
                return binding.signature
        bound = isinstance(target, ClassTarget) or getattr(target, "bound", False)
        return Signature(fn.params, 1 if bound else 0)

    def _calls_of(
        self, fn: FunctionSummary
    ) -> Iterator[tuple[FunctionSummary, CallSite, Signature]]:
        """Each linked call of ``fn``: the caller, the call, and ``fn``'s parameters as it passes
        them."""
        for caller_name, index in self._callers_of(fn):
            target = self.target_to((caller_name, index), fn.qualname)
            caller = self.functions[caller_name]
            yield caller, caller.calls[index], self.signature(target, fn)

    def _passed(
        self, site: tuple[str, int], fn: FunctionSummary, seen: Signature, param: str
    ) -> tuple[FuncRef, ...] | None:
        """The functions call ``site`` passes for ``param`` of ``fn`` (by path inside the argument);
        None when it does not pass it, so that the default applies. Whether it does is asked of the
        call's arguments (not in a head) only for a parameter whose default is a function."""
        call = self.functions[site[0]].calls[site[1]]
        passed = _passed_functions(call, seen.params, seen.offset, param)
        if passed or not any(name == param for name, _, _ in fn.defaults):
            return passed
        call = self.symbols.function(site[0]).calls[site[1]]
        return None if _passes(call, seen.params, seen.offset, param) is False else passed

    def _default_targets(self, fn: FunctionSummary, param: str, path: Path) -> tuple[Target, ...]:
        refs = frozenset((p, c) for name, p, c in fn.defaults if name == param)
        return self._targets_at(fn, refs, path)

    def _targets_at(
        self, fn: FunctionSummary, refs: frozenset[FuncRef] | tuple[FuncRef, ...], path: Path
    ) -> tuple[Target, ...]:
        """The targets of the element at ``path`` of a value with references ``refs`` in ``fn``."""
        out: dict[Target, None] = {}
        for rest, callee in funcrefs.at(refs, path):
            if not rest:
                out.update(dict.fromkeys(self.resolve_ref(fn, callee)))
        return tuple(out)

    def _returned_targets(self, fn: FunctionSummary, index: int, path: Path) -> tuple[Target, ...]:
        """What call ``index`` of ``fn`` returns, at ``path`` inside it: what the callee returns,
        with its parameters bound to what this call passes (a decorator returning its argument)."""
        if index >= len(fn.calls):
            return ()
        site = (fn.qualname, index)
        if site in self._risky:
            raise _Diverged  # a whole round has them cached as they were: see ``_round``
        self._reads.read(site)
        targets = self.site_targets.get(site) or self._site_targets(*site)
        out: dict[Target, None] = {}
        for target in targets:
            if not isinstance(target, FuncTarget):
                continue
            callee = self.functions[target.qualname]
            for rest, ref in funcrefs.at(callee.returned_refs, path):
                if rest:
                    continue
                if ref[0] == "param":
                    passed = self._passed(site, callee, self.signature(target, callee), ref[1])
                    found = (
                        self._targets_at(fn, passed, ref[2:])
                        if passed is not None
                        else self._default_targets(callee, ref[1], ref[2:])
                    )
                else:
                    found = self.resolve_ref(callee, ref)
                out.update(dict.fromkeys(found))
        return tuple(out)

    def calls_function(self, site: Site, qualname: str) -> bool:
        """Whether the call at ``site`` runs the function ``qualname`` itself (not a jit of it)."""
        return any(
            isinstance(t, FuncTarget) and t.qualname == qualname
            for t in self.site_targets.get(site, ())
        )

    def callee_function(self, target: Target) -> str | None:
        if isinstance(target, FuncTarget):
            return target.qualname
        if isinstance(target, ClassTarget):
            return self.symbols.method(target.qualname, "__init__")
        binding = self.jit_binding(target)
        return binding.wrapped.qualname if binding and binding.wrapped else None

    def jitted_at(self, site: Site) -> tuple[JitBinding, FunctionSummary] | None:
        """The binding of the jitted function call ``site`` makes, and the whole summary of the
        function it wraps (a binding holds a head, which keeps no return value); None when the call
        is no jit call or its wrapped function is not known."""
        target = self.targets.get(site)
        binding = self.jit_binding(target) if isinstance(target, JitTarget) else None
        if binding is None or binding.wrapped is None:
            return None
        return binding, self.symbols.function(binding.wrapped.qualname)

    def jit_binding(self, target: JitTarget) -> JitBinding | None:
        known = self._bindings.get(target)
        if known is None:
            # A jit of itself (``f = jax.jit(f)`` seen through the name it rebinds) wraps nothing.
            nothing = JitBinding(self.symbols.jit_spec(target), None, (), 0, frozenset())
            self._bindings[target] = (nothing, _CYCLE)
            known = self._bindings[target] = self._collect(0, jits.binding, self, target)
        else:
            self._reads.add(known[1])
        return known[0]


# What linking reads of a module besides its functions and its names (``_face_kept``): all of it
# but its size and whether it was read as a head.
_MODULE_FACE = tuple(
    f.name for f in fields(ModuleSummary) if f.name not in ("functions", "globals", "lines", "head")
)


def _face_kept(
    before: ModuleSummary,
    after: ModuleSummary,
    whole: Callable[[str], FunctionSummary | None],
) -> bool:
    """Whether module ``after`` (``before``, as it was; ``whole`` gives a function of ``after``
    filled in) shows the other modules what it showed them, so that linking them again would find
    what it found: the functions it kept in the same order, each with what a lookup of another
    module may read of it other than its calls (``_link_face``; the calls are links,
    ``_relinked``), and every other fact of the module (its imports, names, classes, jit sites) as
    it was, but for the names of functions it added or removed (``_names_unread`` says whether
    anything names them)."""
    kept = [name for name in before.functions if name in after.functions]
    if kept != [name for name in after.functions if name in before.functions]:
        return False
    if any(getattr(before, name) != getattr(after, name) for name in _MODULE_FACE):
        return False
    defined = {q.rpartition(".")[2] for q in before.functions.keys() ^ after.functions.keys()}
    names = before.globals.keys() | after.globals.keys()
    if any(
        before.globals.get(name) != after.globals.get(name)
        and (name not in defined or (name in before.globals and name in after.globals))
        for name in names
    ):
        return False
    return all(_link_face(before.functions[name]) == _link_face(whole(name)) for name in kept)


def _link_face(fn: FunctionSummary | None) -> tuple[object, ...] | None:
    """What linking reads of a function besides its calls (not where it is, nor its values)."""
    if fn is None:
        return None
    return (
        fn.qualname,
        fn.name,
        fn.params,
        fn.cls,
        fn.kind,
        fn.jit,
        fn.parent,
        fn.returned_refs,
        fn.defaults,
        fn.returned,
        fn.returned_items,
    )


_FIRST = "^"  # marks the first part of an import's target among ``_import_words``


def _import_words(_: str, module: ModuleSummary) -> tuple[frozenset[str]]:
    """The parts of the targets of ``module``'s imports, each first one marked (``_FIRST``) as
    well: what ``Project._imported`` asks of it."""
    words: set[str] = set()
    for target in (*module.imports.values(), *module.star_imports):
        parts = target.split(".")
        words.update(parts)
        words.add(_FIRST + parts[0])
    return (frozenset(words),)


def _calls(fn: FunctionSummary | None) -> int:
    return len(fn.calls) if fn is not None else 0


def _sites_of(
    site_targets: dict[Site, tuple[Target, ...]],
    functions: Mapping[str, FunctionSummary],
    names: Iterable[str],
) -> dict[Site, tuple[Target, ...]]:
    """The linked call sites of the functions ``names`` (as ``functions`` has them), in that order,
    found by each one's calls: a pass over every site of the project costs 0.02-0.03 CPU s per edit
    of the speed corpus, this a few microseconds."""
    return {
        (name, index): site_targets[name, index]
        for name in names
        for index in range(_calls(functions.get(name)))
        if (name, index) in site_targets
    }


def _along_the_graph(call: CallSite) -> bool:
    """Whether a call is linked along the call graph, in rounds, not by the names of its module."""
    return bool(call.alternatives) or call.callee[0] in _ALONG_THE_GRAPH


def _reordered(
    items: dict[_K, list[Site]], moved: set[_K], first: Callable[[_K], tuple[int, ...]]
) -> dict[_K, list[Site]]:
    """``items`` in the order of where each first appears (``first``), as ``Project._connect``
    makes them, given that only the keys ``moved`` may be out of place."""
    if not moved:
        return items
    # In C but for the keys moved: 30,000 callers of the speed corpus, on each edit linked alone.
    order = list(filterfalse(moved.__contains__, items))
    for key in moved:
        if key in items:
            insort(order, key, key=first)
    return dict(zip(order, map(items.__getitem__, order), strict=True))


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


def _passed_functions(
    call: CallSite, params: tuple[Param, ...], offset: int, name: str
) -> tuple[FuncRef, ...]:
    """The functions the argument ``call`` passes for parameter ``name`` is or holds, by path inside
    it (read from ``call.functions``, which heads keep; positions before any ``*args`` only)."""
    positional = [p.name for p in params if p.kind in ("posonly", "normal")][offset:]
    position = positional.index(name) if name in positional else None
    return tuple((path, callee) for key, path, callee in call.functions if key in (name, position))


def _passes(call: CallSite, params: tuple[Param, ...], offset: int, name: str) -> bool | None:
    """Whether ``call`` passes parameter ``name`` (None: behind ``*args``, not known)."""
    if any(key == name for key, _ in call.kwargs):
        return True
    positional = [p.name for p in params if p.kind in ("posonly", "normal")][offset:]
    if name in positional and positional.index(name) < len(call.args):
        return True
    return None if call.star else False
