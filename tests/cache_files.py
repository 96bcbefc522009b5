"""The summary cache's entries as files, for the tests that damage, replace or age them."""

from __future__ import annotations

from pathlib import Path

from retracelint.cache import Entry, SummaryCache


def entry_files(cache: Path) -> list[Path]:
    """Each entry's file, named by its key (the entries of one pack share the file's bytes)."""
    return sorted(cache.glob("v2/*/*.entry"))


def replace(entry: Path, data: bytes) -> None:
    """Give ``entry``'s name the bytes ``data``; the other entries of its pack keep theirs."""
    entry.unlink()
    entry.write_bytes(data)


def _cache(entry: Path) -> tuple[SummaryCache, str]:
    return SummaryCache(entry.parents[2], ""), entry.name.removesuffix(".entry")


def stored(entry: Path) -> Entry:
    """The head and rest stored under ``entry``'s key."""
    cache, key = _cache(entry)
    found = cache.entry(key)
    assert found is not None
    return found


def store(entry: Path, head: bytes, rest: bytes) -> None:
    """A well-formed entry of ``entry``'s key whose head and rest are these bytes."""
    cache, key = _cache(entry)
    cache.put(key, (head, rest))
