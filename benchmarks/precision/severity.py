"""Severity against the verdicts: errors and warnings of the current code, by verdict, over read rounds.

Usage:
  python benchmarks/precision/severity.py ROUND=ROOT [ROUND=ROOT ...] [--retracelint CMD]

Each ``ROUND`` is a round file with verdicts (``fresh_round_1.json``) and ``ROOT`` the folder its code
bases are checked out in, as ``fresh_round.py`` takes them. Every code base is analysed again as a user
runs it (``retracelint --format json --no-cache <folder>``), and each finding that has a verdict is
counted under the severity the current code gives it: issue 36 asks that errors be at least 80 % true
or deliberate. Findings without a verdict are counted as "unjudged", verdicts without a finding as
"gone"; a finding a few lines from a verdict of its rule and file that has no finding takes that
verdict (a multi-line call now reported at another of its lines), and files that cannot be analysed
(RTL000) are left out of the table. Listed after it: findings whose severity differs from the one
their verdict was recorded with, those without a verdict, and files not analysed that the round did
not record as such. Exit 2 when a checkout is missing or retracelint fails, else 0.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICTS = ("true", "deliberate", "false")
SEVERITIES = ("error", "warning")
NEAR = 3  # lines between where a finding was judged and where it is reported now
Key = tuple[str, str, int, str]  # repo, path, line, rule


# fresh_round.py runs a code base as the rounds did.
sys.path.insert(0, str(HERE))
import fresh_round as fresh  # noqa: E402


@dataclass
class Table:
    """One round's (or all rounds') findings by current severity and verdict."""

    cells: Counter[tuple[str, str]] = field(default_factory=Counter)  # (severity, verdict)
    gone: int = 0

    def add(self, other: Table) -> None:
        self.cells.update(other.cells)
        self.gone += other.gone

    def good_share(self, severity: str) -> float | None:
        """The share of judged findings of ``severity`` that are true or deliberate."""
        judged = sum(self.cells[severity, v] for v in VERDICTS)
        good = self.cells[severity, "true"] + self.cells[severity, "deliberate"]
        return good / judged if judged else None


@dataclass(frozen=True)
class Change:
    """A finding whose severity is not the one its verdict was recorded with ("unjudged": no
    verdict, then ``was`` is empty)."""

    key: Key
    verdict: str
    was: str
    now: str

    def __str__(self) -> str:
        repo, path, line, code = self.key
        if code == "RTL000":
            return f"not analysed ({self.now}): {repo} {path}:{line} RTL000"
        change = f"{self.was} -> {self.now}" if self.was else f"unjudged {self.now}"
        return f"{change}: {repo} {path}:{line} {code} ({self.verdict})"


def tally(round_: dict, found: dict[Key, str]) -> tuple[Table, list[Change]]:
    """``found`` maps each finding's key to its current severity. A file that cannot be analysed
    (RTL000) is no finding; one reported a few lines from where it was judged (the same rule in the
    same file: a multi-line call now reported at another of its lines) keeps its verdict."""
    table = Table()
    changes = []
    judged = {fresh.key(item): item for item in round_["verdicts"]}
    unanalysed = {fresh.key(item) for item in round_["unanalysed"]}
    changes += [
        Change(k, "", "", now)
        for k, now in sorted(found.items())
        if k[3] == "RTL000" and k not in unanalysed
    ]
    found = {k: now for k, now in found.items() if k[3] != "RTL000"}
    matched = _matched(judged.keys(), found.keys())
    for k, now in sorted(found.items()):
        item = judged.get(matched.get(k, k))
        table.cells[now, item["verdict"] if item else "unjudged"] += 1
        if item is None:
            changes.append(Change(k, "unjudged", "", now))
        elif item["severity"] != now:
            changes.append(Change(k, item["verdict"], item["severity"], now))
    table.gone = len(judged.keys() - found.keys() - set(matched.values()))
    return table, changes


def _matched(judged: Iterable[Key], found: Iterable[Key]) -> dict[Key, Key]:
    """Each finding without a verdict of its own paired with the nearest verdict, also without a
    finding, of the same rule in the same file at most ``NEAR`` lines away."""
    judged, found = set(judged), set(found)
    spare = sorted(judged - found)
    out: dict[Key, Key] = {}
    for k in sorted(found - judged):
        near = [v for v in spare if v[:2] == k[:2] and v[3] == k[3] and abs(v[2] - k[2]) <= NEAR]
        if near:
            best = min(near, key=lambda v: (abs(v[2] - k[2]), v[2]))
            out[k] = best
            spare.remove(best)
    return out


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def report(tables: list[tuple[str, Table]]) -> str:
    rows = [
        "| round | severity | true | deliberate | false | unjudged | true or deliberate | gone |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in tables:
        for severity in SEVERITIES:
            counts = [t.cells[severity, v] for v in (*VERDICTS, "unjudged")]
            gone = str(t.gone) if severity == "error" else ""
            rows.append(
                f"| {name} | {severity} | {' | '.join(map(str, counts))} | "
                f"{_share(t.good_share(severity))} | {gone} |"
            )
    return "\n".join(rows)


def run_round(command: list[str], round_file: Path, root: Path) -> tuple[Table, list[Change]]:
    round_ = json.loads(round_file.read_text())
    found: dict[Key, str] = {}
    for base in round_["code_bases"]:
        if not (root / base["folder"]).is_dir():
            raise RuntimeError(f"{root}: missing {base['folder']} (check it out at its commit)")
        print(f"retracelint: {base['repo']}", file=sys.stderr)
        found.update(fresh.findings_of(command, root, base))
    return tally(round_, found)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="+", metavar="ROUND=ROOT")
    fresh.add_retracelint_option(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = shlex.split(args.retracelint)
    tables: list[tuple[str, Table]] = []
    total = Table()
    changes: list[Change] = []
    for pair in args.rounds:
        round_file, _, root = pair.partition("=")
        if not root:
            print(f"{pair}: expected ROUND=ROOT", file=sys.stderr)
            return 2
        try:
            table, changed = run_round(command, Path(round_file), Path(root))
        except RuntimeError as err:
            print(err, file=sys.stderr)
            return 2
        tables.append((Path(round_file).stem.removeprefix("fresh_round_"), table))
        total.add(table)
        changes += changed
    print(report([*tables, ("all", total)]))
    for change in changes:
        print(change)
    return 0


if __name__ == "__main__":
    sys.exit(main())
