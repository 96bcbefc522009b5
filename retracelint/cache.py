"""On-disk cache of module summaries, keyed by file content and by everything else that shapes a summary.

Each entry is one pickle file named by its key, written to a temporary file and renamed into place, so a
reader never sees half an entry and two concurrent runs at worst both write the same bytes. An entry that
cannot be read or unpickled (truncated, corrupted, from another Python) is ignored and rewritten.

Entries are never updated, only added (each edit of a file, each version of retracelint makes new ones),
so the cache is swept: at most once a day, a run that wrote entries deletes those no run has used for
30 days. Reading an entry marks it used (its mtime, refreshed at most once a day). A run that needs an
entry a concurrent sweep deleted reads a miss and summarises the file again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import os
import pickle
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from retracelint import __version__, model, prescan, reuse, values
from retracelint import summary as summary_module
from retracelint.model import Location, pickled_location
from retracelint.summary import HEAD_PICKLING, FunctionRest, ModuleSummary, rest_of, whole_of

_FORMAT = 2


def _fact_classes(modules: tuple[ModuleType, ...]) -> list[type]:
    """The classes the fact modules define (not those they import)."""
    return [
        obj
        for module in modules
        for obj in vars(module).values()
        if isinstance(obj, type) and obj.__module__ == module.__name__
    ]


_FACTS = _fact_classes((summary_module, values, model, prescan, reuse))


def _layout() -> bytes:
    """A digest of every fact class's fields, in order: an entry written when any was different
    (another branch, a field added without a new ``_FORMAT``) is a miss, never misread."""
    digest = hashlib.blake2b(digest_size=6)
    for cls in _FACTS:
        names = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []
        digest.update(f"{cls.__module__}.{cls.__qualname__}({','.join(names)})".encode())
    return digest.hexdigest().encode("ascii")


# Starts every entry and index file (whose folder is named by ``_FORMAT``): the layout of the facts
# it was written with.
_MAGIC = b"RTLC" + _layout()

_DAY_S = 86_400
_UNUSED_FOR_S = 30 * _DAY_S  # an entry no run has read or written for this long is deleted


class SummaryCache:
    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder / f"v{_FORMAT}"
        self.salt = _MAGIC + f"|{__version__}|{salt}".encode()

    def key(self, content: bytes, path: str, module: str, is_package: bool) -> str:
        """The key of a file's summary; ``content`` is the digest of the file's bytes."""
        digest = hashlib.blake2b(self.salt, digest_size=20)
        digest.update(f"|{path}|{module}|{is_package}|".encode("utf-8", "surrogateescape"))
        digest.update(content)
        return digest.hexdigest()

    def _file(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.pickle"

    def get(self, key: str) -> ModuleSummary | None:
        """The whole summary stored under ``key``; None when there is none to trust."""
        entry = self.entry(key)
        return entry.whole() if entry is not None else None

    def entry(self, key: str) -> Entry | None:
        """The entry stored under ``key``, read but not unpickled; None when there is none to trust."""
        path = self._file(key)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
                used = os.fstat(handle.fileno()).st_mtime
            if time.time() - used > _DAY_S:
                os.utime(path)  # in use: the sweep keeps it
        except OSError:
            return None
        header = _MAGIC + key.encode("ascii") + b"\n"
        if not data.startswith(header) or len(data) < len(header) + 8:
            # another file's entry (copied, or a collision): never trusted
            return None
        size = int.from_bytes(data[len(header) : len(header) + 8], "little")
        start = len(header) + 8
        if start + size > len(data):
            return None
        return Entry(data[start : start + size], data[start + size :])

    def put(self, key: str, encoded: Encoded) -> None:
        """Store a summary encoded by ``encode``, with the key it belongs to."""
        head, whole = encoded
        header = _MAGIC + key.encode("ascii") + b"\n" + len(head).to_bytes(8, "little")
        write_atomic(self._file(key), header + head + whole)

    def sweep(self) -> int:
        """Delete the entries no run has used for 30 days, unless a sweep ran in the last day (a walk
        of the whole cache: 25 ms for 3,000 entries). Returns how many were deleted."""
        now = time.time()
        stamp = self.folder / "last-sweep"
        try:
            if now - stamp.stat().st_mtime < _DAY_S:
                return 0
        except FileNotFoundError:
            pass
        except OSError:
            return 0
        write_atomic(stamp, b"")
        deleted = 0
        try:
            shards = [d.path for d in os.scandir(self.folder) if len(d.name) == 2 and d.is_dir()]
        except OSError:
            return 0
        for shard in shards:
            try:
                entries = list(os.scandir(shard))
            except OSError:
                continue
            for entry in entries:
                try:
                    if now - entry.stat().st_mtime > _UNUSED_FOR_S:
                        os.unlink(entry.path)
                        deleted += 1
                except OSError:
                    pass  # another run deleted it first, or the folder is read-only
        return deleted


# A summary's head (``summary.HEAD_PICKLING``) and the rest of it (``summary.rest_of``), pickled: each
# fact is pickled once, and the whole is the head filled in with the rest. The rest is a pickle per
# function (``_dumps_each``), so that a function can be filled in without unpickling its module's.
Encoded = tuple[bytes, bytes]


@dataclass(frozen=True)
class Entry:
    """A cache entry's two parts. Either can turn out damaged when it is unpickled: a miss, then."""

    head_bytes: bytes
    rest_bytes: bytes

    def head(self) -> ModuleSummary | None:
        try:
            head = safe_loads(self.head_bytes)
        except Exception:  # a damaged or foreign entry of any kind is a miss, never an error
            return None
        return head if isinstance(head, ModuleSummary) else None

    def whole(self) -> ModuleSummary | None:
        head = self.head()  # a copy of its own, which whole_of fills in
        if head is None:
            return None
        rests = [self.rest(index) for index in range(len(head.functions))]
        if any(rest is None for rest in rests):
            return None
        try:
            return whole_of(head, rests)  # type: ignore[arg-type]
        except Exception:  # not the rest of this head: a miss
            return None

    def rest(self, index: int) -> FunctionRest | None:
        """What the head leaves out of its function ``index`` (in order); None when damaged."""
        data = self.rest_bytes
        count = int.from_bytes(data[:4], "little")
        if index >= count or len(data) < 4 + 4 * count:
            return None
        ends = 4 + 4 * count
        start = int.from_bytes(data[4 * index : 4 * index + 4], "little") if index else 0
        end = int.from_bytes(data[4 + 4 * index : 8 + 4 * index], "little")
        try:
            rest = safe_loads(data[ends + start : ends + end])
        except Exception:  # damaged or foreign: a miss
            return None
        return rest if isinstance(rest, tuple) and len(rest) == 4 else None  # type: ignore[return-value]


class ResultIndex:
    """Facts about whole runs, kept in ``kind``: ``runs`` holds the findings of a run, keyed by everything
    they depend on (``engine.run_key``), so that a run in which nothing changed reads them back;
    ``manifests`` holds what a run found (``reuse.Manifest``) by the same key, and ``projects`` the key
    of each project's last run (``engine.project_key``), read back or linked."""

    _KEEP = 16  # entries kept of each kind: each edit of a project makes a new run entry

    def __init__(self, folder: Path, kind: str = "runs") -> None:
        self.folder = folder / f"v{_FORMAT}" / kind

    def get(self, key: str) -> object | None:
        try:
            data = (self.folder / f"{key}.findings").read_bytes()
            if not data.startswith(_MAGIC):
                return None
            stored_key, value = safe_loads(data[len(_MAGIC) :])
        except Exception:  # missing, damaged or foreign: a miss
            return None
        return value if stored_key == key else None

    def touch(self, key: str) -> None:
        """Mark the entry under ``key`` as the newest, the last to be evicted."""
        with contextlib.suppress(OSError):
            os.utime(self.folder / f"{key}.findings")

    def put(self, key: str, value: object) -> None:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        write_atomic(self.folder / f"{key}.findings", _MAGIC + payload)
        try:
            entries = sorted(self.folder.glob("*.findings"), key=lambda p: p.stat().st_mtime)
            for old in entries[: -self._KEEP]:
                old.unlink(missing_ok=True)
        except OSError:
            pass


# How the summary cache pickles facts (a pickler's dispatch table), unlike pickle: the few classes
# there are most of and that load faster without the names of their fields. And a summary as its
# head (``summary.HEAD_PICKLING``).
_PICKLING: dict[type, Callable[..., object]] = {Location: pickled_location}
_HEAD_PICKLING = {**_PICKLING, **HEAD_PICKLING}


def encode(summary: ModuleSummary) -> Encoded:
    return _dumps(summary, _HEAD_PICKLING), _dumps_each(rest_of(summary), _PICKLING)


def _dumps(facts: object, dispatch_table: dict[type, Callable[..., object]]) -> bytes:
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = dispatch_table
    pickler.dump(facts)
    return out.getvalue()


def _dumps_each(
    items: list[FunctionRest], dispatch_table: dict[type, Callable[..., object]]
) -> bytes:
    """A pickle of each item, one after the other, behind their count and where each ends (4 bytes
    each): ``Entry.rest`` unpickles one alone."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = dispatch_table
    ends = bytearray(len(items).to_bytes(4, "little"))
    for item in items:
        pickler.dump(item)
        pickler.clear_memo()  # each pickle stands alone
        ends += out.tell().to_bytes(4, "little")
    return bytes(ends) + out.getvalue()


def write_atomic(target: Path, data: bytes) -> None:
    """Write to a temporary file and rename it into place: readers see the old bytes or the new."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only or full disk makes a cache useless, not the run


def safe_loads(data: bytes) -> object:
    """Unpickle retracelint's own facts only (see ``_SafeUnpickler``)."""
    return _SafeUnpickler(io.BytesIO(data)).load()


class _SafeUnpickler(pickle.Unpickler):
    """Only retracelint's own fact classes, the functions that rebuild them, and plain containers: a
    cache restored from elsewhere (a CI cache from another branch, a shared folder) must not be able
    to run code when it is read."""

    def find_class(self, module: str, name: str) -> object:
        found = _ALLOWED.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"refusing {module}.{name} in a cache entry")
        return found


_ALLOWED: dict[tuple[str, str], object] = {
    **{(cls.__module__, cls.__qualname__): cls for cls in _FACTS},
    **{
        ("builtins", cls.__name__): cls
        for cls in (frozenset, set, tuple, list, dict, str, int, bool, bytes)
    },
    # what rebuilds the facts that are not pickled as classes (see _PICKLING)
    ("retracelint.model", "unpickled_location"): model.unpickled_location,
    ("retracelint.summary", "_unloaded"): summary_module._unloaded,
}


def ensure_gitignore(folder: Path) -> None:
    """Keep the cache out of version control without the user having to say so (as ruff does)."""
    marker = folder / ".gitignore"
    if not marker.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            marker.write_text("# Created by retracelint automatically.\n*\n", encoding="utf-8")
        except OSError:
            pass
