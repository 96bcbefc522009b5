"""Run benchmarks/accuracy/run.py (check | verify | score) on the tenth sealed round of signature flips.

Each report is re-created here twice, as a positive and as its fixed twin (a negative); no program
under ``programs/``, ``heldout/``, ``sealed_flips/`` or ``sealed_flips_2/`` .. ``sealed_flips_9/``
may cite it.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import run

HERE = Path(__file__).resolve().parent
run.PROGRAMS = HERE
run.RESULTS = HERE / "RESULTS.md"
run.OWN_SOURCES = False
# The other rounds whose reports this one must not re-create: the tuned set, the held-out set and the
# first nine sealed rounds.
OTHER_ROUNDS = (
    "programs",
    "heldout",
    "sealed_flips",
    "sealed_flips_2",
    "sealed_flips_3",
    "sealed_flips_4",
    "sealed_flips_5",
    "sealed_flips_6",
    "sealed_flips_7",
    "sealed_flips_8",
    "sealed_flips_9",
)
# GitHub serves an issue and a pull request of one number at either address, so a report is its
# owner/repo#number, whatever the URL's spelling.
GITHUB_THREAD = re.compile(r"github\.com/([^/]+/[^/]+)/(?:issues|pull|discussions)/(\d+)", re.IGNORECASE)


def _report(source):
    match = GITHUB_THREAD.search(source)
    return f"{match[1]}#{match[2]}".lower() if match else source.rstrip("/").lower()


def _cited_elsewhere(cases):
    """This round's programs whose report a program of another round re-creates."""
    cited = {
        _report(source): f"{root}/{case.id}"
        for root in OTHER_ROUNDS
        for case in run.load_cases(run.HERE / root)
        for source in case.sources
    }
    return [
        f"{c.id}: {s} is also re-created by {cited[_report(s)]}"
        for c in cases
        for s in c.sources
        if _report(s) in cited
    ]


def _one_pair_per_report(cases):
    by_report = {}
    for case in cases:
        for source in case.sources:
            by_report.setdefault(_report(source), []).append(case.kind)
    return [
        f"{report} is re-created as {sorted(kinds)}, not as one positive and its fixed twin"
        for report, kinds in by_report.items()
        if sorted(kinds) != ["negative", "positive"]
    ]


run.shared_sources = lambda cases: _cited_elsewhere(cases) + _one_pair_per_report(cases)
sys.exit(run.main(sys.argv[1:]))
