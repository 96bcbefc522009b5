"""run.py's check | verify | score on one sealed round of signature flips (``sealed_flips*/``).

Each sealed round re-creates a public report twice, as a positive and as its fixed twin (a negative), and
a report belongs to one round: ``check`` fails for a round that re-creates a report the tuned programs,
the held-out programs or an earlier sealed round already cite. An earlier round wins, so a round never
starts failing because a later one cites the same report. Each round's ``_run.py`` calls ``main`` with
its own folder.
"""

import re
from collections.abc import Sequence
from pathlib import Path

import run

# Cited before any sealed round, whatever the order in which programs are added to them.
ALWAYS_EARLIER = ("programs", "heldout")
SEALED_ROUND = re.compile(r"sealed_flips(?:_(\d+))?")
# GitHub serves an issue and a pull request of one number at either address, so a report is its
# owner/repo#number, whatever the URL's spelling.
GITHUB_THREAD = re.compile(
    r"github\.com/([^/]+/[^/]+)/(?:issues|pull|discussions)/(\d+)", re.IGNORECASE
)


def round_number(folder: Path) -> int | None:
    """1 for ``sealed_flips``, N for ``sealed_flips_N``, None for a folder that is not a sealed round."""
    match = SEALED_ROUND.fullmatch(folder.name)
    if match is None:
        return None
    return int(match[1]) if match[1] else 1


def earlier_roots(here: Path) -> list[Path]:
    """The program folders whose reports the round in ``here`` must not re-create."""
    number = round_number(here)
    earlier = [
        folder
        for folder in here.parent.iterdir()
        if folder.is_dir() and (n := round_number(folder)) is not None and n < number
    ]
    return [here.parent / name for name in ALWAYS_EARLIER] + sorted(earlier, key=round_number)


def report(source: str) -> str:
    match = GITHUB_THREAD.search(source)
    return f"{match[1]}#{match[2]}".lower() if match else source.rstrip("/").lower()


def cited_earlier(cases: Sequence[run.Case], roots: Sequence[Path]) -> list[str]:
    """This round's programs whose report a program under ``roots`` re-creates."""
    cited = {
        report(source): f"{root.name}/{case.id}"
        for root in roots
        for case in run.load_cases(root)
        for source in case.sources
    }
    return [
        f"{case.id}: {source} is also re-created by {cited[report(source)]}"
        for case in cases
        for source in case.sources
        if report(source) in cited
    ]


def one_pair_per_report(cases: Sequence[run.Case]) -> list[str]:
    kinds_by_report: dict[str, list[str]] = {}
    for case in cases:
        for source in case.sources:
            kinds_by_report.setdefault(report(source), []).append(case.kind)
    return [
        f"{thread} is re-created as {sorted(kinds)}, not as one positive and its fixed twin"
        for thread, kinds in kinds_by_report.items()
        if sorted(kinds) != ["negative", "positive"]
    ]


def main(here: Path, argv: Sequence[str]) -> int:
    """run.py's command line on the round in ``here``, its RESULTS.md beside its programs."""
    run.PROGRAMS = here
    run.RESULTS = here / "RESULTS.md"
    run.OWN_SOURCES = False
    roots = earlier_roots(here)
    run.shared_sources = lambda cases: cited_earlier(cases, roots) + one_pair_per_report(cases)
    return run.main(argv)
