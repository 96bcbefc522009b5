"""On-disk cache of module summaries, keyed by file content and by everything else that shapes a summary.

Entries are written in packs: the summaries of a worker's chunk of files, or of a batch of files this
process summarised, go into one file, written under a temporary name and then hard-linked under the
key of each entry it holds, so a reader never sees half a pack and two concurrent runs at worst both
link the same entry. A pack starts with an index (each entry's key and sizes): a reader opened under
one key reads the index and its own entry, never the others, and trusts no entry whose key the index
does not give. Why packs: creating a file can cost more than writing a summary's bytes (ext4
allocating an inode: 0.02-1 ms of system time each, up to 2 s for the 1,575 entries of a cold run of
the speed corpus), while a hard link only adds a name. Where hard links are not supported, each entry is a pack of its own. An
entry that cannot be read or unpickled (truncated, corrupted, from another Python) is ignored and
rewritten under its key.

Entries are never updated, only added (each edit of a file, each version of retracelint makes new ones),
so the cache is swept: at most once a day, a run that wrote entries deletes those no run has used for
30 days. Reading an entry marks it used (its mtime, refreshed at most once a day; the names of one
pack share it, so a pack stays while any of its entries is used). A run that needs an entry a
concurrent sweep deleted reads a miss and summarises the file again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import mmap
import operator
import os
import pickle
import struct
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from retracelint import __version__, jitspec, model, prescan, reuse, values
from retracelint import summary as summary_module
from retracelint.callgraph import ClassTarget, FuncTarget, JitTarget, LinkState
from retracelint.summary import HEAD_LEFT_OUT, FunctionRest, ModuleSummary, rest_of, whole_of

_FORMAT = 2


def _fact_classes(modules: tuple[ModuleType, ...]) -> list[type]:
    """The classes the fact modules define (not those they import)."""
    return [
        obj
        for module in modules
        for obj in vars(module).values()
        if isinstance(obj, type) and obj.__module__ == module.__name__
    ]


_FACTS = _fact_classes((summary_module, values, model, prescan, reuse, jitspec))
_LINKED = (LinkState, FuncTarget, JitTarget, ClassTarget)


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

# A pack: _MAGIC, how many entries it holds, then a row per entry (its key as in its file name, where
# its bytes start in the file, the size of its head and of its rest), then the entries' bytes.
_COUNT = struct.Struct("<I")
_ROW = struct.Struct("<40sQQQ")
_ROWS_START = len(_MAGIC) + _COUNT.size
# A batch is written as a pack each time it holds this much. A pack holds at most this many entries
# (a file takes a limited number of links).
_PACK_BYTES = 4 * 1024 * 1024
_PACK_ENTRIES = 200


class SummaryCache:
    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder / f"v{_FORMAT}"
        self.salt = _MAGIC + f"|{__version__}|{salt}".encode()
        self._batch: list[tuple[str, Encoded]] | None = None  # see ``batched``
        self._batch_bytes = 0

    def __getstate__(self) -> dict[str, object]:
        # A worker gets the cache without this process's batch: it writes packs of its own.
        return {**self.__dict__, "_batch": None, "_batch_bytes": 0}

    def key(self, content: bytes, path: str, module: str, is_package: bool) -> str:
        """The key of a file's summary; ``content`` is the digest of the file's bytes."""
        digest = hashlib.blake2b(self.salt, digest_size=20)
        digest.update(f"|{path}|{module}|{is_package}|".encode("utf-8", "surrogateescape"))
        digest.update(content)
        return digest.hexdigest()

    def _file(self, key: str) -> Path:
        # 16 folders, not 256: on a new cache each folder costs as much to create as a pack.
        return self.folder / key[:1] / f"{key}.entry"

    def get(self, key: str) -> ModuleSummary | None:
        """The whole summary stored under ``key``; None when there is none to trust."""
        entry = self.entry(key)
        return entry.whole() if entry is not None else None

    def entry(self, key: str) -> Entry | None:
        """The entry stored under ``key``, read but not unpickled; None when there is none to trust."""
        return self.entries([key])[0]

    def entries(self, keys: list[str]) -> list[Entry | None]:
        """The entries stored under ``keys``, read but not unpickled (None where there is none to
        trust), each pack mapped once: the 1,575 heads a run reads after a one-file edit of the speed
        corpus share 31 packs."""
        packs: dict[tuple[int, int], mmap.mmap | bytes | None] = {}
        try:
            return [self._entry_in(key, packs) for key in keys]
        finally:
            for pack in packs.values():
                if isinstance(pack, mmap.mmap):
                    pack.close()

    def _entry_in(
        self, key: str, packs: dict[tuple[int, int], mmap.mmap | bytes | None]
    ) -> Entry | None:
        path = self._file(key)
        try:
            stat = os.stat(path)
            ident = (stat.st_dev, stat.st_ino)
            if ident not in packs:
                packs[ident] = _mapped(path)
            _in_use(path, stat.st_mtime)
        except OSError:
            return None
        data = packs[ident]
        rows_end = _rows_end(data[:_ROWS_START]) if data is not None else 0
        if data is None or not 0 < rows_end <= len(data):  # not a pack, or a damaged one
            return None
        found = _find(data, rows_end, key)
        if found is None:  # another key's pack (copied, or a collision): never trusted
            return None
        start, head_size, rest_size = found
        if start + head_size + rest_size > len(data):  # truncated
            return None
        return Entry(
            data[start : start + head_size], data[start + head_size : start + head_size + rest_size]
        )

    def put(self, key: str, encoded: Encoded) -> None:
        """Store a summary encoded by ``encode`` under ``key`` (in a batch: when the batch is written)."""
        if self._batch is None:
            self.put_many([(key, encoded)])
            return
        self._batch.append((key, encoded))
        self._batch_bytes += len(encoded[0]) + len(encoded[1])
        if self._batch_bytes >= _PACK_BYTES or len(self._batch) >= _PACK_ENTRIES:
            self._write_batch()

    @contextlib.contextmanager
    def batched(self) -> Iterator[None]:
        """Meanwhile, ``put`` gathers the entries and writes them a pack at a time."""
        self._batch, self._batch_bytes = [], 0
        try:
            yield
        finally:
            self._write_batch()
            self._batch = None

    def _write_batch(self) -> None:
        batch = self._batch or []
        self._batch, self._batch_bytes = [], 0
        self.put_many(batch)

    def put_many(self, entries: list[tuple[str, Encoded]]) -> None:
        """Store summaries encoded by ``encode``, each under its key, in packs (see above) of at most
        ``_PACK_ENTRIES``."""
        for start in range(0, len(entries), _PACK_ENTRIES):
            self._put_pack(entries[start : start + _PACK_ENTRIES])

    def _put_pack(self, entries: list[tuple[str, Encoded]]) -> None:
        if len(entries) > 1:
            try:
                pack = _temporary(self._file(entries[0][0]).parent, _pack(entries))
            except OSError:
                return  # a read-only or full disk makes a cache useless, not the run
            try:
                for key, _ in entries:
                    _link(pack, self._file(key))
                return
            except OSError:  # no hard links here (some network shares, FAT): a pack per entry
                pass
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(pack)
        for key, encoded in entries:
            write_atomic(self._file(key), _pack([(key, encoded)]))

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
            # Also the folders of two characters where entries were kept before packs.
            shards = [d.path for d in os.scandir(self.folder) if len(d.name) <= 2 and d.is_dir()]
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


def _pack(entries: list[tuple[str, Encoded]]) -> bytes:
    rows, parts = [], []
    start = _ROWS_START + len(entries) * _ROW.size
    for key, (head, rest) in entries:
        rows.append(_ROW.pack(key.encode("ascii"), start, len(head), len(rest)))
        parts += (head, rest)
        start += len(head) + len(rest)
    return b"".join([_MAGIC, _COUNT.pack(len(entries)), *rows, *parts])


def _rows_end(data: bytes) -> int:
    """Where the index ends in the pack that starts with ``data``; 0 when ``data`` is no pack."""
    if not data.startswith(_MAGIC) or len(data) < _ROWS_START:
        return 0
    (count,) = _COUNT.unpack_from(data, len(_MAGIC))
    return _ROWS_START + count * _ROW.size


def _in_use(path: Path, mtime: float) -> None:
    """Mark the entry at ``path`` as read, at most once a day: the sweep keeps it."""
    if time.time() - mtime > _DAY_S:
        os.utime(path)


def _mapped(path: Path) -> mmap.mmap | bytes | None:
    """The pack at ``path``, mapped (its pages read as they are used), or read where it cannot be."""
    with open(path, "rb", buffering=0) as handle:
        try:
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # empty, or a file system that maps nothing
            return handle.read() or None


def _find(data: bytes | mmap.mmap, rows_end: int, key: str) -> tuple[int, int, int] | None:
    """Where ``key``'s entry starts in the pack ``data`` (its index ends at ``rows_end``), and the
    sizes of its head and its rest; None when the index has no such key."""
    name = key.encode("ascii")
    at = data.find(name, _ROWS_START, rows_end)
    while at >= 0 and (at - _ROWS_START) % _ROW.size:  # inside another row's numbers
        at = data.find(name, at + 1, rows_end)
    return _ROW.unpack_from(data, at)[1:] if at >= 0 else None


def _link(pack: str, target: Path) -> None:
    """Name the file ``pack`` ``target`` too, in place of what had that name (an entry read as
    damaged, or the same entry written by a concurrent run), atomically."""
    try:
        os.link(pack, target)
        return
    except FileNotFoundError:  # the first entry in a new folder
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass
    spare = target.with_name(f"{os.path.basename(pack)}-{target.name}")
    os.link(pack, spare)
    try:
        os.replace(spare, target)
    except BaseException:
        spare.unlink(missing_ok=True)
        raise


# A summary's head (``summary.HEAD_LEFT_OUT``) and the rest of it (``summary.rest_of``), pickled: each
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


Reduction = tuple[Callable[..., object], tuple[object, ...]]


def _positional(cls: type, left_out: dict[str, object]) -> Callable[[object], Reduction]:
    """How the cache pickles a fact class (in a pickler's dispatch table): the values of its fields
    in order, without their names, but not those of ``left_out``; unpickled by a function made for
    the class that puts each value in a new instance's dict, and ``left_out``'s values in theirs.

    Pickle's own way pickles each object's dict and builds a dict of the same items to unpickle it.
    Measured on the heads of the speed corpus (1.5 million objects, counted instructions): this way
    loads them with 36 % fewer instructions and pickles them with 30 % fewer. The function is
    written out, field by field, as ``dataclasses`` writes ``__init__``: a loop over the names
    costs a third of the gain. It takes the name pickle finds it by, in this module."""
    names = [f.name for f in dataclasses.fields(cls)]
    kept = [name for name in names if name not in left_out]
    built = f"_built_{cls.__name__}{'_head' if left_out else ''}"
    stores = "".join(
        f"    state_[{name!r}] = {f'left_out_[{name!r}]' if name in left_out else name}\n"
        for name in names
    )
    source = (
        f"def {built}({', '.join(kept)}):\n"
        f"    made_ = new_(cls_)\n    state_ = made_.__dict__\n{stores}    return made_\n"
    )
    scope: dict[str, object] = {"new_": object.__new__, "cls_": cls, "left_out_": left_out}
    if scope.keys() & names or {"made_", "state_"} & set(names):
        raise TypeError(f"retracelint: a field of {cls.__name__} is named as a local of {built}")
    exec(source, scope)  # the source is made above, from the field names of a fact class
    function = scope[built]
    function.__module__, function.__qualname__ = __name__, built  # type: ignore[attr-defined]
    globals()[built] = _REBUILDERS[__name__, built] = function
    if len(kept) > 1:
        values = operator.attrgetter(*kept)  # a tuple of the values, made in C
        return lambda fact: (function, values(fact))  # type: ignore[return-value]
    return lambda fact: (function, tuple(getattr(fact, name) for name in kept))


_REBUILDERS: dict[tuple[str, str], Callable[..., object]] = {}
# Every dataclass among the facts (a whole summary's and a rest's), and a summary as its head.
_PICKLING = {cls: _positional(cls, {}) for cls in _FACTS if dataclasses.is_dataclass(cls)}
_HEAD_PICKLING = {**_PICKLING, **{cls: _positional(cls, out) for cls, out in HEAD_LEFT_OUT.items()}}


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
        tmp = _temporary(target.parent, data)
        try:
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only or full disk makes a cache useless, not the run


def _temporary(folder: Path, data: bytes) -> str:
    """A new file in ``folder`` (made if need be) holding ``data``, named as no other writer names one
    (a name the sweep deletes, should a crash leave it behind)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


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
    # what rebuilds the facts (``_positional``)
    **_REBUILDERS,
    ("retracelint.summary", "_unloaded"): summary_module._unloaded,
    # the last link of a project (``callgraph.LinkState``), kept in ``ResultIndex(folder, "links")``
    **{(cls.__module__, cls.__qualname__): cls for cls in _LINKED},
}


def prepare_folder(folder: Path) -> None:
    """Make the cache folder, keep it out of version control without the user having to say so (as
    ruff does), and check that entries can be written in it: OSError when they cannot."""
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / ".gitignore"
    if not marker.exists():
        marker.write_text("# Created by retracelint automatically.\n*\n", encoding="utf-8")
    with tempfile.TemporaryFile(dir=folder, prefix=".tmp-"):
        pass
