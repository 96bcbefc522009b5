"""`retracelint confirm` never changes what the program computes: the example project prints exactly the same
with and without it (the report goes to a file, so stdout is the program's alone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "jax", reason="retracelint confirm needs jax (pip install 'retracelint[confirm]')"
)

ROOT = Path(__file__).parent.parent
# Faster XLA compiles; what JAX traces and what the program prints do not depend on it.
ENV = {**os.environ, "JAX_PLATFORMS": "cpu", "XLA_FLAGS": "--xla_backend_optimization_level=0"}


@pytest.mark.parametrize("project", ["examples", "examples_fixed"])
def test_outputs_are_identical_with_and_without_confirm(project: str, tmp_path: Path) -> None:
    program = [sys.executable, f"{project}/run.py"]
    plain = subprocess.run(program, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    report = tmp_path / "report.txt"
    confirm = [sys.executable, "-m", "retracelint", "confirm", "--guard", "all", "-o", str(report)]
    confirmed = subprocess.run(
        [*confirm, project, "--", *program],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert plain.returncode == 0, plain.stderr[-2000:]
    assert plain.stdout.strip()
    assert confirmed.stdout == plain.stdout
    assert report.read_text(encoding="utf-8").strip()
