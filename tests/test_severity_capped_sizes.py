"""An array whose sizes a loop changes, but only to counts every store keeps under a cap (a bond
dimension grown up to ``max_bond``: ``keep = min(max_bond, len(s))``, then ``chi = keep``), takes a
few shapes however long the run: each traced once, a warning (round 26 S1, an iDMRG sweep). A size
that grows without a cap is an error."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

_SWEEP = """\
import jax
import jax.numpy as jnp


@jax.jit
def matvec(theta):
    return theta * 2.0


def grow_bond(steps: int, max_bond: int = 16, d: int = 2):
    chi = 1
    for _ in range(steps):
        theta = jnp.zeros((chi, d, d, chi))
        theta = matvec(theta)
        s = jnp.linalg.svd(theta.reshape(chi * d, d * chi), compute_uv=False)
        keep = min(max_bond, len(s))
        chi = keep


def grow_without_cap(steps: int, d: int = 2):
    chi = 1
    for _ in range(steps):
        theta = jnp.zeros((chi, d, d, chi))
        matvec(theta)
        chi = chi * d
"""

_MAIN = """\
import sys

from sweep import grow_bond, grow_without_cap

if __name__ == "__main__":
    grow_bond(int(sys.argv[1]))
    grow_without_cap(int(sys.argv[1]))
"""


def test_sizes_kept_under_a_cap_are_bounded(tmp_path: Path) -> None:
    (tmp_path / "sweep.py").write_text(_SWEEP, encoding="utf-8")
    (tmp_path / "main.py").write_text(_MAIN, encoding="utf-8")
    run = analyse([str(tmp_path)], Settings(cache=False))
    found = {
        (Path(f.location.path).name, f.location.line, f.code): f.severity for f in run.findings
    }
    assert found == {
        ("sweep.py", 13, "RTL105"): "warning",
        ("sweep.py", 23, "RTL105"): "error",
    }
