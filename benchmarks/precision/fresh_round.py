"""Re-run a round of first scores on whole code bases (issue 36) and compare with its verdicts.

Usage:
  python benchmarks/precision/fresh_round.py [--round FILE] [--root DIR] [--retracelint CMD]

A round file (``fresh_round_1.json``) names each code base with its commit and the folder it is
checked out in (``<owner>+<name>``), and holds one verdict per finding of the first run. The code
bases are not committed: check each out at its commit under ``--root`` (default ``.fresh_round``,
git-ignored), e.g. ``git clone https://github.com/apple/axlearn .fresh_round/apple+axlearn`` then
``git -C .fresh_round/apple+axlearn checkout <commit>``. Each folder is analysed as a user runs it,
default settings, from ``--root``: ``retracelint --format json --no-cache <folder>``.
The script prints the figures of FRESH_ROUND_1.md and lists findings with no verdict ("new") and
verdicts with no finding ("gone"): exit status 1 when either list is non-empty, 2 when a folder is
missing or retracelint fails, else 0. Findings are keyed by path, line and rule (the commits are
pinned, so lines do not move).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def _precision_benchmark() -> ModuleType:
    """The precision benchmark's run.py (its split and tallies), loaded by path under a name of its
    own: another script named ``run`` (the accuracy benchmark's) may already be imported as ``run``."""
    spec = importlib.util.spec_from_file_location("precision_benchmark_run", HERE / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


precision = _precision_benchmark()

REPO_ROOT = HERE.parent.parent
ROUND = HERE / "fresh_round_1.json"

Key = tuple[str, str, int, str]  # repo, path, line, rule


@dataclass(frozen=True)
class Scored:
    """A round's figures: tallies by kind of code, repository and severity, and false by cause."""

    by_kind: dict[str, precision.Tally]
    by_repo: dict[str, precision.Tally]
    by_severity: dict[str, precision.Tally]
    causes: list[tuple[str, int]]


def key(item: dict) -> Key:
    return (item["repo"], item["path"], int(item["line"]), item["code"])


def kind_of(split: precision.Split, item: dict) -> str:
    return split.kind(item["repo"].replace("/", "+"), item["path"])


def score(round_: dict, lines: dict[tuple[str, str], int], split: precision.Split) -> Scored:
    """Tallies of the judged findings; ``lines`` maps (repo, kind of code) to its size."""
    by_kind = {k: precision.Tally() for k in ("all", *precision.KINDS)}
    by_repo = {base["repo"]: precision.Tally() for base in round_["code_bases"]}
    by_severity: dict[str, precision.Tally] = {}
    for (repo, kind), n in lines.items():
        for tally in (by_kind["all"], by_kind[kind], by_repo[repo]):
            tally.lines += n
    for item in round_["verdicts"]:
        for tally in (
            by_kind["all"],
            by_kind[kind_of(split, item)],
            by_repo[item["repo"]],
            by_severity.setdefault(item["severity"], precision.Tally()),
        ):
            tally.verdicts[item["verdict"]] += 1
    causes = Counter(item["cause"] for item in round_["verdicts"] if item["verdict"] == "false")
    return Scored(
        by_kind, by_repo, by_severity, sorted(causes.items(), key=lambda c: (-c[1], c[0]))
    )


def differences(found: Iterable[Key], round_: dict) -> tuple[list[Key], list[Key]]:
    """Findings with no verdict, and verdicts (or unanalysed files) with no finding. A finding first
    seen after the first score is judged in ``now`` (same fields, plus ``judged_at``): it is no
    longer new, and it never enters the figures, which stay the first score's."""
    found = set(found)
    later = round_.get("now", [])
    recorded = {key(item) for item in round_["verdicts"] + round_.get("unanalysed", []) + later}
    return sorted(found - recorded), sorted(recorded - found)


def _rate(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def report(scored: Scored) -> str:
    rows = [
        "| group | kLOC | findings | true | deliberate | false | false/20 kLOC | true or deliberate |"
    ]
    rows.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    groups = [(precision.KIND_NAMES[k], t) for k, t in scored.by_kind.items()]
    groups += list(scored.by_repo.items()) + [
        (f"severity {s}", t) for s, t in scored.by_severity.items()
    ]
    for name, t in groups:
        size = f"{t.lines / 1000:.1f}" if t.lines else ""
        v = t.verdicts
        rows.append(
            f"| {name} | {size} | {t.findings} | {v['true']} | {v['deliberate']} | {v['false']} | "
            f"{_rate(t.false_per_20k if t.lines else None, '.2f')} | {_rate(t.true_or_deliberate, '.0%')} |"
        )
    rows.append("")
    rows.append("false findings by cause: " + ", ".join(f"{c} {n}" for c, n in scored.causes))
    return "\n".join(rows)


def run_base(command: Sequence[str], root: Path, base: dict) -> list[Key]:
    """The keys of retracelint's findings on one code base, run as a user runs it."""
    return list(findings_of(command, root, base))


def findings_of(command: Sequence[str], root: Path, base: dict) -> dict[Key, str]:
    """retracelint's findings on one code base, run as a user runs it: each key with its severity."""
    args = [*command, "--format", "json", "--no-cache", base["folder"]]
    proc = subprocess.run(args, cwd=root, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(
            f"retracelint failed on {base['folder']} (exit {proc.returncode}):\n{proc.stderr}"
        )
    prefix = base["folder"] + "/"
    return {
        (
            base["repo"],
            Path(f["path"]).as_posix().removeprefix(prefix),
            int(f["line"]),
            f["code"],
        ): f["severity"]
        for f in json.loads(proc.stdout)
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=Path, default=ROUND)
    parser.add_argument("--root", type=Path, default=REPO_ROOT / ".fresh_round")
    parser.add_argument("--split", type=Path, default=precision.SPLIT)
    add_retracelint_option(parser)
    return parser.parse_args(argv)


def add_retracelint_option(parser: argparse.ArgumentParser) -> None:
    """``--retracelint CMD``: the command that runs retracelint."""
    parser.add_argument(
        "--retracelint",
        default=f"{shlex.quote(sys.executable)} -m retracelint",
        help="command that runs retracelint (default: this interpreter's)",
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    round_ = json.loads(args.round.read_text())
    split = precision.load_split(args.split)
    missing = [b["folder"] for b in round_["code_bases"] if not (args.root / b["folder"]).is_dir()]
    if missing:
        print(
            f"{args.root}: missing {', '.join(missing)} (check each out at its commit)",
            file=sys.stderr,
        )
        return 2
    found: list[Key] = []
    lines: dict[tuple[str, str], int] = {}
    try:
        for base in round_["code_bases"]:
            print(f"retracelint: {base['repo']} at {base['commit'][:10]}", file=sys.stderr)
            found += run_base(shlex.split(args.retracelint), args.root, base)
            counted = precision.count_lines(args.root, [base["folder"]], split)
            lines.update({(base["repo"], kind): n for (_, kind), n in counted.items()})
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 2
    print(report(score(round_, lines, split)))
    new, gone = differences(found, round_)
    for label, keys in (("new", new), ("gone", gone)):
        for repo, path, line, code in keys:
            print(f"{label}: {repo} {path}:{line} {code}")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
