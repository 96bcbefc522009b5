"""On-disk cache of module summaries, keyed by file content and by everything else that shapes a summary.

Entries are written in packs: the summaries of a worker's chunk of files, or of a batch of files this
process summarised, go into one file of ``summaries/<layout>/`` (see ``_LAYOUT``), written under a
temporary name and renamed into place whole, never changed after: a reader never sees half a pack,
and two concurrent runs at worst both write the same entry. Why packs: creating a file can cost more
than writing a summary's bytes (ext4 allocating an inode: 0.02-1 ms of system time each, up to 2 s
for the 1,575 entries of a cold run of the speed corpus). A pack starts with an index of its own (each entry's key and where its
bytes are), the only word on what it holds: no entry is trusted that its pack's index does not give.

Which pack holds a key is said by the folder's ``index`` (each pack's name and the keys it serves,
rewritten whole and renamed into place) and by the packs it does not name yet, whose own indexes a
reader reads. Of two packs that hold a key, the later one serves it (a pack is named by the time it
was written; the index lists packs in that order), so an entry written again because it was damaged
replaces the old one. The index is merged lazily: a run that wrote entries rewrites it once more than
16 packs are missing from it, and deletes the packs whose every key a later pack holds. There are no
hard links: the layout before this one (``v2``) named a pack under each key it held, and a copy that
does not keep hard links (``cp -r``, ``shutil.copytree``, ``rsync -a``, zip, a CI cache) wrote each
pack once per entry: 3.7 GB for the 45 MB cache of the speed corpus. A copy of this one is its size.

An entry that cannot be read or unpickled (truncated, corrupted, from another Python) is ignored and
written again. Entries are never updated, only added (each edit of a file, each version of retracelint
makes new ones), so the cache is swept: at most once a day, a run that wrote entries deletes the packs
no run has used for 30 days, and the files of older layouts' folders (``v2``) unused for as long.
Reading a pack marks it used (its mtime, refreshed at most once a day), so a pack stays while any of
its entries is used. A run that needs an entry a concurrent run deleted reads a miss and summarises
the file again.
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
import re
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

_FORMAT = 3


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


# The layout of the facts an entry was written with. It starts every pack, index and whole-run entry
# (whose folder is named by ``_FORMAT``), and names the folder of the packs: retracelints whose facts
# differ (two versions, two branches) share a cache, each reading and merging its own packs only.
_LAYOUT = _layout()
_MAGIC = b"RTLC" + _LAYOUT

_DAY_S = 86_400
_UNUSED_FOR_S = 30 * _DAY_S  # a pack no run has read or written for this long is deleted

# A pack: _MAGIC, how many entries it holds, then a row per entry (its key, where its bytes start in
# the file, the size of its head and of its rest), then the entries' bytes.
_COUNT = struct.Struct("<I")
_ROW = struct.Struct("<40sQQQ")
_ROWS_START = len(_MAGIC) + _COUNT.size
_PACK_BYTES = 4 * 1024 * 1024  # a batch is written as a pack each time it holds this much
# A pack's name: the time it was written (ns, so that names sort as packs were written) and a random
# part (two processes, one nanosecond).
_PACK_NAME = re.compile(r"[0-9a-f]{16}-[0-9a-f]{8}\.pack")
# The index of a folder of packs: _MAGIC, then a line per pack, older first: its name and the keys
# it serves, separated by spaces.
_INDEX = "index"
_UNINDEXED_MOST = 16  # packs the index may miss before a run that wrote entries merges them in


class SummaryCache:
    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder / f"v{_FORMAT}"
        self.packs = self.folder / "summaries" / _LAYOUT.decode("ascii")
        self.salt = _MAGIC + f"|{__version__}|{salt}".encode()
        self._batch: list[tuple[str, Encoded]] | None = None  # see ``batched``
        self._batch_bytes = 0
        # The pack that serves each key, read when first asked.
        self._holders: dict[str, str] | None = None

    def __getstate__(self) -> dict[str, object]:
        # A worker gets the cache without this process's batch: it writes packs of its own.
        return {**self.__dict__, "_batch": None, "_batch_bytes": 0, "_holders": None}

    def key(self, content: bytes, path: str, module: str, is_package: bool) -> str:
        """The key of a file's summary; ``content`` is the digest of the file's bytes."""
        digest = hashlib.blake2b(self.salt, digest_size=20)
        digest.update(f"|{path}|{module}|{is_package}|".encode("utf-8", "surrogateescape"))
        digest.update(content)
        return digest.hexdigest()

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
        if self._holders is None:
            self._holders = _holders(_contents(self.packs))
        packs: dict[str, mmap.mmap | bytes | None] = {}
        try:
            return [self._entry_in(key, self._holders.get(key), packs) for key in keys]
        finally:
            for pack in packs.values():
                if isinstance(pack, mmap.mmap):
                    pack.close()

    def _entry_in(
        self, key: str, name: str | None, packs: dict[str, mmap.mmap | bytes | None]
    ) -> Entry | None:
        if name is None:
            return None
        if name not in packs:
            packs[name] = _mapped(self.packs / name)
        data = packs[name]
        rows_end = _rows_end(data[:_ROWS_START]) if data is not None else 0
        if data is None or not 0 < rows_end <= len(data):  # gone, not a pack, or a damaged one
            return None
        found = _find(data, rows_end, key)
        if found is None:  # a pack that does not hold the key (a damaged index): never trusted
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
        if self._batch_bytes >= _PACK_BYTES:
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
        """Store summaries encoded by ``encode``, each under its key, in one pack (see above)."""
        if entries:
            name = f"{time.time_ns():016x}-{os.urandom(4).hex()}.pack"
            write_atomic(self.packs / name, _pack(entries))
            if self._holders is not None:  # this pack serves its keys now
                self._holders.update((key, name) for key, _ in entries)

    def tidy(self) -> None:
        """After a run that wrote entries: sweep (``sweep``), and merge into the index the packs it
        does not name once there are more than ``_UNINDEXED_MOST`` (a listing of the folder and a
        read of the index: 2 ms on the speed corpus)."""
        self.sweep()
        contents = _contents(self.packs)
        if contents.unindexed > _UNINDEXED_MOST:
            _merge(self.packs, contents)

    def sweep(self) -> int:
        """Delete the packs no run has used for 30 days, and the files of other layouts' folders
        unused as long, unless a sweep ran in the last day. Returns how many files were deleted."""
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
        try:
            others = [
                d.path
                for d in os.scandir(self.folder.parent)
                if re.fullmatch(r"v\d+", d.name) and d.path != str(self.folder) and d.is_dir()
            ]
        except OSError:
            others = []
        return sum(_delete_unused(root, now) for root in [str(self.packs.parent), *others])


@dataclass(frozen=True)
class _Contents:
    """What a folder of packs holds: each pack's name and the keys it serves, the older pack first."""

    packs: dict[str, list[str]]
    unindexed: int  # how many of them the index does not name


def _contents(folder: Path) -> _Contents:
    """What ``folder`` holds: the packs its index names, as it names them, then the others, by their
    own indexes."""
    try:
        present = {name for name in os.listdir(folder) if _PACK_NAME.fullmatch(name)}
    except OSError:
        return _Contents({}, 0)
    packs = {name: keys for name, keys in _read_index(folder / _INDEX) if name in present}
    unindexed = sorted(present - packs.keys())
    for name in unindexed:
        packs[name] = _keys_in(folder / name)
    return _Contents(packs, len(unindexed))


def _holders(contents: _Contents) -> dict[str, str]:
    """The pack that serves each key: the latest that holds it."""
    return {key: name for name, keys in contents.packs.items() for key in keys}


def _read_index(path: Path) -> list[tuple[str, list[str]]]:
    """The packs the index at ``path`` names, each with its keys; none where there is no index to
    trust. A line that names no pack is skipped; a key a pack does not hold is a miss (its own index
    is read)."""
    try:
        lines = path.read_bytes().decode("ascii", "replace").split("\n")
    except OSError:
        return []
    if lines[0] != _MAGIC.decode("ascii"):
        return []
    named = [line.split(" ") for line in lines[1:]]
    return [(name, keys) for name, *keys in named if _PACK_NAME.fullmatch(name)]


def _keys_in(path: Path) -> list[str]:
    """The keys the pack at ``path`` holds, by its own index; none when it is no pack."""
    try:
        with open(path, "rb") as handle:
            rows_end = _rows_end(handle.read(_ROWS_START))
            rows = handle.read(rows_end - _ROWS_START) if rows_end else b""
    except OSError:
        return []
    if not rows_end or len(rows) != rows_end - _ROWS_START:
        return []
    size = _ROW.size
    return [rows[at : at + 40].decode("ascii", "replace") for at in range(0, len(rows), size)]


def _merge(folder: Path, contents: _Contents) -> None:
    """Rewrite the index of ``folder``: every pack of ``contents`` with the keys it serves; and delete
    the packs left serving none (a later pack holds each of their keys)."""
    holders = _holders(contents)
    lines, unused = [_MAGIC.decode("ascii")], []
    for name, keys in contents.packs.items():
        served = [key for key in keys if holders[key] == name]
        if served:
            lines.append(" ".join([name, *served]))
        else:
            unused.append(name)
    write_atomic(folder / _INDEX, "\n".join(lines).encode("ascii", "replace"))
    for name in unused:
        with contextlib.suppress(OSError):  # a concurrent merge deleted it first
            os.unlink(folder / name)


def _delete_unused(root: str, now: float) -> int:
    """Delete the files under ``root`` no run has used for 30 days (an index too: the next merge
    writes it again), and the folders that leaves empty; how many files were deleted."""
    deleted = 0
    for folder, _, names in os.walk(root, topdown=False):
        for name in names:
            path = os.path.join(folder, name)
            try:
                if now - os.stat(path).st_mtime > _UNUSED_FOR_S:
                    os.unlink(path)
                    deleted += 1
            except OSError:
                pass  # another run deleted it first, or the folder is read-only
        with contextlib.suppress(OSError):  # not empty
            os.rmdir(folder)
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


def _mapped(path: Path) -> mmap.mmap | bytes | None:
    """The pack at ``path``, mapped (its pages read as they are used), or read where it cannot be;
    None where there is none. Marked used, at most once a day: the sweep keeps it."""
    try:
        with open(path, "rb", buffering=0) as handle:
            if time.time() - os.fstat(handle.fileno()).st_mtime > _DAY_S:
                with contextlib.suppress(OSError):  # a read-only cache still serves
                    os.utime(path)
            try:
                return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # empty, or a file system that maps nothing
                return handle.read() or None
    except OSError:  # deleted by a concurrent run, or unreadable: a miss
        return None


def _find(data: bytes | mmap.mmap, rows_end: int, key: str) -> tuple[int, int, int] | None:
    """Where ``key``'s entry starts in the pack ``data`` (its index ends at ``rows_end``), and the
    sizes of its head and its rest; None when the index has no such key."""
    name = key.encode("ascii")
    at = data.find(name, _ROWS_START, rows_end)
    while at >= 0 and (at - _ROWS_START) % _ROW.size:  # inside another row's numbers
        at = data.find(name, at + 1, rows_end)
    return _ROW.unpack_from(data, at)[1:] if at >= 0 else None


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


# Tells backup and archiving tools (``tar --exclude-caches``, borg, restic) that the folder is a cache
# (https://bford.info/cachedir/), as ruff's and pytest's caches do.
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by retracelint.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n"
)


def prepare_folder(folder: Path) -> None:
    """Make the cache folder, keep it out of version control and of backups without the user having
    to say so (a ``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``, as ruff writes), and check that
    entries can be written in it: OSError when they cannot."""
    folder.mkdir(parents=True, exist_ok=True)
    markers = {
        ".gitignore": "# Created by retracelint automatically.\n*\n",
        "CACHEDIR.TAG": _CACHEDIR_TAG,
    }
    for name, text in markers.items():
        if not (folder / name).exists():
            (folder / name).write_text(text, encoding="utf-8")
    with tempfile.TemporaryFile(dir=folder, prefix=".tmp-"):
        pass
