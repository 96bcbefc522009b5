"""Metamorphic variants of the accuracy programs (issue 39): does a finding survive a refactoring?

Usage:
    python benchmarks/metamorphic/run.py [--programs GLOB] [--transforms A,B] [-j N]
                                         [--out DIR] [--results FILE]

Each accuracy program (tuned ``programs/<id>`` and held-out ``heldout/<id>``; GLOB matches those paths,
relative to benchmarks/accuracy) is rewritten by each transform of ``transforms.py`` into a variant that
should do the same thing. JAX checks it: a variant is kept only when every jitted function traces exactly
as often as the original's case.toml says (the accuracy benchmark's ``verify``); the others are dropped
and counted. retracelint then runs on every kept variant and the accuracy benchmark's scorer classifies
it against the variant's own ``# expect:`` markers (comments travel with the code they mark).

The report: of the variants of positives retracelint finds in their original form, the share still
found (per transform and overall); false alarms on variants of negatives. Written to RESULTS.md.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ACCURACY = HERE.parent / "accuracy"
sys.path.insert(0, str(HERE))


def _load_accuracy():
    """benchmarks/accuracy/run.py, under a name of its own (this file is `run` too)."""
    spec = importlib.util.spec_from_file_location("accuracy_run", ACCURACY / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy()
import transforms  # noqa: E402

ROOTS = {
    "programs": ACCURACY / "programs",
    "heldout": ACCURACY / "heldout",
    "sealed_flips": ACCURACY / "sealed_flips",  # tuned on since issue 39's second branch
    "sealed_flips_2": ACCURACY / "sealed_flips_2",  # tuned on since its first score (flips39c)
    "sealed_flips_3": ACCURACY / "sealed_flips_3",  # tuned on since its first score (flips39d)
    "sealed_flips_4": ACCURACY / "sealed_flips_4",  # tuned on since its first score (flips39f/g)
    "sealed_flips_5": ACCURACY / "sealed_flips_5",  # tuned on since its first score (flips39h)
    "sealed_flips_6": ACCURACY / "sealed_flips_6",  # tuned on since its first score (flips39i/j)
    "sealed_flips_7": ACCURACY / "sealed_flips_7",  # read since its first score (flips39l)
    "sealed_flips_8": ACCURACY / "sealed_flips_8",  # read since its first score (flips39l)
}


@dataclass
class Variant:
    """One program rewritten by one transform, and what became of it."""

    transform: str
    original: accuracy.Case
    case: accuracy.Case | None = None  # None: the transform declined
    dropped: str | None = None  # why JAX's verdict differs from the original's
    score: accuracy.Score | None = None


def select(pattern: str, category: str = "") -> list[accuracy.Case]:
    """The accuracy programs whose `<root>/<id>` path matches the glob (and of ``category``, when
    given), tuned first."""
    cases = []
    for root_name, root in ROOTS.items():
        for case in accuracy.load_cases(root):
            if fnmatch.fnmatch(f"{root_name}/{case.id}", pattern) and category in (
                "",
                case.category,
            ):
                cases.append(case)
    return cases


def program_of(folder: Path) -> transforms.Program:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*.py"))
    }


def make_variant(case: accuracy.Case, name: str, out: Path) -> Variant:
    """Write the variant's folder (a copy of the program with its files rewritten) and load it."""
    rewritten = transforms.apply(name, program_of(case.folder))
    if rewritten is None:
        return Variant(name, case)
    folder = out / name / case.folder.parent.name / case.id
    if folder.exists():
        shutil.rmtree(folder)
    # Not the hidden caches a run of retracelint inside the program leaves there (gigabytes once
    # copied into every variant).
    shutil.copytree(case.folder, folder, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    for path, source in rewritten.items():
        (folder / path).write_text(source, encoding="utf-8")
    return Variant(name, case, accuracy.load_case(folder))


def verify(variants: Sequence[Variant], jobs: int, known: dict[str, str]) -> None:
    """JAX runs every variant; one whose trace counts differ from the original's is dropped.

    The accuracy benchmark's ``verify`` tells programs apart by id, so one call gets the variants of
    one transform only (ids are unique there); each transform's share is split over ``jobs`` calls.
    ``known``: JAX's verdicts of earlier runs by the variant's content (``_digest``; "" when it
    traced as its case says), read and added to: the same variant is not run again.
    """
    chunks = []
    for name in dict.fromkeys(v.transform for v in variants):
        made = [v for v in variants if v.transform == name and v.case is not None]
        for v in made:
            v.dropped = known.get(_digest(v), "") or None
        made = [v for v in made if _digest(v) not in known]
        chunks += [made[i::jobs] for i in range(jobs) if made[i::jobs]]

    def one(chunk: list[Variant]) -> None:
        for variant, verdict in zip(chunk, accuracy.verify([v.case for v in chunk]), strict=True):
            if not verdict.ok:
                variant.dropped = verdict.problem.splitlines()[0][:200]
            known[_digest(variant)] = variant.dropped or ""

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, chunks))


def _digest(variant: Variant) -> str:
    """The variant's content: its transform, its program's path and every file of its folder."""
    assert variant.case is not None
    original = variant.original.folder
    named = f"{variant.transform}/{original.parent.name}/{original.name}".encode()
    return accuracy.program_digest(variant.case.folder, named)


@dataclass
class Row:
    """One transform's (or all transforms') figures."""

    made: int = 0
    kept: int = 0
    dropped: int = 0
    found_variants: int = 0  # kept variants of positives found in their original form
    still_found: int = 0
    negative_variants: int = 0
    false_alarms: int = 0

    def add(self, v: Variant, found_originally: bool) -> None:
        if v.case is None:
            return
        self.made += 1
        if v.dropped:
            self.dropped += 1
            return
        self.kept += 1
        if v.original.kind == "negative":
            self.negative_variants += 1
            self.false_alarms += v.score.outcome == accuracy.FALSE_ALARM
        elif found_originally:
            self.found_variants += 1
            self.still_found += v.score.outcome == accuracy.FOUND


def _changed(v: Variant, originals: dict[Path, accuracy.Score]) -> bool:
    """A kept variant of a found positive that is no longer found, or of a negative that has findings."""
    if v.score is None:  # declined or dropped
        return False
    if v.original.kind == "negative":
        return bool(v.score.findings)
    return (
        originals[v.original.folder].outcome == accuracy.FOUND and v.score.outcome != accuracy.FOUND
    )


def render(
    cases: Sequence[accuracy.Case],
    originals: dict[Path, accuracy.Score],
    variants: Sequence[Variant],
    header: str,
    pattern: str,
) -> str:
    rows: dict[str, Row] = {}
    overall = Row()
    for v in variants:
        found = originals[v.original.folder].outcome == accuracy.FOUND
        rows.setdefault(v.transform, Row()).add(v, found)
        overall.add(v, found)
    kinds = Counter(c.kind for c in cases)
    found_orig = sum(s.outcome == accuracy.FOUND for s in originals.values())
    lines = [
        "# Metamorphic variants: results",
        "",
        "Generated by `python benchmarks/metamorphic/run.py`; do not edit by hand.",
        "",
        header,
        "",
        f"Programs: `{pattern}`: {len(cases)} ({kinds['positive']} positive, {kinds['negative']} "
        f"negative); {found_orig} of the positives found in their original form.",
        "",
        f"- **variants of found positives still found: {overall.still_found} / "
        f"{overall.found_variants} ({accuracy._pct(overall.still_found, overall.found_variants)})**"
        " (target 90 %)",
        f"- **false alarms on variants of negatives: {overall.false_alarms} / "
        f"{overall.negative_variants}** (target 0)",
        f"- variants made {overall.made}, kept by JAX {overall.kept}, dropped {overall.dropped}",
        "",
        "| transform | made | dropped by JAX | variants of found positives | still found | found % |"
        " negative variants | false alarms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in [*rows.items(), ("**all**", overall)]:
        lines.append(
            f"| {name} | {r.made} | {r.dropped} | {r.found_variants} | {r.still_found} | "
            f"{accuracy._pct(r.still_found, r.found_variants)} | {r.negative_variants} | "
            f"{r.false_alarms} |"
        )
    lost = [v for v in variants if _changed(v, originals)]
    lines += ["", "## Variants whose outcome changed", ""]
    lines += [
        f"- `{v.transform}` / `{v.original.folder.parent.name}/{v.original.id}`: {v.score.outcome}; "
        f"expected {accuracy._cell(str(mk) for mk in sorted(v.case.markers))}, reported "
        f"{accuracy._cell(str(f.key) for f in v.score.findings)}"
        for v in lost
    ] or ["- none"]
    dropped = [v for v in variants if v.dropped]
    lines += ["", "## Variants JAX dropped (they do not trace as the original does)", ""]
    lines += [
        f"- `{v.transform}` / `{v.original.folder.parent.name}/{v.original.id}`: {v.dropped}"
        for v in dropped
    ] or ["- none"]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--programs",
        default="*/*",
        help="glob over programs/<id>, heldout/<id>, sealed_flips/<id>, sealed_flips_2/<id>, "
        "sealed_flips_3/<id>, ... sealed_flips_8/<id>",
    )
    parser.add_argument("--transforms", default=",".join(transforms.TRANSFORMS))
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="JAX and retracelint runs at once"
    )
    parser.add_argument("--out", type=Path, default=HERE.parents[1] / ".bench" / "metamorphic")
    parser.add_argument("--results", type=Path, default=HERE / "RESULTS.md")
    parser.add_argument("--retracelint", default="", help="command that runs retracelint")
    parser.add_argument("--category", default="", help="only the programs of this category")
    parser.add_argument(
        "--verdicts",
        type=Path,
        help="JSON file of JAX's verdicts on variants, read and updated: a variant run before"
        " (the same files) is not run again, so that two versions of retracelint can be scored"
        " on the same variants at the cost of one JAX run",
    )
    args = parser.parse_args(argv)
    names = [n for n in args.transforms.split(",") if n]
    unknown = [n for n in names if n not in transforms.TRANSFORMS]
    if unknown:
        print(f"unknown transform(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    try:
        cases = select(args.programs, args.category)
    except accuracy.CaseError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not cases:
        print(f"no program matches {args.programs!r}", file=sys.stderr)
        return 2
    command = args.retracelint.split() if args.retracelint else accuracy.default_retracelint()
    scores = accuracy.score(cases, command, args.jobs)
    originals = {c.folder: s for c, s in zip(cases, scores, strict=True)}
    variants = [make_variant(c, n, args.out) for n in names for c in cases]
    known = (
        json.loads(args.verdicts.read_text()) if args.verdicts and args.verdicts.exists() else {}
    )
    verify(variants, max(1, args.jobs), known)
    if args.verdicts:
        args.verdicts.write_text(json.dumps(known, indent=0, sort_keys=True), encoding="utf-8")
    kept = [v for v in variants if v.case is not None and not v.dropped]
    for v, s in zip(kept, accuracy.score([v.case for v in kept], command, args.jobs), strict=True):
        v.score = s
    text = render(cases, originals, variants, accuracy._header(command), args.programs)
    args.results.write_text(text, encoding="utf-8")
    print(text.split("\n## ")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
