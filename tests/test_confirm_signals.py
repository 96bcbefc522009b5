"""A program that floods stdout and then is killed by a signal: its output passes through whole, and the
report still says what was confirmed before the end, and how the program ended."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from limits import HANG_S

pytest.importorskip(
    "jax", reason="retracelint confirm needs jax (pip install 'retracelint[confirm]')"
)

PROGRAM = """\
import os, signal, sys
import jax, jax.numpy as jnp


@jax.jit
def double(x):
    return x * 2


for n in (2, 3):
    double(jnp.ones(n))
for i in range(200_000):
    print("line", i)
sys.stdout.flush()
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_flood_then_sigkill_keeps_the_output_and_the_report(tmp_path: Path) -> None:
    (tmp_path / "prog.py").write_text(PROGRAM, encoding="utf-8")
    report = tmp_path / "report.json"
    command = [
        sys.executable,
        "-m",
        "retracelint",
        "confirm",
        "--format",
        "json",
        "-o",
        str(report),
    ]
    done = subprocess.run(
        [*command, ".", "--", sys.executable, "prog.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_S,
    )
    assert done.stdout.count("\n") == 200_000
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["signal"] == "SIGKILL"
    assert [(f["code"], f["status"]) for f in data["findings"]] == [("RTL105", "confirmed")]
    assert done.returncode == 1  # a confirmed re-trace, whatever happened to the program afterwards
