"""The accuracy benchmark of issues 13 and 14: re-trace bugs from public reports, re-created as programs.

Usage:
    python benchmarks/accuracy/run.py check                 # case files and markers agree (no jax)
    python benchmarks/accuracy/run.py verify [--only IDS | --changed]   # JAX proves what each program does
    python benchmarks/accuracy/run.py score [--only IDS] [--retracelint CMD] [--results FILE]
                                            [--json FILE] [--jobs N]

Each program is a folder under ``programs/`` with a ``case.toml`` (what it is, where it comes from, what
JAX traces) and ``# expect: RTLxxx`` markers on the lines a finding belongs to (see README.md).

``verify`` runs every program for real under ``jax_explain_cache_misses`` (through tests/dynamic_support.py,
one subprocess for all programs, one more per program that turns x64 on) and fails unless each jitted
function is traced exactly as often as its case says: a positive re-traces, a negative traces each jitted
function once. It records each program it proves, by the digest of its files, in ``verified.tsv`` beside
the programs; ``--changed`` verifies only the programs whose files differ from that record (new or
edited since), and the test suite checks that the record is current instead of running all of them.

``score`` runs the installed retracelint on each program folder (``--format json --no-cache``) and scores
it per program and per category; it writes RESULTS.md and prints a summary. It never fails on a low score.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
RESULTS = HERE / "RESULTS.md"
# Left out when a program is copied to be fixed or run: a cache a run there left (its packs are hard
# links, and a copy makes each link a whole pack: 2 GB for one two-file program) and bytecode.
LEFT_BEHIND = shutil.ignore_patterns(".retracelint_cache", "__pycache__")
# Held-out programs re-create reports no other program cites (``heldout/_run.py`` sets these).
OWN_SOURCES = False
OTHER_ROOTS: tuple[Path, ...] = ()
REPO_ROOT = HERE.parents[1]
sys.path.insert(
    0, str(REPO_ROOT / "tests")
)  # the one runner that counts traces, shared with the tests
import dynamic_support  # noqa: E402 (found through the path above)

# Verifying is almost all XLA compilation of tiny functions; without LLVM's optimisations it takes about
# 30 % less CPU (measured on these programs), and what is traced, and how often, does not change.
# count_retraces_many compiles so; confirm.py's runs use the same flags.
FAST_COMPILE_FLAGS = dynamic_support.FAST_COMPILE_FLAGS

KINDS = ("positive", "negative")
CATEGORIES = (
    "signature-flip",
    "shape",
    "static-arg",
    "jit-rebuilt",
    "objects",
    "functions-as-values",
    "collections",
    "pytree-static",
    "lax-eager",
)
# A program whose code turns x64 on changes jax's global config, so it runs in a process of its own.
OWN_PROCESS = re.compile(r"jax_enable_x64")

# Outcomes, in the order tables list them.
FOUND = "found"  # the right rule at a marked line, and nothing else
FOUND_EXTRA = (
    "found+false-alarm"  # the right rule at a marked line, and a finding at an unmarked one
)
WRONG_LINE = "right rule, wrong line"
WRONG_RULE = "wrong rule"
MISSED = "missed"
CLEAN = "clean"
FALSE_ALARM = "false alarm"
POSITIVE_OUTCOMES = (FOUND, FOUND_EXTRA, WRONG_LINE, WRONG_RULE, MISSED)
NEGATIVE_OUTCOMES = (CLEAN, FALSE_ALARM)


@dataclass(frozen=True, order=True)
class Marker:
    """A ``# expect: RTLxxx`` marker: a finding with this code on this line is a right answer."""

    path: str  # relative to the program folder, with forward slashes
    line: int
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.code}"


@dataclass(frozen=True)
class Case:
    """One program: its folder, its ``case.toml`` and its markers."""

    id: str
    folder: Path
    category: str
    kind: str
    summary: str
    sources: tuple[str, ...]
    expect: tuple[str, ...]  # rule codes, positives only
    gaps: tuple[str, ...]  # accuracy-gaps.md names that explain a miss (G1-G17, FA1, ...)
    traces: dict[str, int]  # jitted function name -> how many times JAX traces it
    markers: frozenset[Marker]

    @property
    def own_process(self) -> bool:
        return any(
            OWN_PROCESS.search(p.read_text(encoding="utf-8")) for p in self.folder.rglob("*.py")
        )


class CaseError(Exception):
    """A program folder whose case.toml or markers are wrong."""


def _markers(folder: Path) -> frozenset[Marker]:
    from rule_pages import expectations  # the rule pages' reader of `# expect:` markers

    return frozenset(
        Marker(path.relative_to(folder).as_posix(), line, code)
        for path in folder.rglob("*.py")
        for line, code in expectations(path.read_text(encoding="utf-8"))
    )


def load_case(folder: Path) -> Case:
    """Read and check one program folder; CaseError says what is wrong with it."""
    toml_path = folder / "case.toml"
    if not (folder / "main.py").is_file() or not toml_path.is_file():
        raise CaseError(f"{folder.name}: needs main.py and case.toml")
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(f"{folder.name}: case.toml: {exc}") from exc
    problems = []
    if data.get("id") != folder.name:
        problems.append(f"id {data.get('id')!r} is not the folder name")
    if data.get("category") not in CATEGORIES:
        problems.append(f"category {data.get('category')!r} is not one of {', '.join(CATEGORIES)}")
    kind = data.get("kind")
    if kind not in KINDS:
        problems.append(f"kind {kind!r} is not positive or negative")
    sources = tuple(data.get("sources", ()))
    if not sources or not all(s.startswith("https://") for s in sources):
        problems.append("sources must list the https URL(s) of the report(s) it re-creates")
    traces = data.get("traces", {})
    if not traces or not all(isinstance(n, int) and n >= 1 for n in traces.values()):
        problems.append("[traces] must give each jitted function's trace count (>= 1)")
    markers = _markers(folder)
    expect = tuple(data.get("expect", ()))
    if kind == "positive":
        if not any(n > 1 for n in traces.values()):
            problems.append("a positive must re-trace: some [traces] count > 1")
        if not markers:
            problems.append(
                "a positive needs # expect: markers on the lines its finding belongs to"
            )
        if set(expect) != {m.code for m in markers}:
            problems.append(f"expect {list(expect)} differs from the markers' codes")
    elif kind == "negative":
        if any(n != 1 for n in traces.values()):
            problems.append(
                "a negative traces each jitted function once: every [traces] count is 1"
            )
        if markers or expect:
            problems.append("a negative has no expect and no markers")
    if problems:
        raise CaseError(f"{folder.name}: " + "; ".join(problems))
    return Case(
        id=folder.name,
        folder=folder,
        category=data["category"],
        kind=kind,
        summary=data.get("summary", ""),
        sources=sources,
        expect=expect,
        gaps=tuple(data.get("gaps", ())),
        traces=dict(traces),
        markers=markers,
    )


def load_cases(root: Path = PROGRAMS, only: Iterable[str] = ()) -> list[Case]:
    """Every program under root (or those named in only), sorted by id; raises CaseError listing all problems."""
    wanted = set(only)
    folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    if wanted:
        unknown = wanted - {p.name for p in folders}
        if unknown:
            raise CaseError(f"no such program: {', '.join(sorted(unknown))}")
        folders = [p for p in folders if p.name in wanted]
    cases, problems = [], []
    for folder in folders:
        try:
            cases.append(load_case(folder))
        except CaseError as exc:
            problems.append(str(exc))
    if problems:
        raise CaseError("\n".join(problems))
    return cases


def shared_sources(cases: Sequence[Case]) -> list[str]:
    """With ``OWN_SOURCES`` (the held-out programs), each report re-created by one program only: the
    programs of ``cases`` whose source another program, here or under ``OTHER_ROOTS``, cites too."""
    if not OWN_SOURCES:
        return []
    citing: dict[str, set[str]] = {}
    others = [case for root in OTHER_ROOTS for case in load_cases(root)]
    for case in [*cases, *others]:
        for source in case.sources:
            citing.setdefault(source, set()).add(f"{case.folder.parent.name}/{case.id}")
    return [
        f"{case.id}: {source} is also re-created by {', '.join(sorted(by - {mine}))}"
        for case in cases
        for source in case.sources
        if len(by := citing[source]) > 1
        for mine in [f"{case.folder.parent.name}/{case.id}"]
    ]


# --------------------------------------------------------------------------------------------------
# verify: what JAX does


@dataclass
class Verdict:
    case: Case
    traces: dict[str, int]  # what JAX traced, per function name
    problem: str | None  # None: the program does what its case says
    reasons: list[str] = field(default_factory=list)  # JAX's explanation of each re-trace

    @property
    def ok(self) -> bool:
        return self.problem is None


def _traces_in(case: Case, report) -> dict[str, int]:
    prefix = os.path.join(str(case.folder.resolve()), "")
    counts: Counter[str] = Counter()
    for function, n in report.traces.items():
        if function.file.startswith(prefix):
            counts[function.name] += n
    return dict(counts)


def program_digest(folder: Path, prefix: bytes = b"") -> str:
    """Every file of a program's folder, by its path there; not what runs leave in it (``__pycache__``,
    hidden folders such as a retracelint cache). Line ends as git stores them: a checkout that writes
    CRLF holds the same program."""
    digest = hashlib.sha256(prefix)
    for path in sorted(folder.rglob("*")):
        inside = path.relative_to(folder).parts
        if path.is_file() and not any(p == "__pycache__" or p.startswith(".") for p in inside):
            data = path.read_bytes().replace(b"\r\n", b"\n")
            digest.update("/".join(inside).encode() + b"\0" + data)
    return digest.hexdigest()


def verified_record() -> Path:
    """Where ``verify`` records what JAX proved: beside the programs of the set it runs on."""
    return PROGRAMS / "verified.tsv"


def _record_rows(record: Path) -> dict[str, list[str]]:
    """The record's rows by program id: id, digest of its files, the jax version that proved it."""
    lines = record.read_text(encoding="utf-8").splitlines() if record.is_file() else []
    return {row[0]: row for line in lines if len(row := line.split("\t")) == 3}


def recorded(record: Path) -> dict[str, str]:
    """Program id -> the digest of its files when JAX last proved it did what its case says."""
    return {case_id: row[1] for case_id, row in _record_rows(record).items()}


def changed(cases: Sequence[Case], record: Path) -> list[Case]:
    """The cases whose files are not those JAX last proved (new programs included)."""
    proved = recorded(record)
    return [c for c in cases if proved.get(c.id) != program_digest(c.folder)]


def record_verdicts(verdicts: Sequence[Verdict], record: Path) -> None:
    """Keep the digest of each program proved now, drop those that failed now, keep the others' rows
    (another run proved them); one row per program: id, digest, jax version, sorted by id."""
    rows = _record_rows(record)
    jax_version = importlib.metadata.version("jax")
    for verdict in verdicts:
        rows.pop(verdict.case.id, None)
        if verdict.ok:
            rows[verdict.case.id] = [
                verdict.case.id,
                program_digest(verdict.case.folder),
                jax_version,
            ]
    record.write_text("".join("\t".join(rows[i]) + "\n" for i in sorted(rows)), encoding="utf-8")


def verify(cases: Sequence[Case]) -> list[Verdict]:
    """Run every program under JAX's cache-miss log; one Verdict per case, in order."""
    shared = [c for c in cases if not c.own_process]
    batches = [shared] if shared else []
    batches += [[c] for c in cases if c.own_process]
    reports = {}
    for batch in batches:
        scripts = [c.folder / "main.py" for c in batch]
        found = dynamic_support.count_retraces_many(scripts, PROGRAMS)
        reports.update((case.id, report) for case, report in zip(batch, found, strict=True))
    verdicts = []
    for case in cases:
        report = reports[case.id]
        traces = _traces_in(case, report)
        problem = None
        if report.raised:
            problem = f"the program failed: {report.exception}\n{report.traceback or report.stderr[-2000:]}"
        elif traces != case.traces:
            problem = f"JAX traced {traces or 'nothing'}, case.toml says {case.traces}"
        reasons = [r.message for r in report.records if r.is_retrace]
        verdicts.append(Verdict(case, traces, problem, reasons))
    return verdicts


# --------------------------------------------------------------------------------------------------
# score: what retracelint finds


@dataclass(frozen=True)
class Finding:
    path: str  # relative to the program folder
    line: int
    code: str
    message: str = ""

    @property
    def key(self) -> Marker:
        return Marker(self.path, self.line, self.code)


@dataclass
class Score:
    """How retracelint did on one program."""

    id: str
    category: str
    kind: str
    outcome: str
    findings: list[Finding] = field(default_factory=list)
    matched: list[str] = field(default_factory=list)  # markers hit
    extra: list[str] = field(default_factory=list)  # findings at no marker
    error: str | None = None  # retracelint itself failed on this program


def classify(case: Case, findings: Sequence[Finding]) -> Score:
    """Score one program's findings against its markers.

    A positive is found when a finding has a marker's code on that marker's line; any finding whose
    (file, line, code) carries no marker is a false alarm, in a positive as in a negative. A positive that is
    not found is "right rule, wrong line" when a finding has an expected code elsewhere, "wrong rule" when
    it has other findings only, and "missed" when it has none.
    """
    matched = sorted({str(f.key) for f in findings if f.key in case.markers})
    extra = sorted({str(f.key) for f in findings if f.key not in case.markers})
    if case.kind == "negative":
        outcome = FALSE_ALARM if findings else CLEAN
    elif matched:
        outcome = FOUND_EXTRA if extra else FOUND
    elif any(f.code in case.expect for f in findings):
        outcome = WRONG_LINE
    elif findings:
        outcome = WRONG_RULE
    else:
        outcome = MISSED
    return Score(case.id, case.category, case.kind, outcome, list(findings), matched, extra)


def default_retracelint() -> list[str]:
    """The retracelint installed beside this Python (a venv's console script), else the one on PATH."""
    beside = Path(sys.executable).with_name("retracelint")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("retracelint")
    return [found] if found else [sys.executable, "-m", "retracelint"]


def run_retracelint(case: Case, command: Sequence[str]) -> tuple[list[Finding], str | None]:
    """The findings of one run on the program's folder, paths relative to it; or the error of the run."""
    argv = [*command, "check", ".", "--format", "json", "--no-cache", "--isolated", "--exit-zero"]
    proc = subprocess.run(
        [*argv, "-j", "1"], cwd=case.folder, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return [], f"exit code {proc.returncode}: {proc.stderr.strip()[-1000:]}"
    try:
        rows = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        return [], f"not JSON ({exc}): {proc.stdout[:200]!r}"
    findings = [
        Finding(Path(r["path"]).as_posix(), int(r["line"]), r["code"], r.get("message", ""))
        for r in rows
    ]
    return sorted(findings, key=lambda f: (f.path, f.line, f.code)), None


def score(cases: Sequence[Case], command: Sequence[str], jobs: int) -> list[Score]:
    def one(case: Case) -> Score:
        findings, error = run_retracelint(case, command)
        result = classify(case, findings)
        result.error = error
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, cases))


# --------------------------------------------------------------------------------------------------
# The report


@dataclass
class Totals:
    positives: int = 0
    found: int = 0
    outcomes: Counter = field(default_factory=Counter)
    negatives: int = 0
    false_alarms: int = 0

    @property
    def recall(self) -> float:
        return 100.0 * self.found / self.positives if self.positives else 0.0


def totals(scores: Iterable[Score]) -> Totals:
    out = Totals()
    for s in scores:
        out.outcomes[s.outcome] += 1
        if s.kind == "positive":
            out.positives += 1
            out.found += s.outcome == FOUND
        else:
            out.negatives += 1
            out.false_alarms += s.outcome == FALSE_ALARM
    return out


def by_category(scores: Sequence[Score]) -> dict[str, Totals]:
    present = [c for c in CATEGORIES if any(s.category == c for s in scores)]
    return {c: totals(s for s in scores if s.category == c) for c in present}


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f} %" if whole else "-"


def _cell(items: Iterable[str]) -> str:
    return "<br>".join(f"`{i}`" for i in items) or "-"


def render(cases: Sequence[Case], scores: Sequence[Score], header: str) -> str:
    """RESULTS.md: the totals, a table per category, one row per program, and the misses by gap."""
    case_of = {c.id: c for c in cases}
    overall = totals(scores)
    lines = [
        "# Accuracy benchmark results",
        "",
        "Generated by `python benchmarks/accuracy/run.py score`; do not edit by hand. See README.md for what",
        "the programs are and how they are scored.",
        "",
        header,
        "",
        "## Totals",
        "",
        f"- **positives found with the right rule at the right line and no false alarm: "
        f"{overall.found} / {overall.positives} ({overall.recall:.0f} %)** (target 80 %)",
        f"- negatives with a false alarm: {overall.false_alarms} / {overall.negatives}",
        "- positives by outcome: "
        + ", ".join(f"{o} {overall.outcomes[o]}" for o in POSITIVE_OUTCOMES),
        "",
        "## By category",
        "",
        "| category | positives | found | found + false alarm | right rule, wrong line | wrong rule | missed"
        " | found % | negatives | false alarms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for category, t in by_category(scores).items():
        o = t.outcomes
        lines.append(
            f"| {category} | {t.positives} | {o[FOUND]} | {o[FOUND_EXTRA]} | {o[WRONG_LINE]} | "
            f"{o[WRONG_RULE]} | {o[MISSED]} | {_pct(t.found, t.positives)} | {t.negatives} | "
            f"{t.false_alarms} |"
        )
    o = overall.outcomes
    lines.append(
        f"| **all** | {overall.positives} | {o[FOUND]} | {o[FOUND_EXTRA]} | {o[WRONG_LINE]} | "
        f"{o[WRONG_RULE]} | {o[MISSED]} | {_pct(overall.found, overall.positives)} | "
        f"{overall.negatives} | {overall.false_alarms} |"
    )
    lines += ["", "## Per program", ""]
    for category in by_category(scores):
        lines += [
            f"### {category}",
            "",
            "| program | kind | outcome | expected | reported | gaps |",
            "|---|---|---|---|---|---|",
        ]
        for s in sorted(
            (s for s in scores if s.category == category), key=lambda s: (s.kind, s.id)
        ):
            case = case_of[s.id]
            expected = _cell(str(m) for m in sorted(case.markers))
            reported = _cell(str(f.key) for f in s.findings)
            outcome = s.outcome if s.error is None else f"{s.outcome} (retracelint failed)"
            lines.append(
                f"| `{s.id}` | {s.kind} | {outcome} | {expected} | {reported} | "
                f"{', '.join(case.gaps) or '-'} |"
            )
        lines.append("")
    misses: dict[str, list[str]] = {}
    for s in scores:
        if s.kind == "positive" and s.outcome != FOUND:
            for gap in case_of[s.id].gaps or ("(no gap named)",):
                misses.setdefault(gap, []).append(f"`{s.id}` ({s.outcome})")
    false_alarms = [s for s in scores if s.kind == "negative" and s.outcome == FALSE_ALARM]
    lines += ["## Positives not found, by the gap that explains them", ""]
    lines += [
        f"- **{gap}**: {', '.join(ids)}" for gap, ids in sorted(misses.items(), key=_gap_order)
    ]
    lines += ["", "## False alarms on negatives", ""]
    lines += [
        f"- `{s.id}` ({', '.join(case_of[s.id].gaps) or 'no gap named'}): "
        + "; ".join(f"{f.key}: {f.message[:160]}" for f in s.findings)
        for s in false_alarms
    ] or ["- none"]
    return "\n".join(lines) + "\n"


def _gap_order(item: tuple[str, list[str]]) -> tuple[str, int]:
    match = re.fullmatch(r"([A-Z]+)(\d+)", item[0])
    return (match.group(1), int(match.group(2))) if match else (item[0], 0)


def summary_text(scores: Sequence[Score]) -> str:
    overall = totals(scores)
    lines = [
        f"positives found (right rule, right line, no false alarm): {overall.found}/"
        f"{overall.positives} = {overall.recall:.1f} %   false alarms on negatives: "
        f"{overall.false_alarms}/{overall.negatives}"
    ]
    for category, t in by_category(scores).items():
        lines.append(
            f"  {category:20} {t.found:3}/{t.positives:<3} found   {t.false_alarms}/{t.negatives} false alarms"
        )
    return "\n".join(lines)


def _git(*args: str) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, check=False
    )
    return proc.stdout.strip() if proc.returncode == 0 else ""


def _header(command: Sequence[str]) -> str:
    """Which retracelint was scored: its version and the last commit that changed the analysis."""
    version = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    commit = _git("log", "-1", "--format=%h", "--", "retracelint")
    edited = (
        " with uncommitted changes" if _git("status", "--porcelain", "--", "retracelint") else ""
    )
    analysis = f"`retracelint/` as of commit `{commit}`{edited}" if commit else "unknown commit"
    return f"Scored: `{version or ' '.join(command)}`, {analysis}."


# --------------------------------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="check case files and markers (no jax)")
    v = sub.add_parser("verify", help="run every program under JAX and check its trace counts")
    v.add_argument("--only", default="", help="comma-separated program ids")
    v.add_argument(
        "--changed",
        action="store_true",
        help="only the programs whose files differ from verified.tsv (what JAX last proved)",
    )
    v.add_argument(
        "--record", type=Path, default=None, help="the record to read and update (verified.tsv)"
    )
    v.add_argument("--explain", action="store_true", help="print JAX's reason for each re-trace")
    s = sub.add_parser("score", help="score retracelint on every program, write RESULTS.md")
    s.add_argument("--only", default="", help="comma-separated program ids")
    s.add_argument("--retracelint", default="", help="command that runs retracelint")
    s.add_argument(
        "--results", type=Path, default=RESULTS, help="where to write the Markdown report"
    )
    s.add_argument("--json", type=Path, default=None, help="also write every score as JSON here")
    s.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="programs scored at once")
    args = parser.parse_args(argv)

    only = [i for i in getattr(args, "only", "").split(",") if i]
    try:
        cases = load_cases(PROGRAMS, only)
    except CaseError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "check":
        shared = shared_sources(cases)
        if shared:
            print("\n".join(shared), file=sys.stderr)
            return 2
        kinds = Counter(c.kind for c in cases)
        print(f"{len(cases)} programs: {kinds['positive']} positive, {kinds['negative']} negative")
        return 0
    if args.command == "verify":
        record = args.record or verified_record()
        if args.changed:
            cases = changed(cases, record)
        verdicts = verify(cases)
        record_verdicts(verdicts, record)
        for verdict in verdicts:
            if not verdict.ok:
                print(f"FAIL {verdict.case.id}: {verdict.problem}")
            if args.explain:
                print(f"== {verdict.case.id}: {verdict.traces}")
                print("\n".join(verdict.reasons))
        failed = sum(not v.ok for v in verdicts)
        print(f"{len(verdicts) - failed}/{len(verdicts)} programs do what their case.toml says")
        return 1 if failed else 0
    command = shlex.split(args.retracelint) if args.retracelint else default_retracelint()
    scores = score(cases, command, args.jobs)
    for s in scores:
        if s.error:
            print(f"retracelint failed on {s.id}: {s.error}", file=sys.stderr)
    args.results.write_text(render(cases, scores, _header(command)), encoding="utf-8")
    if args.json:
        rows = [asdict(s) for s in scores]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(summary_text(scores))
    print(f"wrote {args.results}")
    return 1 if any(s.error for s in scores) else 0


if __name__ == "__main__":
    sys.exit(main())
