"""Baselines: record today's findings so that only new ones are reported.

A finding is identified by a fingerprint that leaves out line and column numbers, so that editing code above it
(adding an import, a docstring) does not make it "new". The same fingerprint is the SARIF
``partialFingerprints["retracelint/v1"]`` value, so a baseline and GitHub code scanning agree on what is the
same finding.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from retracelint.model import Finding

BASELINE_VERSION = 1
FINGERPRINT_KEY = "retracelint/v1"


class BaselineError(Exception):
    """A baseline file that cannot be read; the message names the file and is one line."""


def relative_path(path: str, root: str | os.PathLike[str] | None) -> str:
    """``path`` relative to ``root`` with forward slashes; relative paths are taken from the cwd."""
    if root is None:
        return Path(path).as_posix()
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return Path(rel).as_posix()


def normalise_source(line: str) -> str:
    """The flagged line without whitespace (outside string literals) or a trailing comment.

    Re-indenting a block, re-spacing a call or adding ``# TODO`` must not turn an old finding into a new one.
    A small scanner rather than ``tokenize``: tokenize splits f-strings differently from Python 3.12 on, and a
    baseline must match across Python versions. The line may be one piece of a multi-line statement, so
    unbalanced brackets and unterminated strings are normal here.
    """
    out: list[str] = []
    quote = ""  # the delimiter of the string being read, if any
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if quote:
            if char == "\\":
                out.append(line[i : i + 2])
                i += 2
                continue
            if line.startswith(quote, i):
                out.append(quote)
                i += len(quote)
                quote = ""
                continue
            out.append(char)
        elif char == "#":
            break
        elif char in "'\"":
            quote = line[i : i + 3] if line.startswith(char * 3, i) else char
            out.append(quote)
            i += len(quote)
            continue
        elif not char.isspace():
            out.append(char)
        i += 1
    return "".join(out)


def fingerprint(finding: Finding, *, root: str | os.PathLike[str] | None = None) -> str:
    """A stable identity for a finding that survives line shifts.

    Hashes the rule code, the file (relative to ``root``), the normalised text of the flagged line, the jitted
    function and the parameter. Line and column numbers are deliberately left out. A finding reported at a
    call on its path (``Finding.origin``) keeps the identity of its origin's line.
    """
    site = finding.jit_site
    fields = (
        FINGERPRINT_KEY,
        finding.code,
        relative_path(finding.made_at.path, root),
        normalise_source(finding.source_line),
        site.function if site is not None else "",
        finding.parameter or "",
    )
    digest = hashlib.sha256("\x00".join(fields).encode("utf-8")).hexdigest()
    return digest[:32]


@dataclass
class Baseline:
    """Fingerprints of recorded findings, with how many times each was recorded."""

    path: Path
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def root(self) -> Path:
        # Paths in fingerprints are relative to the baseline's folder, so the file works from any cwd.
        return self.path.parent

    def __len__(self) -> int:
        return sum(self.counts.values())

    def match(self, findings: Iterable[Finding]) -> tuple[list[Finding], int]:
        """Split off the findings the baseline covers.

        Returns the findings that are new, in their original order, and the number of baseline entries that
        matched nothing (fixed since the baseline was written). Multiset semantics: an entry recorded twice
        hides two identical findings, not three.
        """
        left = Counter(self.counts)
        new: list[Finding] = []
        for finding in findings:
            key = fingerprint(finding, root=self.root)
            if left[key] > 0:
                left[key] -= 1
            else:
                new.append(finding)
        return new, sum(left.values())

    def filter(self, findings: Iterable[Finding]) -> list[Finding]:
        """The findings that are not in the baseline."""
        return self.match(findings)[0]


def _entry(finding: Finding, root: Path) -> dict[str, object]:
    loc = finding.location
    # Only the fingerprint is matched; the rest is there so that a reviewer can read the file in a diff.
    return {
        "fingerprint": fingerprint(finding, root=root),
        "code": finding.code,
        "path": relative_path(loc.path, root),
        "line": loc.line,
        "message": finding.headline(),
    }


def write_baseline(path: str | os.PathLike[str], findings: Sequence[Finding]) -> None:
    """Write every finding to ``path`` (overwriting it), one entry per finding, sorted for stable diffs."""
    target = Path(path)
    root = target.parent
    entries = [_entry(f, root) for f in findings]
    entries.sort(key=lambda e: (str(e["path"]), e["line"], str(e["code"]), str(e["fingerprint"])))
    doc = {"version": BASELINE_VERSION, "tool": "retracelint", "findings": entries}
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    target.write_text(text, encoding="utf-8")


def load_baseline(path: str | os.PathLike[str]) -> Baseline:
    """Read a baseline file; raise BaselineError with a one-line message naming the file if it is unusable."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"baseline file {source} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot read baseline file {source}: {_one_line(exc)}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(
            f"baseline file {source} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    return Baseline(source, _counts(doc, source))


def _counts(doc: object, source: Path) -> Counter[str]:
    if not isinstance(doc, dict) or "version" not in doc:
        raise BaselineError(
            f"baseline file {source} is not a retracelint baseline (no version field)"
        )
    if doc["version"] != BASELINE_VERSION:
        raise BaselineError(
            f"baseline file {source} has version {doc['version']!r}; this retracelint reads version "
            f"{BASELINE_VERSION}: write it again with --write-baseline"
        )
    entries = doc.get("findings")
    if not isinstance(entries, list):
        raise BaselineError(f"baseline file {source} has no 'findings' list")
    counts: Counter[str] = Counter()
    for number, entry in enumerate(entries, start=1):
        key = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(key, str) or not key:
            raise BaselineError(f"baseline file {source}: entry {number} has no fingerprint")
        counts[key] += 1
    return counts


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
