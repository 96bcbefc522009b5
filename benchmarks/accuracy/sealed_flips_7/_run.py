"""Run benchmarks/accuracy/run.py (check | verify | score) on the seventh sealed round of signature flips.

Each report is re-created here twice, as a positive and as its fixed twin (a negative); no program
under ``programs/``, ``heldout/``, ``sealed_flips/`` or ``sealed_flips_2/`` .. ``sealed_flips_6/``
may cite it.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import run

HERE = Path(__file__).resolve().parent
run.PROGRAMS = HERE
run.RESULTS = HERE / "RESULTS.md"
run.OWN_SOURCES = False
# The other rounds whose reports this one must not re-create: the tuned set, the held-out set and the
# first six sealed rounds.
OTHER_ROUNDS = (
    "programs",
    "heldout",
    "sealed_flips",
    "sealed_flips_2",
    "sealed_flips_3",
    "sealed_flips_4",
    "sealed_flips_5",
    "sealed_flips_6",
)


def _cited_elsewhere(cases):
    """This round's programs whose report a program of another round re-creates."""
    cited = {
        source: f"{root}/{case.id}"
        for root in OTHER_ROUNDS
        for case in run.load_cases(run.HERE / root)
        for source in case.sources
    }
    return [f"{c.id}: {s} is also re-created by {cited[s]}" for c in cases for s in c.sources if s in cited]


def _one_pair_per_report(cases):
    by_source = {}
    for case in cases:
        for source in case.sources:
            by_source.setdefault(source, []).append(case.kind)
    return [
        f"{source} is re-created as {sorted(kinds)}, not as one positive and its fixed twin"
        for source, kinds in by_source.items()
        if sorted(kinds) != ["negative", "positive"]
    ]


run.shared_sources = lambda cases: _cited_elsewhere(cases) + _one_pair_per_report(cases)
sys.exit(run.main(sys.argv[1:]))
