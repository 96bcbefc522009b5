"""The same tree gives byte-identical findings whatever the hash seed and the number of processes
(issue 36): sets of strings iterate in an order that follows ``PYTHONHASHSEED``, and summaries made by
workers come back unpickled, so every choice a set's order could decide (which context of several is
reported, which of several call paths is shown) is made in the order of the source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from limits import HANG_S

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# Projects of several modules and classes, with RTL405 (a jitted loss called under three stacked
# contexts and outside them), flips, rebuilt jits (some returned jitted or not by a factory), shapes
# and statics: together more files than the workers start for (engine._PARALLEL_MIN_FILES), so -j2
# summarises some of them in other processes.
PARTS = {
    "examples": ROOT / "examples",
    "contexts": FIXTURES / "trace_contexts_stacked_around_evaluation",
    "flips": FIXTURES / "flips_traced_back",
    "holders": FIXTURES / "static_holders_rebuilt",
    "sweeps": FIXTURES / "rtl405_trace_context_flips.py",
    # Factories returning `jax.jit(f)` or `f` by their argument: which return the linker followed
    # first was left to the hash seed.
    "factories": FIXTURES / "factories_jitted_by_their_argument",
    # A None kept unless a proposal wins, returned from another module: the loop walked twice words
    # the flip two ways at one place, and which wording (and route) was found first followed the
    # hash seed (round 12's BOBE `optim.py:126`).
    "proposals": FIXTURES / "none_unless_a_proposal_wins",
}
CLI = [sys.executable, "-I", "-m", "retracelint", "--no-cache", "--isolated"]
RUNS = [("1", "1"), ("2", "2"), ("3", "1"), ("4", "2"), ("1", "2")]  # (PYTHONHASHSEED, -j)
# The analyser with each dataclass it defines hashed with a salt (the first argument): a set of its
# facts iterates in a new order for each salt, as a set of ones holding None (``RetDep(item=None)``)
# does from process to process on CPython 3.11, where ``hash(None)`` is an address that address-space
# randomisation moves, whatever ``PYTHONHASHSEED`` is. Salted as each class is made, so the sets the
# modules build as they load are hashed the same way as the rest.
SALTED = """
import dataclasses, sys
salt = int(sys.argv.pop(1))
made = dataclasses.dataclass
def salted(cls=None, /, **options):
    def make(c):
        c = made(c, **options)
        own = c.__dict__.get("__hash__")
        if own is not None:
            c.__hash__ = lambda self, own=own: hash((salt, own(self)))
        return c
    return make if cls is None else make(cls)
dataclasses.dataclass = salted
from retracelint.cli import main
sys.argv[0] = "retracelint"
main()
"""


def _project(root: Path) -> Path:
    for name, source in PARTS.items():
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (root / name).mkdir()
            shutil.copy(source, root / name / source.name)
    return root


def _findings(project: Path, seed: str, jobs: str, salt: int | None = None) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    cli = CLI if salt is None else [sys.executable, "-I", "-c", SALTED, str(salt), *CLI[4:]]
    proc = subprocess.run(
        [*cli, "--format", "json", "-j", jobs, "."],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    return proc.stdout


def test_findings_are_byte_identical_under_hash_seeds_and_job_counts(tmp_path: Path) -> None:
    project = _project(tmp_path)
    assert len(list(project.rglob("*.py"))) >= 24
    outputs = {run: _findings(project, *run) for run in RUNS}
    first = outputs[RUNS[0]]
    assert all(out == first for out in outputs.values()), [
        run for run, out in outputs.items() if out != first
    ]
    found = json.loads(first)
    assert len({f["code"] for f in found}) >= 6
    contexts = [(f["path"], f["line"], f["col"]) for f in found if f["path"].startswith("contexts")]
    # The outermost of the three contexts the evaluation is under and the training is not.
    assert contexts == [(os.path.join("contexts", "evaluation.py"), 10, 10)]
    flips = [(f["path"], f["line"], f["code"]) for f in found if f["path"].startswith("proposals")]
    assert flips == [(os.path.join("proposals", "proposals.py"), 16, "RTL403")]


def test_findings_do_not_follow_the_order_of_sets_under_one_hash_seed(tmp_path: Path) -> None:
    """Runs under one ``PYTHONHASHSEED`` differ in the hashes of None and of what holds it (each
    process is laid out anew), and salted runs in those of every fact the analysis keeps in sets:
    neither may change a byte of the findings (which cause of a None flip is told first, and so its
    route and message; which dependency decides a value's kind). Round 12's BOBE gave 90 or 91
    routes for one RTL403 between plain runs of one seed."""
    project = _project(tmp_path)
    plain = [_findings(project, "0", "1") for _ in range(2)]
    salted = [_findings(project, "0", "1", salt) for salt in (1, 2, 3)]
    assert all(out == plain[0] for out in [*plain, *salted]), [
        out == plain[0] for out in [*plain, *salted]
    ]
