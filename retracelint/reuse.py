"""Reuse what the last run of the same project found, when the edits since changed no fact.

The findings are a function of the module summaries (and of the settings, which are part of the
project's key). Most edits between two runs touch one or two files, and many of them change no fact
the analysis uses: a comment, a blank line at the end, the wording of a string, an edit undone. When
every edited file's summary is equal to the one it had, the call graph, the propagation and the raw
findings are what they were, so they are read back instead of loading every summary and linking the
whole project again: the "early cutoff" of build systems. Only the filters run again, because they read
the source lines (a new ``# noqa`` must count).

The manifest also keeps each file's pre-scan result, so that the text of an unchanged file is never
scanned again, and the syntax check of files the pre-scan left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from retracelint.model import Finding
from retracelint.prescan import Scan
from retracelint.summary import ModuleSummary


@dataclass(frozen=True)
class FileRecord:
    """One file as the last run saw it."""

    digest: bytes  # of the file's bytes
    scan: Scan | None  # the pre-scan's result; None when the file could not be read
    relevant: bool  # summarised (True) or only syntax-checked (False)
    error: tuple[str, int, int] | None  # why it could not be analysed, and where
    lines: int
    # The file's size, times and inode when it was read (``engine.Stamp``): while they are the
    # same, the next run takes ``digest`` without reading the file. None when it was read too soon
    # after a change for its times to tell the next change apart.
    stamp: tuple[int, int, int, int] | None = None

    def bare_summary(self, path: str, module: str, is_package: bool) -> ModuleSummary:
        """The summary of a file that was only syntax-checked or could not be read."""
        why, line, col = self.error or (None, 1, 1)
        return ModuleSummary(
            path, module, is_package, error=why, error_line=line, error_col=col, lines=self.lines
        )


@dataclass(frozen=True)
class Manifest:
    records: dict[str, FileRecord]  # by path
    findings: tuple[Finding, ...]  # before source lines and filters; without discovery errors

    def unchanged(self, path: str, digest: bytes) -> FileRecord | None:
        """The last run's record of ``path`` if the file still has the same bytes."""
        before = self.records.get(path)
        return before if before is not None and before.digest == digest else None


def record(
    digest: bytes,
    scan: Scan | None,
    relevant: bool,
    summary: ModuleSummary,
    stamp: tuple[int, int, int, int] | None = None,
) -> FileRecord:
    error = (summary.error, summary.error_line, summary.error_col) if summary.error else None
    return FileRecord(digest, scan, relevant, error, summary.lines, stamp)


def same_facts(old: ModuleSummary, new: ModuleSummary) -> bool:
    """Equal for the analysis: the line count is only reported, never analysed."""
    return replace(old, lines=0) == replace(new, lines=0)


def unchanged_findings(
    previous: Manifest,
    current: dict[str, tuple[bytes, bool]],
    summaries: Callable[[str], tuple[ModuleSummary | None, ModuleSummary]],
) -> tuple[Finding, ...] | None:
    """The previous run's findings, if they still hold; else None.

    ``current`` gives each file's digest and whether the pre-scan keeps it, by path; ``summaries(path)``
    gives an edited file's summary as the last run had it (None when it is no longer cached) and as
    it is now. They hold when the same files are analysed the same way and every edited file has the
    facts it had.
    """
    if previous.records.keys() != current.keys():
        return None  # a file was added or removed: the modules the calls resolve to may change
    edited = []
    for path, (digest, relevant) in current.items():
        before = previous.records[path]
        if before.relevant != relevant:
            return None
        if before.digest != digest:
            edited.append(path)
    for path in edited:
        old, new = summaries(path)
        if old is None or not same_facts(old, new):
            return None
    return previous.findings
