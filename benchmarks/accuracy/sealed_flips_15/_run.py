"""Run benchmarks/accuracy/run.py (check | verify | score) on this sealed round of signature flips.

The rules every sealed round follows (which reports it may re-create, where its RESULTS.md goes) are in
``../sealed.py``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import sealed  # noqa: E402

sys.exit(sealed.main(Path(__file__).resolve().parent, sys.argv[1:]))
