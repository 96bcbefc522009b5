"""What a long-lived caller of the engine (the language server) keeps and gives between its runs.

A command-line run starts from the cache on disk: it reads the last run's manifest and link
(``cache.ResultIndex``) and unpickles the head of every file's summary. A process that analyses the
same projects again and again keeps them instead (``Memory``): after an edit of one file, the run
summarises that file alone, takes every other summary and the last link as they are in memory, and
links again only what the edit touches (``callgraph.Relink``), exactly as a command-line run after the
same edit would, without reading the cache. ``Watch`` is what such a caller gives a run: the text of
its unsaved buffers, a way to tell it the result is no longer wanted, and a listener for progress.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from retracelint.discover import Listings
from retracelint.summary import FunctionSummary, ModuleSummary, fill_in, loaded

if TYPE_CHECKING:
    from retracelint.cache import Entry, ResultIndex
    from retracelint.callgraph.project import Lookups
    from retracelint.evidence import Parsed
    from retracelint.frequency import Found
    from retracelint.readlog import Replay
    from retracelint.reuse import FileRecord

_T = TypeVar("_T")

# Versions of a file's summary kept: the one the last run read (what an edit is compared with,
# ``engine._relink``) and the newest.
_VERSIONS = 2
# Whole-run facts kept of each kind: a run key per project open at once, and the one before.
_RUNS_KEPT = 8


def settle() -> None:
    """Free what the runs since the last call left in reference cycles, then freeze what is left (the
    memory, the caller's own objects) so that no collection walks it again. A long-lived process runs
    with the cycle collector off and calls this when a run is done: the engine freezes what a run
    leaves only when it finds the collector on (``engine._without_cycle_collector``), and frozen, a
    run's garbage cycles would stay for good (the server grew 50 MiB per edit of the speed corpus)."""
    gc.collect()
    gc.freeze()


class Cancelled(Exception):
    """The caller no longer wants the run's result (a newer edit came): the run stops between stages."""


@dataclass
class Stored:
    """One kind of whole-run facts (``cache.ResultIndex``'s kinds) kept in memory, the newest few; on
    a miss, read from the cache on disk, where only a project's first run in this process writes
    (what a later process starts from)."""

    disk: ResultIndex | None
    kept: int = _RUNS_KEPT  # how many of the newest
    _items: dict[str, object] = field(default_factory=dict)  # the newest last

    def get(self, key: str) -> object | None:
        if key in self._items:
            return self._items[key]
        return self.disk.get(key) if self.disk is not None else None

    def touch(self, key: str) -> None:
        if key in self._items:
            self._items[key] = self._items.pop(key)

    def forget(self, key: str) -> None:
        """Keep ``key``'s value in memory no more (what the cache on disk holds stays)."""
        self._items.pop(key, None)

    def put(self, key: str, value: object) -> None:
        if not self._items and self.disk is not None:
            self.disk.put(key, value)
        self._items.pop(key, None)
        self._items[key] = value
        while len(self._items) > self.kept:
            del self._items[next(iter(self._items))]


@dataclass
class Picked:
    """What the rules of the whole project pick from each module by what its own summary holds
    (the functions that run ``jax.clear_caches()`` or carry a value from call to call, the jit
    sites made anew or handed to a lax primitive, a script's top level and a test file's tests),
    module by module: a module whose summary is the object a run before picked from gives what it
    gave then, so a run after an edit asks only the edited module, not every function and jit
    site of the project (some 100,000 and 10,000 in the speed corpus)."""

    # By kind (a module-level function: one object from run to run), by module: the summary
    # picked from, and what was picked, in its order.
    _kept: dict[Callable[..., object], dict[str, tuple[ModuleSummary, tuple[object, ...]]]] = field(
        default_factory=dict
    )

    def each(
        self,
        modules: Iterable[tuple[str, ModuleSummary]],
        kind: Callable[..., object],
        pick: Callable[[str, ModuleSummary], Iterable[_T]],
    ) -> list[_T]:
        """What ``pick`` gives of each of ``modules`` (by key), in their order; ``pick`` is what
        ``kind`` stands for, a function of the module's key and summary alone."""
        kept = self._kept.setdefault(kind, {})
        out: list[_T] = []
        for key, summary in modules:
            found = kept.get(key)
            if found is None or found[0] is not summary:
                found = kept[key] = (summary, tuple(pick(key, summary)))
            if found[1]:
                out.extend(found[1])  # type: ignore[arg-type]
        return out

    def names(
        self, modules: Mapping[str, ModuleSummary], has: Callable[[FunctionSummary], bool]
    ) -> list[str]:
        """The functions of ``modules`` that ``has``, in the project's order (module by module)."""
        return self.each(
            modules.items(),
            has,
            lambda _, summary: (name for name, fn in summary.functions.items() if has(fn)),
        )


@dataclass
class Carried:
    """What the rules of a project's run found that its next run may take over, each checked
    there against what it was found from: the frequency model of the whole call graph
    (``frequency.Found``), the syntax trees of the files ``evidence`` read, by path, each
    with the text it was parsed from (``evidence.Parsed``), the functions each module gave
    the rules of the whole project (``Picked``), what the rules read and found (``Replay``)
    and what the project's lookups found (``Lookups``)."""

    frequency: Found | None = None
    trees: dict[str, Parsed] = field(default_factory=dict)
    picked: Picked = field(default_factory=Picked)
    # What the rules of the last run read, and found (``readlog``).
    replay: Replay | None = None
    # What the lookups of the last run found, by the link it left (``callgraph.Lookups``).
    lookups: Lookups | None = None


@dataclass
class Memory:
    """The runs of the projects a process analyses, kept between them: whole-run facts by kind, and
    each file's summaries by the cache key of its content (``engine.Summaries``)."""

    _kinds: dict[str, Stored] = field(default_factory=dict)
    # By path, by cache key, the newest last: a summary, and the cache entry it was read from as a
    # head (functions filled in when first asked for, ``callgraph.Project.function``), or None.
    _summaries: dict[str, dict[str, tuple[ModuleSummary, Entry | None]]] = field(
        default_factory=dict
    )
    # The last bytes of each open file that parsed, by absolute path (``server.analyse_open``).
    parsed: dict[str, bytes] = field(default_factory=dict)
    # Each file's bytes as last read, with their digest (``engine._source_reader``).
    texts: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    # The summary of each file the pre-scan leaves out and that is unchanged since (``bare``), by
    # path, with what it was made from.
    _bare: dict[str, tuple[tuple[object, ...], ModuleSummary]] = field(default_factory=dict)
    # Results computed from the whole project, by name: what each was computed from, and it.
    _recalled: dict[str, tuple[tuple[tuple[object, ...], ...], object]] = field(
        default_factory=dict
    )

    # By project (``engine.project_key``): what its last run's rules leave for the next.
    carried: dict[str, Carried] = field(default_factory=dict)
    # The folders of the projects as their last discovery listed them: an edit that changed nothing
    # on disk walks none of them again.
    folders: Listings = field(default_factory=Listings)

    def index(self, kind: str, disk: ResultIndex | None, kept: int = _RUNS_KEPT) -> Stored:
        found = self._kinds.get(kind)
        if found is None:
            found = self._kinds[kind] = Stored(disk, kept)
        return found

    def summary(self, path: str, key: str) -> tuple[ModuleSummary, Entry | None] | None:
        return self._summaries.get(path, {}).get(key)

    def whole(self, path: str, key: str) -> ModuleSummary | None:
        """The summary kept under ``key`` with every function filled in; None when there is none,
        or its cache entry turns out damaged."""
        found = self.summary(path, key)
        if found is None:
            return None
        summary, entry = found
        if entry is not None:
            for index, fn in enumerate(summary.functions.values()):
                if loaded(fn):
                    continue
                rest = entry.rest(index)
                if rest is None:
                    return None
                try:
                    fill_in(fn, rest)
                except (ValueError, TypeError):  # not the rest of this function: damaged
                    return None
            self.keep(path, key, summary, None)
        return summary

    def recall(
        self, name: str, facts: tuple[tuple[object, ...], ...], compute: Callable[[], _T]
    ) -> _T:
        """``compute()``, or what it gave when last called with ``name``, if that was from the same
        ``facts`` (compared item by item, by identity first: the summaries kept here are the same
        objects from one run to the next, so an unchanged one costs no comparison)."""
        kept = self._recalled.get(name)
        # Tuples compare item by item, each by identity first, in C: a loop written in Python
        # over the speed corpus's 1,752 files cost more than the comparisons themselves.
        if kept is not None and kept[0] == facts:
            return kept[1]  # type: ignore[return-value]
        value = compute()
        self._recalled[name] = (facts, value)
        return value

    def bare(self, record: FileRecord, path: str, module: str, is_package: bool) -> ModuleSummary:
        """``record.bare_summary``, the same object while what it is made of is: what is kept by
        summary object (``Picked``, the read log's tables, the frequency model's modules, the
        facts ``recall`` compares) then holds for the 178 such files of the speed corpus by
        identity, not by a comparison of each, run after run."""
        facts = (record.error, record.lines, module, is_package)
        kept = self._bare.get(path)
        if kept is None or kept[0] != facts:
            kept = self._bare[path] = (facts, record.bare_summary(path, module, is_package))
        return kept[1]

    def keep(self, path: str, key: str, summary: ModuleSummary, entry: Entry | None) -> None:
        versions = self._summaries.setdefault(path, {})
        versions.pop(key, None)
        versions[key] = (summary, entry)
        while len(versions) > _VERSIONS:
            del versions[next(iter(versions))]


@dataclass
class Watch:
    """What a long-lived caller gives a run (``engine.analyse``)."""

    memory: Memory | None = None
    # The text of unsaved buffers, by path as the run names files (the language server: absolute).
    buffers: Mapping[str, bytes] = field(default_factory=dict)
    cancelled: Callable[[], bool] = lambda: False
    # Told what the run is doing and how far it is (0 to 100), at each stage and file summarised.
    progress: Callable[[str, int], None] | None = None
    files: int = 0  # of the project being analysed, once discovered
    summarised: int = 0

    def check(self) -> None:
        """Stop the run here when its result is no longer wanted."""
        if self.cancelled():
            raise Cancelled

    def stage(self, message: str, percent: int) -> None:
        if self.progress is not None:
            self.progress(message, percent)

    def summary_made(self) -> None:
        """One more file summarised (or read from the cache): summarising is most of a first run."""
        self.summarised += 1
        if self.progress is not None and self.files:
            done = min(self.summarised, self.files)
            self.progress(f"summarised {done}/{self.files} files", 80 * done // self.files)
