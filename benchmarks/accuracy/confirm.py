"""The dynamic mode on the accuracy programs: does ``retracelint confirm`` prove what the static pass
finds, and see the re-traces it misses?

Usage:
    python benchmarks/accuracy/confirm.py [--heldout] [--only IDS] [--jobs N] [--retracelint CMD]

Each program is copied to a fresh folder (a project of its own; no cache is left in the repository)
and run as ``retracelint confirm . --guard all --backend cpu --format json -o REPORT -- python main.py``:
the static pass, then the program itself while confirm watches JAX's trace-cache misses. Every
positive re-traces (``run.py verify`` proves it with JAX's own log), so confirm should prove the
finding at its marker, or, where the static pass missed it, report the re-trace as unpredicted
(RTL901, ``--guard all``). A negative traces each jitted function once, so nothing may be confirmed
there. Writes CONFIRM.md beside the programs' RESULTS.md and prints a summary; never fails on a low
score.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import run

HELDOUT = run.HERE / "heldout"

# Outcomes, in the order the tables list them.
CONFIRMED = "found, confirmed"  # a finding at a marker, proved at run time
UNPROVED = "found, not confirmed"  # a finding at a marker, none of them proved
SEEN = "missed, seen at run time"  # no finding at a marker; the re-trace reported all the same
UNSEEN = "missed, not seen"
QUIET = "quiet"  # a negative: nothing confirmed, no unpredicted re-trace
ALARM = "re-trace reported"
FAILED = "could not run"  # confirm or the program failed: no outcome either way
POSITIVE_OUTCOMES = (CONFIRMED, UNPROVED, SEEN, UNSEEN)


@dataclass(frozen=True)
class Seen:
    """One entry of confirm's report: a static finding with its status, or an unpredicted re-trace."""

    path: str  # relative to the program folder
    line: int
    code: str
    status: str  # confirmed, not re-traced, inconclusive, not reached; "unpredicted" for RTL901
    retraces: int = 0

    @property
    def key(self) -> run.Marker:
        return run.Marker(self.path, self.line, self.code)

    def __str__(self) -> str:
        count = f", {self.retraces} re-traces" if self.retraces else ""
        return f"{self.path}:{self.line} {self.code} ({self.status}{count})"


@dataclass
class Outcome:
    id: str
    category: str
    kind: str
    outcome: str
    seen: list[Seen] = field(default_factory=list)
    error: str | None = None  # confirm could not run, or the program failed


def run_confirm(
    case: run.Case, command: Sequence[str], timeout: float
) -> tuple[list[Seen], str | None]:
    """What confirm reports on one program, run from a copy of its folder; or why it could not run."""
    with tempfile.TemporaryDirectory(prefix=f"confirm-{case.id}-") as tmp:
        folder = Path(tmp) / case.id
        shutil.copytree(case.folder, folder, ignore=run.LEFT_BEHIND)
        report = Path(tmp) / "report.json"
        env = dict(os.environ)
        env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {run.FAST_COMPILE_FLAGS}".strip()
        argv = [
            *command, "confirm", ".", "--guard", "all", "--backend", "cpu", "--format", "json",
            "-o", str(report), "--timeout", str(int(timeout)), "--", sys.executable, "main.py",
        ]  # fmt: skip
        proc = subprocess.run(
            argv, cwd=folder, env=env, capture_output=True, text=True, check=False
        )
        if not report.is_file():
            return [], f"exit code {proc.returncode}: {proc.stderr.strip()[-1000:]}"
        data = json.loads(report.read_text(encoding="utf-8"))
        if data.get("error") or data.get("exit_code"):
            why = data.get("error") or f"the program exited with {data['exit_code']}"
            return [], f"{why}: {proc.stderr.strip()[-500:]}"
        return _entries(data, folder), None


def _entries(data: dict, folder: Path) -> list[Seen]:
    out = [
        Seen(_relative(f["path"], folder), f["line"], f["code"], f["status"], f.get("retraces", 0))
        for f in data["findings"]
    ]
    out += [
        Seen(
            _relative(u["path"], folder), u["line"], u["code"], "unpredicted", u.get("retraces", 0)
        )
        for u in data.get("unpredicted", ())
    ]
    return sorted(out, key=lambda s: (s.path, s.line, s.code))


def _relative(path: str, folder: Path) -> str:
    given = Path(path)
    if given.is_absolute():
        try:
            given = given.resolve().relative_to(folder.resolve())
        except ValueError:
            return given.as_posix()
    return given.as_posix()


def classify(case: run.Case, seen: Sequence[Seen]) -> str:
    proved = [s for s in seen if s.status in ("confirmed", "unpredicted")]
    if case.kind == "negative":
        return ALARM if proved else QUIET
    at_markers = [s for s in seen if s.key in case.markers]
    if any(s.status == "confirmed" for s in at_markers):
        return CONFIRMED
    if at_markers:
        return UNPROVED
    return SEEN if proved else UNSEEN


def confirm_all(
    cases: Sequence[run.Case], command: Sequence[str], jobs: int, timeout: float
) -> list[Outcome]:
    def one(case: run.Case) -> Outcome:
        seen, error = run_confirm(case, command, timeout)
        outcome = classify(case, seen) if error is None else FAILED
        return Outcome(case.id, case.category, case.kind, outcome, seen, error)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, cases))


def render(cases: Sequence[run.Case], outcomes: Sequence[Outcome], header: str, how: str) -> str:
    case_of = {c.id: c for c in cases}
    positives = [o for o in outcomes if o.kind == "positive"]
    negatives = [o for o in outcomes if o.kind == "negative"]
    counts = Counter(o.outcome for o in positives)
    found = counts[CONFIRMED] + counts[UNPROVED]
    unproved = [
        (o.id, s)
        for o in outcomes
        for s in o.seen
        if s.code != "RTL901" and s.status != "confirmed"
    ]
    lines = [
        "# The dynamic mode on the accuracy programs",
        "",
        f"Generated by `{how}`; do not edit by hand. Each program runs under",
        "`retracelint confirm . --guard all --backend cpu -- python main.py` from a copy of its folder.",
        "",
        header,
        "",
        "## Totals",
        "",
        f"- positives whose finding (at a marker) was **proved at run time: {counts[CONFIRMED]} / {found}**"
        f" found by the static pass",
        f"- positives the static pass missed (no finding at a marker) whose re-trace confirm **reported"
        f" all the same** (a finding elsewhere confirmed, or RTL901): {counts[SEEN]} /"
        f" {counts[SEEN] + counts[UNSEEN]}",
        f"- positives whose re-trace went **unseen**: {counts[UNSEEN]} / {len(positives)}",
        f"- negatives with a re-trace reported: {sum(o.outcome == ALARM for o in negatives)} /"
        f" {len(negatives)}",
        f"- static findings not proved (not re-traced, inconclusive or not reached): {len(unproved)}",
        f"- programs confirm could not run: {sum(o.error is not None for o in outcomes)}",
        "",
        "## Per program",
        "",
        "| program | category | kind | outcome | expected | confirm's report |",
        "|---|---|---|---|---|---|",
    ]
    for o in sorted(outcomes, key=lambda o: (o.kind != "positive", o.category, o.id)):
        expected = run._cell(str(m) for m in sorted(case_of[o.id].markers))
        reported = (
            run._cell(str(s) for s in o.seen) if o.error is None else f"failed: {o.error[:200]}"
        )
        lines.append(
            f"| `{o.id}` | {o.category} | {o.kind} | {o.outcome} | {expected} | {reported} |"
        )
    lines += ["", "## Static findings not proved at run time", ""]
    lines += [f"- `{case_id}`: {s}" for case_id, s in unproved] or ["- none"]
    return "\n".join(lines) + "\n"


def summary_text(outcomes: Sequence[Outcome]) -> str:
    counts = Counter(o.outcome for o in outcomes)
    names = (*POSITIVE_OUTCOMES, QUIET, ALARM, FAILED)
    return "   ".join(f"{name}: {counts[name]}" for name in names)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heldout", action="store_true", help="the held-out programs")
    parser.add_argument("--only", default="", help="comma-separated program ids")
    parser.add_argument("--retracelint", default="", help="command that runs retracelint")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="programs at once")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per program")
    args = parser.parse_args(argv)
    root = HELDOUT if args.heldout else run.PROGRAMS
    try:
        cases = run.load_cases(root, [i for i in args.only.split(",") if i])
    except run.CaseError as exc:
        print(exc, file=sys.stderr)
        return 2
    command = shlex.split(args.retracelint) if args.retracelint else run.default_retracelint()
    outcomes = confirm_all(cases, command, args.jobs, args.timeout)
    for o in outcomes:
        if o.error:
            print(f"confirm failed on {o.id}: {o.error}", file=sys.stderr)
    how = "python benchmarks/accuracy/confirm.py" + (" --heldout" if args.heldout else "")
    out = (HELDOUT if args.heldout else run.HERE) / "CONFIRM.md"
    if not args.only:
        out.write_text(render(cases, outcomes, run._header(command), how), encoding="utf-8")
        print(f"wrote {out}")
    print(summary_text(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
