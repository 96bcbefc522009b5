"""The pipeline, top to bottom: discover → summarise (parallel, cached) → link → propagate → rules → filter.

``analyse`` is what the CLI, the flake8 plugin and ``confirm`` call. It never imports the analysed code.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from retracelint import __version__, config, prescan, readlog
from retracelint.aliases import alias_salt, alias_table, imported_aliases
from retracelint.cache import Entry, ResultIndex, SummaryCache, encode, prepare_folder
from retracelint.config import Settings
from retracelint.discover import Discovery, ImportLayout, SourceFile, discover, scopes, shown
from retracelint.filters import apply_filters, reported_in, with_source_lines
from retracelint.jitspec import BUILTIN_WRAPPERS, Wrapper, parse_wrapper_config
from retracelint.model import Finding, Location
from retracelint.prescan import Scan
from retracelint.reuse import Manifest, record, unchanged_findings
from retracelint.session import Carried, Memory, Stored, Watch
from retracelint.summarise import SummaryOptions, check_syntax, summarise
from retracelint.summary import CallSite, FunctionSummary, ModuleSummary, fill_in
from retracelint.workers import Pool, Task

if TYPE_CHECKING:
    from retracelint.callgraph import Project, Relink
    from retracelint.evidence import Parsed
    from retracelint.propagate import Cut, Propagation

_PARALLEL_MIN_FILES = 24  # below this, starting worker processes costs more than it saves
_SCAN_BATCH = 64  # files scanned for wrapper names before the workers get the ones that have some
# Rounds of summarising again with the wrapper aliases of other modules: an alias of an alias
# imported from a third module needs a second one.
_ALIAS_ROUNDS = 3


@dataclass
class Run:
    findings: list[Finding]  # what the user sees, after selection, noqa and per-file ignores
    files: int = 0
    lines: int = 0
    summaries: list[ModuleSummary] = field(default_factory=list)  # empty when nothing was linked
    cache_hits: int = 0
    selected: int = 0  # files the paths name (the project's others count only for call paths)
    layout: ImportLayout | None = None  # how imports resolve
    project: Project | None = None  # the linked project (None when nothing was linked)


# A file's size, modification and change times (ns) and inode, as ``os.stat`` gives them.
Stamp = tuple[int, int, int, int]

# A file whose times are this close to the clock when it is read may change again within the same
# timestamp (coarse file systems count in seconds): its stamp is not kept, and the next run reads it.
_RACY_NS = 2_000_000_000


class Changed(Exception):
    """A file read late (its stamp said unchanged since the last run) holds other bytes than that
    run read: the run starts again, reading every file."""


@dataclass(frozen=True)
class Input:
    """One file as read for this run: its bytes, or, when its stamp is the one the last run kept,
    only their digest from that run, the bytes read if and when they are needed (``source``)."""

    file: SourceFile
    data: bytes | None  # None when it could not be read, or was not read (``stamp`` trusted)
    error: str | None  # why it could not be read
    digest: bytes  # of the bytes (of b"" when unreadable): names the content in every cache key
    stamp: Stamp | None = None  # when read now: kept for the next run unless too recent

    @cached_property
    def source(self) -> bytes | None:
        """The file's bytes; None when it could not be read."""
        if self.data is not None or self.error is not None:
            return self.data
        data, _ = _read(self.file.path, sys.maxsize)
        if data is None or _digest(data) != self.digest:
            raise Changed(self.file.path)
        return data


def summary_options(settings: Settings) -> SummaryOptions:
    wrappers = dict(BUILTIN_WRAPPERS)
    wrappers.update(parse_wrapper_config(list(settings.jit_wrappers)))
    return SummaryOptions(wrappers=wrappers)


def read_input(
    file: SourceFile, max_size: int, given: bytes | None = None, last: Manifest | None = None
) -> Input:
    """``file`` as it is now (``given``: its bytes, from standard input); not read when ``last``, the
    last run's manifest, kept the stamp it still has."""
    if given is not None:
        return Input(file, given, None, _digest(given))
    try:
        stat = os.stat(file.path)
    except OSError as exc:
        return Input(file, None, f"cannot read: {exc.strerror or exc}", _digest(b""))
    stamp = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
    before = last.records.get(file.path) if last is not None else None
    if before is not None and before.stamp == stamp:
        return Input(file, None, None, before.digest, stamp)
    source, error = _read(file.path, max_size, stat.st_size)
    racy = time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) < _RACY_NS
    return Input(file, source, error, _digest(source or b""), None if racy or error else stamp)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _read(path: str, max_size: int, size: int | None = None) -> tuple[bytes | None, str | None]:
    try:
        size = os.path.getsize(path) if size is None else size
        if size > max_size:
            mb = max_size / 1024 / 1024
            return None, f"file too large ({size / 1024 / 1024:.1f} MB > {mb:g} MB limit); skipped"
        with open(path, "rb") as handle:
            return handle.read(), None
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"


def _cache_salt(settings: Settings) -> str:
    return f"{sorted(settings.jit_wrappers)!r}|{sys.version_info[:2]}|{code_stamp()}"


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """Size and mtime of retracelint's own modules: a summary made by other code is never reused,
    also in a development checkout where the version number does not change."""
    package = Path(__file__).resolve().parent
    parts = []
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        parts.append(f"{path.relative_to(package)}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.blake2b("|".join(parts).encode(), digest_size=8).hexdigest()


def cache_folder(settings: Settings) -> Path | None:
    """Where the cache is kept; None for no cache, also where its folder cannot be written."""
    if not settings.cache:
        return None
    if settings.cache_dir:
        folder = Path(settings.cache_dir)
    elif settings.config_file:
        folder = Path(settings.config_file).parent / ".retracelint_cache"
    else:
        folder = Path.cwd() / ".retracelint_cache"
    return folder if _writable(folder) else None


_UNWRITABLE: set[Path] = set()  # the cache folders this process has said it cannot write


def _writable(folder: Path) -> bool:
    """Whether the cache can be written in ``folder``. When it cannot, every run is as slow as the
    first: the user is told once, on standard error, and the run goes on without a cache."""
    try:
        prepare_folder(folder)
    except OSError as exc:
        if folder not in _UNWRITABLE:
            _UNWRITABLE.add(folder)
            sys.stderr.write(
                f"retracelint: cannot write the cache in {folder}: {exc.strerror or exc};"
                " analysing without it (--cache-dir names another folder)\n"
            )
        return False
    return True


@dataclass
class Summaries:
    """Where this run's summaries come from: the cache, this process and the workers."""

    settings: Settings
    cache: SummaryCache | None
    options: SummaryOptions
    tokens: re.Pattern[bytes]
    watch: Watch = field(default_factory=Watch)
    parsed: int = 0  # files parsed in this run, here or in the workers
    _entries: dict[str, tuple[Input, Entry]] = field(default_factory=dict)  # of the heads read
    _indices: dict[str, dict[str, int]] = field(default_factory=dict)  # of their functions, by path
    # The wrapper aliases of other modules each file imports, by path (``aliases``).
    aliases: dict[str, dict[str, Wrapper]] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Settings, watch: Watch | None = None) -> Summaries:
        folder = cache_folder(settings)
        options = summary_options(settings)
        return cls(
            settings,
            SummaryCache(folder, _cache_salt(settings)) if folder is not None else None,
            options,
            prescan.wrapper_tokens(options.wrappers),
            watch or Watch(),
        )

    @property
    def memory(self) -> Memory | None:
        return self.watch.memory

    def key(self, item: Input, digest: bytes | None = None) -> str:
        """The cache key of ``item``'s file with the content ``digest`` (default: its own)."""
        file = item.file
        content = digest or item.digest
        given = self.aliases.get(file.path)
        if given:
            content = _digest(content + alias_salt(given))
        if self.cache is not None:
            return self.cache.key(content, file.path, file.module, file.is_package)
        if self.memory is not None:  # kept in memory without a cache: the content names it
            return f"{file.module}|{file.is_package}|{content.hex()}"
        return ""

    def cached(self, item: Input, digest: bytes | None = None) -> ModuleSummary | None:
        """The summary cached for ``item``'s file with the content ``digest`` (default: its own)."""
        key, path = self.key(item, digest), item.file.path
        if self.memory is not None and self.memory.summary(path, key) is not None:
            return self.memory.whole(path, key)
        found = self.cache.get(key) if self.cache is not None else None
        if found is not None and self.memory is not None:
            self.memory.keep(path, key, found, None)
        return found

    def cached_heads(self, items: list[Input]) -> list[ModuleSummary | None]:
        """The head of each item's cached summary (``summary.HEAD_LEFT_OUT``), None where there is
        none; ``load`` gives the rest. What the run's ``Memory`` keeps is taken from there."""
        out: list[ModuleSummary | None] = [None] * len(items)
        unknown = []
        for at, item in enumerate(items):
            kept = self.memory.summary(item.file.path, self.key(item)) if self.memory else None
            if kept is None:
                unknown.append(at)
                continue
            out[at], entry = kept
            if entry is not None:
                self._entries[item.file.path] = (item, entry)
            self.watch.summary_made()
        if self.cache is None:
            return out
        entries = self.cache.entries([self.key(items[at]) for at in unknown])
        for at, entry in zip(unknown, entries, strict=True):
            out[at] = self.head(items[at], entry) if entry is not None else None
        return out

    def head(self, item: Input, entry: Entry) -> ModuleSummary | None:
        """The head of ``entry``, ``item``'s summary read from the cache or sent by a worker."""
        head = entry.head()
        if head is not None:
            self._entries[item.file.path] = (item, entry)
            if self.memory is not None:
                self.memory.keep(item.file.path, self.key(item), head, entry)
            self.watch.summary_made()
        return head

    def load(self, head: ModuleSummary, qualname: str) -> ModuleSummary | None:
        """Fill in function ``qualname`` of ``head``, a module read as a head (``callgraph.Project``
        asks on first use). None when done; the module summarised again when the head was sound but
        the rest of the function is damaged."""
        item, entry = self._entries[head.path]
        index = self._indices.get(head.path)
        if index is None:
            index = self._indices[head.path] = {name: at for at, name in enumerate(head.functions)}
        rest = entry.rest(index[qualname])
        if rest is not None:
            try:
                fill_in(head.functions[qualname], rest)
                return None
            except (ValueError, TypeError):  # not the rest of this function: damaged
                pass
        self.parsed += 1
        return self.make(self.task(0, item))

    def make(self, task: Task) -> ModuleSummary:
        """Summarise in this process, and cache the result."""
        options = self.options
        given = self.aliases.get(task.path)
        if given:
            options = replace(options, wrappers={**options.wrappers, **given})
        summary = summarise(task.source, task.path, task.module, task.is_package, options)
        if self.cache is not None:
            self.cache.put(task.key, encode(summary))
        if self.memory is not None:
            self.memory.keep(task.path, task.key, summary, None)
        self.watch.summary_made()
        return summary

    def task(self, index: int, item: Input) -> Task:
        file = item.file
        assert item.source is not None
        return Task(index, file.path, file.module, file.is_package, item.source, self.key(item))

    def now(self, item: Input, relevant: bool) -> ModuleSummary:
        """``item``'s summary as it is now, from the cache or made here."""
        file = item.file
        if item.error is not None:
            return ModuleSummary(file.path, file.module, file.is_package, error=item.error)
        cached = self.cached(item) if relevant else None
        if cached is not None:
            return cached
        if not relevant and not file.reported:
            # Its syntax error would never be reported: not parsed, nor counted (a .gitignore'd
            # folder of generated modules costs a read and a pre-scan, no more).
            return ModuleSummary(file.path, file.module, file.is_package)
        self.parsed += 1
        if not relevant:
            return check_syntax(item.source, file.path, file.module, file.is_package)
        return self.make(self.task(0, item))

    def scan(self, item: Input, previous: Manifest | None) -> Scan | None:
        """The pre-scan of ``item``: the last run's when the file is unchanged."""
        if item.error is not None:
            return None
        before = previous.unchanged(item.file.path, item.digest) if previous else None
        if before is not None:
            return before.scan
        file = item.file
        return prescan.scan(item.source, file.module, file.is_package, self.tokens)


@dataclass(frozen=True)
class Relevance:
    """What the pre-scan found in each file, and which files it keeps (None: the pre-scan is off)."""

    scans: dict[str, Scan | None]
    keep: set[str] | None

    def kept(self, path: str) -> bool:
        return self.keep is None or path in self.keep

    def sure(self, path: str) -> bool:
        """Kept whatever the other files import: it names a jit wrapper, or could not be read."""
        found = self.scans.get(path)
        return self.keep is None or found is None or found.names_wrapper


def relevance(
    inputs: list[Input],
    source: Summaries,
    layout: ImportLayout,
    previous: Manifest | None,
    scans: dict[str, Scan | None] | None = None,
) -> Relevance:
    """Which files the pre-scan keeps; ``scans``: every file's scan, when already made."""
    if scans is None:
        scans = {item.file.path: source.scan(item, previous) for item in inputs}
    if not source.settings.prescan:
        return Relevance(scans, None)
    unchanged = (
        previous is not None
        and previous.records.keys() == scans.keys()
        and all(previous.records[path].scan == found for path, found in scans.items())
    )
    if previous is not None and unchanged:
        # The same files with the same imports and wrapper names: the same files are connected.
        return Relevance(scans, {p for p, r in previous.records.items() if r.relevant})
    return Relevance(scans, prescan.relevant([item.file for item in inputs], scans, layout))


def summarise_all(
    inputs: list[Input],
    source: Summaries,
    layout: ImportLayout,
    previous: Manifest | None = None,
    known: Relevance | None = None,
) -> tuple[list[ModuleSummary], Relevance]:
    """Every file's summary (in the order of ``inputs``), and the pre-scan's result.

    Cache hits are read here, in this process: unpickling a hit is cheaper than shipping it back from
    a worker. The misses are summarised by ``workers.Pool``. Without a ``known`` pre-scan result, the
    files that name a jit wrapper are handed to the pool first, so that the workers parse them while
    this process runs the rest of the pre-scan. A file the pre-scan leaves out is only checked for
    syntax errors (or, unchanged since the last run, not even that).
    """
    settings = source.settings
    results: dict[int, ModuleSummary] = {}

    def misses(indices: list[int]) -> list[Task]:
        readable = []
        for i in indices:
            if inputs[i].error is not None:
                results[i] = source.now(inputs[i], relevant=True)
            else:
                readable.append(i)
        out = []
        for i, cached in zip(
            readable, source.cached_heads([inputs[i] for i in readable]), strict=True
        ):
            if cached is not None:
                results[i] = cached
            else:
                out.append(source.task(i, inputs[i]))
        source.parsed += len(out)
        return out

    processes = settings.jobs or os.cpu_count() or 1
    # What this process summarises is cached a pack of files at a time, as a worker's chunk is.
    batched = source.cache.batched() if source.cache is not None else nullcontext()
    scans: dict[str, Scan | None] | None = None  # made here unless ``known``
    with batched, Pool(processes, source.options, source.cache, _PARALLEL_MIN_FILES) as pool:
        if known is not None:
            sure = [i for i, item in enumerate(inputs) if known.sure(item.file.path)]
            pool.add(misses(sure))
        else:
            # Largest files first, a batch at a time: the workers start on the biggest files while
            # this process still scans the others.
            sure = []
            scans = {}
            by_size = sorted(range(len(inputs)), key=lambda i: -len(inputs[i].source or b""))
            for start in range(0, len(by_size), _SCAN_BATCH):
                batch = []
                for i in by_size[start : start + _SCAN_BATCH]:
                    scan = scans[inputs[i].file.path] = source.scan(inputs[i], previous)
                    if not settings.prescan or scan is None or scan.names_wrapper:
                        batch.append(i)
                sure += batch
                pool.add(misses(batch))
        # Imported now, while the workers parse (networkx is imported only if a graph is drawn).
        import retracelint.callgraph  # noqa: F401

        found = known or relevance(inputs, source, layout, previous, scans)
        taken = set(sure)
        rest = []
        for i, item in enumerate(inputs):
            if i in taken:
                continue
            if found.kept(item.file.path):
                rest.append(i)
            else:
                results[i] = _syntax_only(item, source, previous)
        pool.add(misses(rest))
        results.update(
            pool.results(
                source.make,
                lambda task, entry: source.head(inputs[task.index], entry) or source.make(task),
            )
        )
        _with_aliases(inputs, results, source, found, layout)
    return [results[i] for i in range(len(inputs))], found


def _with_aliases(
    inputs: list[Input],
    results: dict[int, ModuleSummary],
    source: Summaries,
    found: Relevance,
    layout: ImportLayout,
) -> None:
    """Summarise again, with the wrapper aliases that other modules define, the files that import
    them (``aliases``); a round more for each alias made of an alias of another module."""
    for round_ in range(_ALIAS_ROUNDS):
        summaries = [results[i] for i in range(len(inputs))]
        # The files whose imports are given aliases, by path (None for the others).
        taken = [
            item.file.path if s.error is None and found.kept(item.file.path) else None
            for item, s in zip(inputs, summaries, strict=True)
        ]
        # What the aliases given depend on: the files as the layout names them, and of each
        # summary its imports and its own aliases. A long-lived process keeps them from its last
        # run (the summaries it keeps are the same objects run after run, compared at once).
        facts = tuple(
            (i.file.path, i.file.module, i.file.name, i.file.root, s.imports, s.wrapper_aliases, t)
            for i, s, t in zip(inputs, summaries, taken, strict=True)
        )

        def given_now(
            summaries: list[ModuleSummary] = summaries, taken: list[str | None] = taken
        ) -> dict[str, dict[str, Wrapper]]:
            return _aliases_given(summaries, taken, layout)

        memory = source.memory
        given = (
            memory.recall(f"aliases {round_}", facts, given_now)
            if memory is not None
            else given_now()
        )
        if not given and not source.aliases:
            return
        again = []
        for i, path in enumerate(taken):
            if path is None:
                continue
            now = given.get(path, {})
            if now != source.aliases.get(path, {}):
                source.aliases[path] = now
                again.append(i)
        if not again:
            return
        heads = source.cached_heads([inputs[i] for i in again])
        for i, head in zip(again, heads, strict=True):
            if head is None:
                source.parsed += 1
            results[i] = head or source.make(source.task(i, inputs[i]))


def _aliases_given(
    summaries: list[ModuleSummary], taken: list[str | None], layout: ImportLayout
) -> dict[str, dict[str, Wrapper]]:
    """The aliases of other modules that each summary imports, by the path ``taken`` gives it
    (None: none given), where it imports any."""
    table = alias_table(summaries, layout)
    if not table:
        return {}
    keys = {s.module for s in summaries}
    out = {}
    for summary, path in zip(summaries, taken, strict=True):
        given = imported_aliases(summary, table, keys, layout) if path is not None else None
        if given:
            out[path] = given
    return out


def _syntax_only(item: Input, source: Summaries, previous: Manifest | None) -> ModuleSummary:
    file = item.file
    before = previous.unchanged(file.path, item.digest) if previous else None
    if before is not None and not before.relevant:
        if source.memory is not None:
            return source.memory.bare(before, file.path, file.module, file.is_package)
        return before.bare_summary(file.path, file.module, file.is_package)
    return source.now(item, relevant=False)


def analyse(
    paths: list[str],
    settings: Settings,
    stdin: bytes | None = None,
    stdin_filename: str = "stdin.py",
    project: str | None = None,
    watch: Watch | None = None,
) -> Run:
    """The findings in ``paths`` (``-``: ``stdin``, named ``stdin_filename``). With ``project``, a folder
    above them, every file of that project is analysed too, as the call paths into ``paths`` may start
    anywhere in it; without, only ``paths`` are. ``watch``: what a long-lived caller gives the run
    (``session``)."""
    with _without_cycle_collector():
        return _analyse(paths, settings, stdin, stdin_filename, project, watch or Watch())


def analyse_projects(
    paths: list[str],
    settings_for: Callable[[Path | None], Settings],
    stdin: bytes | None = None,
    stdin_filename: str = "stdin.py",
    isolated: bool = False,
    watch: Watch | None = None,
) -> tuple[Settings, Run]:
    """The findings in ``paths``, each analysed within its whole project (``discover.scopes``), with
    the settings ``settings_for`` gives for that project's configuration file; and the settings of
    the first project, which decide how the findings are shown."""
    runs: list[tuple[Settings, Run]] = []
    found = scopes(paths, stdin_filename if stdin is not None else None, isolated)
    # Standard input (``-``, or a file's new content while --fix checks it) is a file of the project
    # of ``stdin_filename``.
    home = config.project_of(stdin_filename)[0] if stdin is not None and not isolated else None
    for scope in found:
        settings = settings_for(scope.config)
        given = list(scope.paths)
        mine = home is None or scope.root is None or Path(os.path.abspath(scope.root)) == home
        run = analyse(given, settings, stdin if mine else None, stdin_filename, scope.root, watch)
        runs.append((settings, run))
    if len(runs) == 1:
        return runs[0]
    merged = Run(
        findings=sorted((f for _, run in runs for f in run.findings), key=lambda f: f.sort_key),
        files=sum(run.files for _, run in runs),
        lines=sum(run.lines for _, run in runs),
        summaries=[s for _, run in runs for s in run.summaries],
        cache_hits=sum(run.cache_hits for _, run in runs),
        selected=sum(run.selected for _, run in runs),
    )
    return runs[0][0], merged


@contextmanager
def _without_cycle_collector() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the run, and restore it after (the flake8 plugin runs
    inside flake8's process).

    A run allocates millions of small, long-lived objects (syntax trees, abstract values, summaries),
    and the collector walks all of them again each time enough new ones accumulate: measured on the
    benchmark corpus, 40 % of a cold run and 60 % of a run after a one-file change. The facts form
    trees, not cycles, so nothing waits for the collector: peak memory is the same without it (corpus:
    318 MiB either way; a 5 MB file of 70,000 functions: 1.2 GB either way). Reference counting still
    frees everything as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # The objects allocated meanwhile still count as young: re-enabled as they are, the
            # collector's next pass would walk every one of them (0.7 s after a cold corpus run).
            # Frozen, they are left to reference counting, which frees them as before.
            gc.freeze()
            gc.enable()


def _analyse(
    paths: list[str],
    settings: Settings,
    stdin: bytes | None,
    stdin_filename: str,
    project: str | None,
    watch: Watch,
) -> Run:
    """The whole run (``project``'s findings, read back or found), then the findings in ``paths``."""
    on_disk = [p for p in paths if p != "-"]
    given = shown(stdin_filename) if stdin is not None else None
    folders = watch.memory.folders if watch.memory is not None else None
    discovery = discover(on_disk, settings, project, given, folders)
    buffers = _buffers(watch, stdin, stdin_filename)
    run = _project_run(discovery, settings, buffers, watch)
    asked = discovery.selected | {path for path, _ in discovery.errors}
    read_lines = _line_reader(buffers)
    run.findings = reported_in(run.findings, asked.__contains__, settings, read_lines)
    run.selected = len(discovery.selected)
    return run


def _buffers(watch: Watch, stdin: bytes | None, stdin_filename: str) -> dict[str, bytes]:
    """The text that stands for files on disk, by path as the run names files: standard input for
    ``stdin_filename``, and the caller's unsaved buffers."""
    buffers = {shown(path): data for path, data in watch.buffers.items()}
    if stdin is not None:
        buffers[shown(stdin_filename)] = stdin
    return buffers


def _project_run(
    discovery: Discovery, settings: Settings, buffers: dict[str, bytes], watch: Watch
) -> Run:
    try:
        return _project_run_reading(discovery, settings, buffers, watch, trust=True)
    except Changed:
        return _project_run_reading(discovery, settings, buffers, watch, trust=False)


def _index(
    folder: Path | None, kind: str, memory: Memory | None, kept: int | None = None
) -> ResultIndex | Stored | None:
    disk = ResultIndex(folder, kind) if folder is not None else None
    if memory is None:
        return disk
    return memory.index(kind, disk) if kept is None else memory.index(kind, disk, kept)


def _project_run_reading(
    discovery: Discovery,
    settings: Settings,
    buffers: dict[str, bytes],
    watch: Watch,
    trust: bool,
) -> Run:
    """The project's run; ``trust``: a file whose stamp is the one the last run kept is not read
    unless its bytes are needed (``Input``)."""
    files, errors = discovery.files, discovery.errors
    watch.files, watch.summarised = len(files), 0
    folder, memory = cache_folder(settings), watch.memory
    runs = _index(folder, "runs", memory)
    projects = _index(folder, "projects", memory)
    manifests = _index(folder, "manifests", memory)
    # A run that links one module again takes the last link's tables over and changes them: in
    # memory, only the newest link is kept, under the run it is of (an edit undone finds none).
    links = _index(folder, "links", memory, kept=1)
    project = project_key(files, settings, discovery.root) if projects is not None else ""
    last = projects.get(project) if projects is not None else None
    stored = manifests.get(last) if manifests is not None and isinstance(last, str) else None
    previous = stored if isinstance(stored, Manifest) else None
    inputs = [
        read_input(
            f,
            settings.max_file_size,
            buffers.get(f.path),
            previous if trust else None,
        )
        for f in files
    ]
    key = run_key(inputs, errors, settings, discovery.root) if runs is not None else ""
    if runs is not None and projects is not None:
        stored = runs.get(key)
        if isinstance(stored, tuple):
            # Nothing that decides the findings changed since a run that stored them. This is now
            # the project's last run: an edit undone and then a comment added is compared with it.
            if last != key and manifests is not None:
                projects.put(project, key)
                manifests.touch(key)
            findings, lines = stored
            return Run(findings=findings, files=len(files), lines=lines, cache_hits=len(files))
    source = Summaries.open(settings, watch)
    read_lines = _line_reader(buffers)
    layout = _layout(files, discovery.root, memory)
    found = relevance(inputs, source, layout, previous) if previous is not None else None
    manifest = _reused(inputs, source, previous, found) if previous and found else None
    summaries: list[ModuleSummary] = []
    linked = None
    if manifest is None:
        relink = _relink(
            inputs, source, previous, found, links.get(last) if links and last else None
        )
        carried = memory.carried.setdefault(project, Carried()) if memory is not None else None
        try:
            manifest, summaries, linked = _linked(
                inputs, source, previous, found, layout, read_lines, relink, carried
            )
        except BaseException:
            if relink is not None and isinstance(links, Stored) and last:
                # Linking one module again took the kept link's tables over and changed them: a
                # run stopped after that (a newer edit, an error) leaves them of no run.
                links.forget(last)
            raise
        if links is not None:
            state = linked.link_state()
            links.put(key, state)
            if carried is not None:
                carried.lookups = linked.lookups(state)
    elif isinstance(links, Stored) and last and (kept := links.get(last)) is not None:
        # No fact changed: the link is the last one, which the next edit links one module from
        # (in memory: on disk, reading it back would cost more than this run).
        links.put(key, kept)
    if projects is not None and manifests is not None:
        manifests.put(key, manifest)
        projects.put(project, key)
    if source.cache is not None and source.parsed:
        source.cache.tidy()
    findings = list(manifest.findings) + [_error(path, why) for path, why in errors]
    analysed = [path for path, r in manifest.records.items() if r.error is None]
    run = Run(
        findings=apply_filters(
            with_source_lines(findings, read_lines), settings, analysed, read_lines
        ),
        files=len(files),
        lines=sum(r.lines for r in manifest.records.values()),
        summaries=summaries,
        cache_hits=sum(item.error is None for item in inputs) - source.parsed,
        layout=layout,
        project=linked,
    )
    if runs is not None:
        runs.put(key, (run.findings, run.lines))
    return run


def _layout(files: list[SourceFile], root: str, memory: Memory | None) -> ImportLayout:
    """The import layout of ``files``: in a long-lived process, the last run's where the files and
    the project's folder are the same (most edits change neither; 0.01 CPU s of the speed corpus)."""
    if memory is None:
        return ImportLayout(files, root)
    return memory.recall(
        "import layout", (tuple(files), (root,)), lambda: ImportLayout(files, root)
    )


def _linked(
    inputs: list[Input],
    source: Summaries,
    previous: Manifest | None,
    known: Relevance | None,
    layout: ImportLayout,
    read_lines: Callable[[str], list[str]],
    relink: Relink | None = None,
    carried: Carried | None = None,
) -> tuple[Manifest, list[ModuleSummary], Project]:
    """Summarise every file, link them all (or, ``relink``, the edited one again), propagate and
    run the rules (taking over what ``carried``, the project's last run, found that still holds,
    and leaving there what this run found)."""
    summaries, found = summarise_all(inputs, source, layout, previous, known)
    from retracelint.callgraph import Project  # networkx: only when something must be linked

    watch = source.watch
    watch.check()  # what was summarised stays in the cache (and memory) for the next run
    watch.stage("linking", 85)
    project = Project(
        summaries,
        load=source.load,
        layout=layout,
        last=relink,
        sources=_source_reader(inputs, source.memory),
        picked=carried.picked if carried is not None else None,
        lookups=carried.lookups if carried is not None else None,
    )
    watch.check()
    watch.stage("checking", 92)
    if source.memory is not None and project.x64:
        _recall_x64_reach(project, inputs, source.memory)
    findings, cut = _rules(project, read_lines, carried)
    findings += [_error(s.path, s.error, s.error_line, s.error_col) for s in summaries if s.error]
    findings += [
        _unfollowed(project.functions[name].calls[index]) for name, index in project.too_deep
    ]
    findings += cut
    records = {
        item.file.path: record(
            item.digest,
            found.scans.get(item.file.path),
            found.kept(item.file.path),
            summary,
            item.stamp,
        )
        for item, summary in zip(inputs, summaries, strict=True)
    }
    return Manifest(records, tuple(findings)), summaries, project


def _rules(
    project: Project, read_lines: Callable[[str], list[str]], carried: Carried | None
) -> tuple[list[Finding], list[Finding]]:
    """The rules' findings, and those of the checks they cut short. In a long-lived process
    (``carried``), the last run's where the rules would read of ``project`` what they read then
    (``readlog``); else found, logging what they read for the next run."""
    from retracelint.propagate import Propagation

    if carried is None:
        return _checked(project, Propagation(project), read_lines, None)
    facts = readlog.rules_facts(project)
    replay = carried.replay
    if replay is not None:
        prop = Propagation(project, carried.frequency, carried.picked)
        if replay.holds(readlog.Asked(project, prop, read_lines), facts):
            carried.frequency = prop.frequency.found()
            return list(replay.findings), list(replay.cut)
    log = readlog.ReadLog()
    prop = Propagation(project, carried.frequency, carried.picked)
    with readlog.recording(project, log):
        findings, cut = _checked(project, prop, readlog.lines_logged(read_lines), carried.trees)
    carried.frequency = prop.frequency.found()
    carried.replay = readlog.Replay(log, tuple(findings), tuple(cut), facts)
    return findings, cut


def _checked(
    project: Project,
    prop: Propagation,
    read_lines: Callable[[str], list[str]],
    trees: dict[str, Parsed] | None,
) -> tuple[list[Finding], list[Finding]]:
    from retracelint.checks import run_checks

    findings = run_checks(project, prop, read_lines, trees)
    cut = [_cut_short(project, c) for c in prop.cut_short]
    return findings, cut + _chains_cut([project.functions[name] for name in sorted(prop.cut)])


def _recall_x64_reach(project: Project, inputs: list[Input], memory: Memory) -> None:
    """Which modules run with x64 on, as the last run found it where the modules, their imports
    and the files the layout resolves them among are the same (most edits change none)."""
    symbols = project.symbols
    files = tuple((i.file.path, i.file.module, i.file.name, i.file.root) for i in inputs)
    facts = (files, *symbols.x64_inputs())
    symbols.take_x64_reach(memory.recall("x64 reach", facts, symbols.x64_reach))


def _relink(
    inputs: list[Input],
    source: Summaries,
    previous: Manifest | None,
    found: Relevance | None,
    state: object,
) -> Relink | None:
    """The last link of the project and its one module edited since, when that is all that changed:
    the same files, kept by the pre-scan as they were (``Project`` says whether the edit allows
    linking that module alone)."""
    from retracelint.callgraph import LinkState, Relink

    if not isinstance(state, LinkState) or previous is None or found is None:
        return None
    if previous.records.keys() != {item.file.path for item in inputs}:
        return None
    edited = [item for item in inputs if previous.records[item.file.path].digest != item.digest]
    if len(edited) != 1:
        return None
    item = edited[0]
    before = previous.records[item.file.path]
    if not (before.relevant and found.kept(item.file.path)) or before.error is not None:
        return None
    if any(previous.records[i.file.path].relevant != found.kept(i.file.path) for i in inputs):
        return None
    old = source.cached(item, before.digest)
    return Relink(state, old) if old is not None else None


def _reused(
    inputs: list[Input], source: Summaries, previous: Manifest, found: Relevance
) -> Manifest | None:
    """The last run's findings when no edit since changed a fact (see ``reuse``); None otherwise."""
    by_path = {item.file.path: item for item in inputs}
    current = {path: (item.digest, found.kept(path)) for path, item in by_path.items()}
    made: dict[str, ModuleSummary] = {}

    def summaries(path: str) -> tuple[ModuleSummary | None, ModuleSummary]:
        item, before = by_path[path], previous.records[path]
        file, relevant = item.file, current[path][1]
        if relevant and before.error is None:
            old = source.cached(item, before.digest)
        else:
            old = before.bare_summary(file.path, file.module, file.is_package)
        made[path] = source.now(item, relevant)
        return old, made[path]

    findings = unchanged_findings(previous, current, summaries)
    if findings is None:
        return None
    records = {}
    for path, (digest, relevant) in current.items():
        before, stamp = previous.unchanged(path, digest), by_path[path].stamp
        if before is None:
            records[path] = record(digest, found.scans[path], relevant, made[path], stamp)
        else:
            records[path] = before if before.stamp == stamp else replace(before, stamp=stamp)
    return Manifest(records, findings)


# Settings that change only how findings are shown or how fast they are found, not which they are.
_PRESENTATION = (
    "output_format",
    "exit_zero",
    "statistics",
    "jobs",
    "cache",
    "cache_dir",
    "config_file",
)


def _settings_digest(settings: Settings, root: str) -> hashlib.blake2b:
    """The settings, the code and the project's folder (imports resolve from its source roots)."""
    digest = hashlib.blake2b(digest_size=20)
    decisive = {
        f.name: getattr(settings, f.name) for f in fields(settings) if f.name not in _PRESENTATION
    }
    header = (
        f"{__version__}|{code_stamp()}|{sys.version_info[:2]}|{decisive!r}|{settings.base}|{root}"
    )
    digest.update(header.encode("utf-8", "surrogateescape"))
    return digest


def _file_name(digest: hashlib.blake2b, file: SourceFile) -> None:
    name = f"\0{file.path}|{file.module}|{file.is_package}|{file.reported}|"
    digest.update(name.encode("utf-8", "surrogateescape"))


def run_key(
    inputs: list[Input], errors: list[tuple[str, str]], settings: Settings, root: str
) -> str:
    """Everything the findings of a run depend on: every file's name and bytes, the settings, the code."""
    digest = _settings_digest(settings, root)
    for item in inputs:
        _file_name(digest, item.file)
        digest.update(f"{item.error}|".encode("utf-8", "surrogateescape"))
        digest.update(item.digest)
    digest.update(repr(errors).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def project_key(files: list[SourceFile], settings: Settings, root: str) -> str:
    """The project a run is of, whatever the files hold: their names, the settings, the code."""
    digest = _settings_digest(settings, root)
    for file in files:
        _file_name(digest, file)
    return digest.hexdigest()


def analyse_paths(paths: list[str], settings: Settings | None = None) -> list[Finding]:
    """The findings in ``paths``, each within its project and with that project's configuration
    (used by ``confirm``); with ``settings``, those for every project."""

    def settings_for(found: Path | None) -> Settings:
        if settings is not None:
            return settings
        loaded = config.load_file(found) if found is not None else Settings()
        # confirm proves or refutes at run time what the static pass only assumes: it sees them all.
        return replace(loaded, confidence="all")

    return analyse_projects(paths, settings_for)[1].findings


def syntax_findings(path: str, data: bytes, settings: Settings) -> list[Finding] | None:
    """What a run shows in the file ``path`` holding ``data`` when ``data`` does not parse: its RTL000
    (filtered as a run filters it: select, per-file ignores, noqa); None when it parses."""
    named = shown(path)
    summary = check_syntax(data, named, "", False)
    if summary.error is None:
        return None
    read_lines = _line_reader({named: data})
    found = [_error(named, summary.error, summary.error_line, summary.error_col)]
    return apply_filters(with_source_lines(found, read_lines), settings, [], read_lines)


def _error(path: str, why: str | None, line: int = 1, col: int = 1) -> Finding:
    return Finding(code="RTL000", message=f"{why}", location=Location(path, line, col, line, col))


def _unfollowed(call: CallSite) -> Finding:
    at = call.location
    why = (
        f"cannot follow the call {call.text}(): finding what it calls goes deeper than Python's"
        " stack allows; analysed as if it called nothing"
    )
    return _error(at.path, why, at.line, at.col)


def _cut_short(project: Project, cut: Cut) -> Finding:
    """A check that ran out of steps: at the jit call it was about, else at the function it was
    resolving."""
    from retracelint.propagate import MAX_STEPS

    function = project.functions[cut.function]
    at = cut.at or function.location
    about = "this call" if cut.at is not None else "the project"
    why = (
        f"analysis cut short: a check of {about} took more than {MAX_STEPS:,} steps, the last"
        f" in {cut.function}(); findings it would give are missing"
    )
    return _error(at.path, why, at.line, at.col)


def _chains_cut(functions: list[FunctionSummary]) -> list[Finding]:
    """One note for the project when the propagation cut call chains at ``MAX_FRAMES``: at the
    first function (by place) whose callers, or whose calls' results, it did not follow."""
    from retracelint.propagate import MAX_FRAMES

    if not functions:
        return []
    first = min(functions, key=lambda fn: fn.location)
    others = len(functions) - 1
    more = f" (and {others} other function{'s' if others > 1 else ''})" if others else ""
    why = (
        f"call chain cut: what reaches a jit call through {first.name}(){more} goes deeper than"
        f" {MAX_FRAMES} calls and was not followed further, so findings it makes may be missing"
    )
    at = first.location
    return [replace(_error(at.path, why, at.line, at.col), severity="warning")]


def _source_reader(inputs: list[Input], memory: Memory | None) -> Callable[[str], bytes | None]:
    """The bytes each file of the run holds (its buffer, or what is on disk), by path; kept in
    ``memory`` by content, so that a long-lived process reads a file it keeps no more than once."""
    by_path = {item.file.path: item for item in inputs}
    if memory is not None:
        for item in inputs:
            if item.data is not None:
                memory.texts[item.file.path] = (item.digest, item.data)

    def read(path: str) -> bytes | None:
        item = by_path.get(path)
        if item is None:
            return None
        kept = memory.texts.get(path) if memory is not None else None
        if kept is not None and kept[0] == item.digest:
            return kept[1]
        data = item.source
        if memory is not None and data is not None:
            memory.texts[path] = (item.digest, data)
        return data

    return read


def _line_reader(buffers: dict[str, bytes]) -> Callable[[str], list[str]]:
    from retracelint.summarise import module_text, source_lines

    @lru_cache(maxsize=256)
    def read(path: str) -> list[str]:
        try:
            if path in buffers:
                data = buffers[path]
            elif not os.path.isfile(path):
                return []  # a pipe or device named *.py: opening it could block forever
            else:
                with open(path, "rb") as handle:
                    data = handle.read()
            return source_lines(module_text(data))
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            return []

    return read
