"""flake8's own command line, as the tests run it: in a process of its own where that process is what
is tested (its worker processes, its standard input, which flake8 reads once per process), else in the
test's process (``flake8_here``), which spares a second of start-up per run."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

OPTIONS = ["--isolated"]  # no user or project flake8 configuration
FLAKE8 = [sys.executable, "-m", "flake8", *OPTIONS]


def flake8_here(args: list[str], cwd: Path) -> tuple[int, str]:
    """The exit status and report of flake8 run from ``cwd`` in this process: serially (``-j 1``: no
    worker processes), its report written where ``--output-file`` says."""
    from flake8.main.cli import main

    with tempfile.TemporaryDirectory() as out, pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        report = Path(out) / "flake8.txt"
        code = main([*OPTIONS, "-j", "1", "--output-file", str(report), *args])
        return code, report.read_text(encoding="utf-8") if report.exists() else ""
