"""The summary cache's packs and entries as files, for the tests that damage, replace, age or copy them.

An entry is named by its key; the file that holds it is a pack, shared with the other entries written
with it (``retracelint.cache``)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import retracelint.cache as cache_module
from retracelint.cache import Entry, SummaryCache


def packs_folder(cache: Path) -> Path:
    return SummaryCache(cache, "").packs


def pack_files(cache: Path) -> list[Path]:
    return sorted(packs_folder(cache).glob("*.pack"))


def entry_keys(cache: Path) -> list[str]:
    """The key of each entry the cache holds."""
    return sorted(cache_module._holders(cache_module._contents(packs_folder(cache))))


def pack_of(cache: Path, key: str) -> Path:
    """The pack that serves ``key``'s entry."""
    return (
        packs_folder(cache)
        / cache_module._holders(cache_module._contents(packs_folder(cache)))[key]
    )


def forget_runs(cache: Path) -> None:
    """Drop the whole-run indexes, so that the next run reads the summaries."""
    for kind in ("runs", "projects"):
        shutil.rmtree(SummaryCache(cache, "").folder / kind, ignore_errors=True)


def stored(cache: Path, key: str) -> Entry:
    """The head and rest stored under ``key``."""
    found = SummaryCache(cache, "").entry(key)
    assert found is not None
    return found


def store(cache: Path, key: str, head: bytes, rest: bytes) -> None:
    """A well-formed entry of ``key`` whose head and rest are these bytes, written after the others:
    it is the one that serves ``key``."""
    SummaryCache(cache, "").put(key, (head, rest))


def replace(cache: Path, key: str, data: bytes) -> None:
    """The file the cache's index says holds ``key``'s entry now holds ``data`` (a damaged pack, a
    damaged index, another key's pack); the other entries keep theirs."""
    folder = packs_folder(cache)
    # Every pack in the index first, so that the line written below is the last word on the key.
    cache_module._merge(folder, cache_module._contents(folder))
    name = f"{time.time_ns():016x}-00000000.pack"
    (folder / name).write_bytes(data)
    with (folder / cache_module._INDEX).open("ab") as index:
        index.write(f"\n{name} {key}".encode())
