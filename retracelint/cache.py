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
import hashlib
import io
import os
import pickle
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from retracelint import __version__
from retracelint.summary import ModuleSummary, head_of

_FORMAT = 1
_MAGIC = b"RTLC"
_DAY_S = 86_400
_UNUSED_FOR_S = 30 * _DAY_S  # an entry no run has read or written for this long is deleted


class SummaryCache:
    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder / f"v{_FORMAT}"
        self.salt = f"{__version__}|{_FORMAT}|{salt}".encode()

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


Encoded = tuple[bytes, bytes]  # the head summary (``summary.head_of``) and the whole one, pickled


@dataclass(frozen=True)
class Entry:
    """A cache entry's two pickles. Either can turn out damaged when it is unpickled: a miss, then."""

    head_bytes: bytes
    whole_bytes: bytes

    def head(self) -> ModuleSummary | None:
        return _summary_or_none(self.head_bytes)

    def whole(self) -> ModuleSummary | None:
        return _summary_or_none(self.whole_bytes)


def _summary_or_none(data: bytes) -> ModuleSummary | None:
    try:
        summary = safe_loads(data)
    except Exception:  # a damaged or foreign entry of any kind is a miss, never an error
        return None
    return summary if isinstance(summary, ModuleSummary) else None


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


def encode(summary: ModuleSummary) -> Encoded:
    return _dumps(head_of(summary)), _dumps(summary)


def _dumps(summary: ModuleSummary) -> bytes:
    return pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL)


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
    """Only retracelint's own fact classes and plain containers: a cache restored from elsewhere (a CI
    cache from another branch, a shared folder) must not be able to run code when it is read."""

    _BUILTINS = frozenset(
        {"frozenset", "set", "tuple", "list", "dict", "str", "int", "bool", "bytes"}
    )

    def find_class(self, module: str, name: str) -> type:
        if module in _FACT_MODULES or (module == "builtins" and name in self._BUILTINS):
            return super().find_class(module, name)  # type: ignore[no-any-return]
        raise pickle.UnpicklingError(f"refusing {module}.{name} in a cache entry")


_FACT_MODULES = frozenset(
    {
        "retracelint.summary",
        "retracelint.values",
        "retracelint.model",
        "retracelint.prescan",
        "retracelint.reuse",
    }
)


def ensure_gitignore(folder: Path) -> None:
    """Keep the cache out of version control without the user having to say so (as ruff does)."""
    marker = folder / ".gitignore"
    if not marker.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            marker.write_text("# Created by retracelint automatically.\n*\n", encoding="utf-8")
        except OSError:
            pass
