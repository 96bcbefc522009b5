"""Run benchmarks/accuracy/run.py (check | verify | score) on this folder instead of programs/."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import run  # noqa: E402

run.PROGRAMS = Path(__file__).resolve().parent
run.RESULTS = run.PROGRAMS / "RESULTS.md"
run.OWN_SOURCES = True
run.OTHER_ROOTS = (run.HERE / "programs",)
sys.exit(run.main(sys.argv[1:]))
