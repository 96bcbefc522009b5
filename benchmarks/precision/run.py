"""Measure retracelint's precision on real JAX code it was never tuned on, against judged findings.

Usage:
  python benchmarks/precision/run.py                       # build/verify, run, compare, report
  python benchmarks/precision/run.py --unjudged-template NEW.json   # stubs for the new findings
  python benchmarks/precision/run.py --merge NEW.json --write-table  # after filling them in
  python benchmarks/precision/run.py --speed [--update-snapshot]     # the speed corpus snapshot

The corpus is ``make_corpus.py --set precision``. Each distribution is analysed as its own project
by the retracelint this interpreter imports (``-m retracelint check --format json --no-cache``), and
every finding is looked up in ``judgments.json`` by its key: distribution, path inside it, rule, the
stripped text of the flagged line, the parameter it names, and an occurrence number that tells apart
identical lines of one file flagged alike (0 for the first such line in the file, 1 for the next).
The key survives line shifts and re-runs; one judgment covers every finding with its key (the same
line reached by several call paths). Exit status: 1 when a finding has no judgment (or, with ``--speed``, when the findings
differ from the snapshot), 2 when the corpus or retracelint fails, else 0.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import make_corpus  # noqa: E402  (a sibling script, importable once its folder is on the path)

JUDGMENTS = HERE / "judgments.json"
SPLIT = HERE / "split.toml"
TABLE = HERE / "TABLE.md"
SPEED_SNAPSHOT = HERE / "speed_corpus_findings.json"

VERDICTS = ("true", "deliberate", "false")
KINDS = ("user", "test", "library")
KIND_NAMES = {"all": "all code", "user": "user-level", "test": "tests", "library": "library"}
# Not a claim that something re-traces: reported apart and never judged.
UNANALYSED = "RTL000"
# false findings are counted per this many lines, as issue 12 states its target
PER_LINES = 20_000

Key = tuple[str, str, str, str, str, int]


@dataclass(frozen=True)
class Flagged:
    """A flagged line and its key, as findings and their judgments both have them."""

    dist: str
    path: str  # inside the distribution
    line: int
    rule: str
    parameter: str  # '' when the rule names none
    text: str  # the flagged line, stripped
    # among lines of this file with the same text, rule and parameter
    occurrence: int = field(default=0, kw_only=True)

    @property
    def key(self) -> Key:
        return (self.dist, self.path, self.rule, self.text, self.parameter, self.occurrence)

    @property
    def where(self) -> str:
        return f"{self.dist}/{self.path}:{self.line}"


@dataclass(frozen=True)
class Finding(Flagged):
    """One finding of retracelint, located inside its distribution."""

    message: str


@dataclass(frozen=True)
class Judgment(Flagged):
    """A verdict on every finding with this key; ``line`` is where it was when judged."""

    verdict: str
    why: str


@dataclass(frozen=True)
class Split:
    """Globs that make a file a test or user-level code; the rest is library code."""

    test: tuple[str, ...]
    user: tuple[str, ...]

    def kind(self, dist: str, path: str) -> str:
        name = f"{dist}/{path}"
        if any(fnmatchcase(name, g) for g in self.test):
            return "test"
        if any(fnmatchcase(name, g) for g in self.user):
            return "user"
        return "library"


def load_split(path: Path) -> Split:
    data = tomllib.loads(path.read_text())
    return Split(tuple(data.get("test", ())), tuple(data.get("user", ())))


@dataclass
class Comparison:
    """The findings of one run set against the judgments."""

    judged: list[tuple[Finding, Judgment]] = field(default_factory=list)
    unjudged: list[Finding] = field(default_factory=list)
    vanished: list[Judgment] = field(default_factory=list)
    unanalysed: list[Finding] = field(default_factory=list)


def compare(findings: Iterable[Finding], judgments: Iterable[Judgment]) -> Comparison:
    by_key = {j.key: j for j in judgments}
    out = Comparison()
    seen: set[Key] = set()
    for f in findings:
        if f.rule == UNANALYSED:
            out.unanalysed.append(f)
        elif f.key in by_key:
            out.judged.append((f, by_key[f.key]))
            seen.add(f.key)
        else:
            out.unjudged.append(f)
    out.vanished = [j for key, j in by_key.items() if key not in seen]
    return out


@dataclass
class Tally:
    """Findings of one group of code, by verdict, and the size of that code."""

    lines: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)

    @property
    def findings(self) -> int:
        return sum(self.verdicts.values())

    @property
    def judged(self) -> int:
        return sum(self.verdicts[v] for v in VERDICTS)

    @property
    def false_per_20k(self) -> float | None:
        return self.verdicts["false"] * PER_LINES / self.lines if self.lines else None

    @property
    def true_or_deliberate(self) -> float | None:
        good = self.verdicts["true"] + self.verdicts["deliberate"]
        return good / self.judged if self.judged else None


@dataclass
class Metrics:
    """The tallies the report prints."""

    by_kind: dict[str, Tally]  # "all" and each of KINDS
    by_rule: dict[str, Tally]  # lines left 0: a rule has no code of its own
    by_dist: dict[str, Tally]


def measure(cmp: Comparison, lines: dict[tuple[str, str], int], split: Split) -> Metrics:
    """Tallies by kind of code, rule and distribution; ``lines`` maps (dist, kind) to its size."""
    by_kind = {k: Tally() for k in ("all", *KINDS)}
    by_dist: dict[str, Tally] = {}
    for (dist, kind), n in lines.items():
        by_kind[kind].lines += n
        by_kind["all"].lines += n
        by_dist.setdefault(dist, Tally()).lines += n
    by_rule: dict[str, Tally] = {}
    pairs = [(f, j.verdict) for f, j in cmp.judged] + [(f, "unjudged") for f in cmp.unjudged]
    for f, verdict in pairs:
        for tally in (
            by_kind["all"],
            by_kind[split.kind(f.dist, f.path)],
            by_rule.setdefault(f.rule, Tally()),
            by_dist.setdefault(f.dist, Tally()),
        ):
            tally.verdicts[verdict] += 1
    return Metrics(by_kind, dict(sorted(by_rule.items())), dict(sorted(by_dist.items())))


def count_lines(corpus: Path, dists: Sequence[str], split: Split) -> dict[tuple[str, str], int]:
    """Lines (newline characters, as the pins count them) per distribution and kind of code."""
    out: Counter[tuple[str, str]] = Counter()
    for dist in dists:
        root = corpus / dist
        for path in root.rglob("*.py"):
            if not path.is_file():
                # a broken symbolic link (into a repository the checkout lacks): no lines to
                # count; retracelint reports it as an RTL000 error
                continue
            rel = path.relative_to(root).as_posix()
            out[(dist, split.kind(dist, rel))] += path.read_bytes().count(b"\n")
    return dict(out)


def run_retracelint(command: Sequence[str], root: Path, jobs: int) -> list[dict]:
    """retracelint's JSON findings for one distribution, analysed as a project of its own."""
    args = [*command, "check", "--format", "json", "--no-cache", "--isolated"]
    # The corpus lies in .bench/, which this repository's .gitignore names.
    args += ["--no-respect-gitignore", "--exit-zero", "-j", str(jobs), "."]
    proc = subprocess.run(args, cwd=root, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"retracelint failed on {root} (exit {proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def findings_of(dist: str, root: Path, raw: Iterable[dict]) -> list[Finding]:
    out = []
    lines_of: dict[str, list[str]] = {}
    for item in raw:
        path = Path(item["path"]).as_posix().removeprefix("./")
        if path not in lines_of:
            source = (root / path).read_bytes().decode("utf-8", errors="replace")
            lines_of[path] = source.split("\n")
        text_lines = lines_of[path]
        line = int(item["line"])
        text = text_lines[line - 1].strip() if 0 < line <= len(text_lines) else ""
        param = item.get("parameter") or ""
        out.append(Finding(dist, path, line, item["code"], param, text, item["message"]))
    return numbered(out)


def numbered(found: list[Finding]) -> list[Finding]:
    """Findings in file order, each with the occurrence number of its line among identical ones."""
    found = sorted(found, key=lambda f: (f.dist, f.path, f.line, f.rule, f.parameter))
    lines: dict[Key, list[int]] = {}
    for f in found:
        same = lines.setdefault(f.key, [])
        if f.line not in same:
            same.append(f.line)
    return [replace(f, occurrence=lines[f.key].index(f.line)) for f in found]


def analyse(command: Sequence[str], corpus: Path, dists: Sequence[str], jobs: int) -> list[Finding]:
    out: list[Finding] = []
    for dist in dists:
        print(f"retracelint: {dist}", file=sys.stderr)
        out += findings_of(dist, corpus / dist, run_retracelint(command, corpus / dist, jobs))
    return out


def load_judgments(path: Path) -> list[Judgment]:
    if not path.is_file():
        return []
    items = json.loads(path.read_text())
    judgments = [Judgment(**item) for item in items]
    bad = [j for j in judgments if j.verdict not in VERDICTS or not j.why.strip()]
    if bad:
        names = "\n  ".join(f"{j.where} {j.rule}: {j.verdict!r}" for j in bad)
        raise ValueError(f"{path}: judgments need a verdict in {VERDICTS} and a why:\n  {names}")
    keys = Counter(j.key for j in judgments)
    twice = [key for key, n in keys.items() if n > 1]
    if twice:
        raise ValueError(f"{path}: keys judged twice: {twice}")
    return judgments


def save_judgments(path: Path, judgments: Iterable[Judgment]) -> None:
    ordered = sorted(judgments, key=lambda j: (j.dist, j.path, j.line, j.rule, j.parameter))
    path.write_text(json.dumps([asdict(j) for j in ordered], indent=1, ensure_ascii=False) + "\n")


def stub(f: Finding) -> dict:
    """A judgment to fill in for an unjudged finding; ``message`` is there to judge by, then dropped."""
    judgment = Judgment(
        f.dist, f.path, f.line, f.rule, f.parameter, f.text, "", "", occurrence=f.occurrence
    )
    return {**asdict(judgment), "message": f.message}


def merge(judgments: list[Judgment], path: Path) -> list[Judgment]:
    """Judgments with those filled in at ``path`` (a template) added or replacing the same key."""
    items = [
        {k: v for k, v in item.items() if k != "message"} for item in json.loads(path.read_text())
    ]
    new = [Judgment(**item) for item in items]
    empty = [j.where for j in new if j.verdict not in VERDICTS or not j.why.strip()]
    if empty:
        raise ValueError(f"{path}: fill in verdict ({', '.join(VERDICTS)}) and why for: {empty}")
    by_key = {j.key: j for j in judgments}
    by_key.update((j.key, j) for j in new)
    return list(by_key.values())


def _rate(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def _row(name: str, t: Tally, with_lines: bool = True) -> str:
    v = t.verdicts
    cells = [name]
    if with_lines:
        cells.append(f"{t.lines / 1000:,.1f}")
    cells += [str(t.findings), str(v["true"]), str(v["deliberate"]), str(v["false"])]
    cells.append(str(v["unjudged"]))
    if with_lines:
        cells.append(_rate(t.false_per_20k, ".2f"))
    cells.append(_rate(t.true_or_deliberate, ".0%"))
    return "| " + " | ".join(cells) + " |"


def report(metrics: Metrics, cmp: Comparison, split: Split, title: str) -> str:
    head = "| findings | true | deliberate | false | unjudged |"
    parts = [
        f"## {title}",
        "",
        f"| code | kLOC {head} false / 20 kLOC | true or deliberate |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(_row(KIND_NAMES[k], t) for k, t in metrics.by_kind.items()),
        "",
        f"| rule {head} true or deliberate |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *(_row(rule, t, with_lines=False) for rule, t in metrics.by_rule.items()),
        "",
        f"| distribution | kLOC {head} false / 20 kLOC | true or deliberate |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(_row(d, t) for d, t in metrics.by_dist.items()),
    ]
    if cmp.unanalysed:
        parts += ["", f"Files not analysed ({UNANALYSED}, not judged): {len(cmp.unanalysed)}", ""]
        parts += [f"- {f.where}: {f.message}" for f in cmp.unanalysed]
    parts += ["", f"Unjudged findings: {len(cmp.unjudged)}", ""]
    parts += [
        f"- {f.where} {f.rule} [{split.kind(f.dist, f.path)}] {f.parameter}: {f.message}"
        for f in cmp.unjudged
    ]
    lost_true = [j for j in cmp.vanished if j.verdict == "true"]
    parts += ["", f"Judgments no longer produced: {len(cmp.vanished)}", ""]
    parts += [
        f"- {j.where} {j.rule} {j.parameter} (was {j.verdict}): {j.why}" for j in cmp.vanished
    ]
    if lost_true:
        parts += ["", f"RECALL LOSS: {len(lost_true)} true finding(s) no longer produced"]
    return "\n".join(parts) + "\n"


def as_json(metrics: Metrics, cmp: Comparison, split: Split) -> dict:
    def tally(t: Tally) -> dict:
        return {
            "lines": t.lines,
            "findings": t.findings,
            **{v: t.verdicts[v] for v in (*VERDICTS, "unjudged")},
            "false_per_20kloc": t.false_per_20k,
            "true_or_deliberate": t.true_or_deliberate,
        }

    return {
        "by_kind": {k: tally(t) for k, t in metrics.by_kind.items()},
        "by_rule": {k: tally(t) for k, t in metrics.by_rule.items()},
        "by_dist": {k: tally(t) for k, t in metrics.by_dist.items()},
        "unjudged": [{**asdict(f), "kind": split.kind(f.dist, f.path)} for f in cmp.unjudged],
        "vanished": [asdict(j) for j in cmp.vanished],
        "unanalysed": [asdict(f) for f in cmp.unanalysed],
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(cmp: Comparison, split: Split) -> str:
    """TABLE.md: every finding of the run with its verdict; judgments no longer produced below."""
    rows = sorted(
        [(f, j.verdict, j.why) for f, j in cmp.judged]
        + [(f, "UNJUDGED", "") for f in cmp.unjudged],
        key=lambda r: (r[0].dist, r[0].path, r[0].line, r[0].rule, r[0].parameter),
    )
    parts = [
        "# Every finding on the precision corpus, judged",
        "",
        "Generated by `python benchmarks/precision/run.py --write-table` from `judgments.json`;",
        "see README.md for what the verdicts mean. kind: user-level, test or library (`split.toml`).",
        "",
        "| # | file:line | rule | parameter | kind | verdict | why |",
        "|---:|---|---|---|---|---|---|",
    ]
    for n, (f, verdict, why) in enumerate(rows, 1):
        kind = split.kind(f.dist, f.path)
        cells = [str(n), f"`{f.where}`", f.rule, f.parameter or "-", kind, verdict, _cell(why)]
        parts.append("| " + " | ".join(cells) + " |")
    if cmp.vanished:
        parts += ["", "## Judgments no longer produced", ""]
        parts += [f"- `{j.where}` {j.rule} ({j.verdict}): {_cell(j.why)}" for j in cmp.vanished]
    if cmp.unanalysed:
        parts += ["", f"## Files not analysed ({UNANALYSED}, not judged)", ""]
        parts += [f"- `{f.where}`: {_cell(f.message)}" for f in cmp.unanalysed]
    return "\n".join(parts) + "\n"


def snapshot_diff(
    found: Iterable[Finding], snapshot: Iterable[Sequence[object]]
) -> tuple[list, list]:
    """Keys added and removed against a snapshot, each as often as it differs."""
    now = Counter(f.key for f in found)
    before = Counter(tuple(k) for k in snapshot)
    added = sorted((now - before).elements())
    removed = sorted((before - now).elements())
    return added, removed


def speed_mode(args: argparse.Namespace, command: Sequence[str]) -> int:
    cset = make_corpus.SPEED
    corpus = (args.corpus or cset.corpus).resolve()
    make_corpus.ensure_corpus(corpus, args.wheels.resolve(), cset)
    found = analyse(command, corpus, [p.dist for p in cset.pins], args.jobs)
    if args.update_snapshot:
        keys = sorted(f.key for f in found)
        # one key a line, so that a change of findings reads as a change of lines in a diff
        lines = ",\n".join(" " + json.dumps(list(k), ensure_ascii=False) for k in keys)
        args.snapshot.write_text(f"[\n{lines}\n]\n")
        print(f"wrote {len(keys)} finding keys to {args.snapshot}")
        return 0
    added, removed = snapshot_diff(found, json.loads(args.snapshot.read_text()))
    print(f"speed corpus: {len(found)} findings; {len(added)} added, {len(removed)} removed")
    for sign, keys in (("+", added), ("-", removed)):
        for dist, path, rule, text, param, _ in keys:
            print(f"{sign} {dist}/{path} {rule} {param or '-'}: {text}")
    return 1 if added or removed else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="corpus folder (default: the set's)")
    parser.add_argument("--wheels", type=Path, default=make_corpus.DEFAULT_WHEELS)
    parser.add_argument(
        "--no-build", action="store_true", help="take --corpus as it is: each folder a distribution"
    )
    parser.add_argument("--judgments", type=Path, default=JUDGMENTS)
    parser.add_argument("--split", type=Path, default=SPLIT)
    parser.add_argument("--retracelint", metavar="CMD", help="default: python -m retracelint")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="retracelint -j (default 2)")
    parser.add_argument("--save-findings", type=Path, help="keep this run's findings as JSON")
    parser.add_argument("--findings", type=Path, help="compare saved findings instead of running")
    parser.add_argument("--json", type=Path, help="also write the figures and lists as JSON")
    parser.add_argument("--unjudged-template", type=Path, help="write stubs for unjudged findings")
    parser.add_argument("--merge", type=Path, help="add a filled-in template to the judgments")
    parser.add_argument(
        "--drop-vanished", action="store_true", help="remove judgments no longer produced"
    )
    parser.add_argument("--write-table", action="store_true", help="regenerate TABLE.md")
    parser.add_argument("--table", type=Path, default=TABLE, help=argparse.SUPPRESS)
    parser.add_argument("--speed", action="store_true", help="diff the speed corpus's findings")
    parser.add_argument("--update-snapshot", action="store_true", help="with --speed: rewrite it")
    parser.add_argument("--snapshot", type=Path, default=SPEED_SNAPSHOT, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def precision_mode(args: argparse.Namespace, command: Sequence[str]) -> int:
    cset = make_corpus.PRECISION
    corpus = (args.corpus or cset.corpus).resolve()
    if args.no_build:
        dists = sorted(p.name for p in corpus.iterdir() if p.is_dir())
    else:
        make_corpus.ensure_corpus(corpus, args.wheels.resolve(), cset)
        dists = [p.dist for p in cset.pins]
    if args.findings:
        found = [Finding(**item) for item in json.loads(args.findings.read_text())]
    else:
        found = analyse(command, corpus, dists, args.jobs)
    if args.save_findings:
        args.save_findings.write_text(json.dumps([asdict(f) for f in found], indent=1) + "\n")
    split = load_split(args.split)
    judgments = load_judgments(args.judgments)
    if args.merge:
        judgments = merge(judgments, args.merge)
    cmp = compare(found, judgments)
    if args.drop_vanished:
        gone = {j.key for j in cmp.vanished}
        judgments = [j for j in judgments if j.key not in gone]
        cmp.vanished = []
    if args.merge or args.drop_vanished:
        save_judgments(args.judgments, judgments)
    metrics = measure(cmp, count_lines(corpus, dists, split), split)
    print(report(metrics, cmp, split, f"retracelint precision on the {corpus.name} corpus"), end="")
    if args.json:
        args.json.write_text(json.dumps(as_json(metrics, cmp, split), indent=1) + "\n")
    if args.unjudged_template:
        stubs = [stub(f) for f in {f.key: f for f in cmp.unjudged}.values()]
        args.unjudged_template.write_text(json.dumps(stubs, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {len(stubs)} judgment stub(s) to {args.unjudged_template}")
    if args.write_table:
        args.table.write_text(table(cmp, split))
    return 1 if cmp.unjudged else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = (
        shlex.split(args.retracelint) if args.retracelint else [sys.executable, "-m", "retracelint"]
    )
    try:
        return speed_mode(args, command) if args.speed else precision_mode(args, command)
    except (make_corpus.CorpusError, RuntimeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
