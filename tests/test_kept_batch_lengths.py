"""Batches whose length cannot change. Fresh round 30, attract-jax's docking scripts (RTL101 x4): the
last batch is moved back to keep its length (``start, end = offset, offset + BATCH; if end > n: end =
n; start = end - BATCH; if start < 0: start = 0``), so every slice has ``BATCH`` rows; and
``test-energy.py`` (RTL103): an array cut to 2 rows (``x = x[:2]``) walked in chunks of 100 is one
chunk. Kept: the last batch clamped without moving back, a sliding window that starts short, and a
cut longer than one chunk that leaves a remainder (checked with JAX 0.10.2: moved back, 1 trace over
100 rows in batches of 32; clamped, 2; a cut to 2 rows in chunks of 100, 1; a cut to 250, 2)."""

from __future__ import annotations

from pathlib import Path

from project_runs import findings_in

_ENERGY = """\
import jax
import jax.numpy as jnp


@jax.jit
def pose_energy(mats, coords):
    return jnp.einsum("bij,kj->bki", mats, coords).sum(axis=(1, 2))


@jax.jit
def total_energy(coords):
    return jnp.sum(coords**2, axis=(1, 2))
"""

_SCORING = """\
import numpy as np

from docking.energy import pose_energy

BATCH = 32


def score_moved_back(mats, coords):
    energies = np.zeros(len(mats))
    for offset in range(0, len(mats), BATCH):
        start, end = offset, offset + BATCH
        if end > len(mats):
            end = len(mats)
            start = end - BATCH
            if start < 0:
                start = 0
        batch = mats[start:end]
        energies[start:end] = pose_energy(batch, coords)
    return energies


def score_clamped_back(mats, coords):
    out = []
    for start in range(0, len(mats), BATCH):
        end = min(start + BATCH, len(mats))
        start = max(0, end - BATCH)
        out.append(pose_energy(mats[start:end], coords))
    return out


def score_whole_batches(mats, coords):
    out = []
    for offset in range(0, len(mats), BATCH):
        start, end = offset, offset + BATCH
        if end > len(mats):
            break
        out.append(pose_energy(mats[start:end], coords))
    return out


def score_clamped(mats, coords):
    out = []
    for start in range(0, len(mats), BATCH):
        end = min(start + BATCH, len(mats))
        out.append(pose_energy(mats[start:end], coords))
    return out


def score_window(mats, coords, width):
    return [pose_energy(mats[max(0, t - width) : t], coords) for t in range(1, len(mats))]
"""

_REPORT = """\
from docking.energy import total_energy

CHUNKSIZE = 100


def report(all_coords, keep):
    all_coords = all_coords[:KEEP]
    for pos in range(0, len(all_coords), CHUNKSIZE):
        for e in total_energy(all_coords[pos : pos + CHUNKSIZE]):
            print(float(e))
"""

_RUN = """\
import jax.numpy as jnp

from docking import report, scoring

mats, coords = jnp.ones((100, 3, 3)), jnp.ones((7, 3))
for score in (
    scoring.score_moved_back,
    scoring.score_clamped_back,
    scoring.score_whole_batches,
    scoring.score_clamped,
):
    score(mats, coords)
scoring.score_window(mats, coords, 8)
report.report(jnp.ones((400, 5, 3)), 2)
"""


def _findings(root: Path, keep: str) -> list[tuple]:
    texts = {
        "pyproject.toml": "",
        "docking/__init__.py": "",
        "docking/energy.py": _ENERGY,
        "docking/scoring.py": _SCORING,
        "docking/report.py": _REPORT.replace("KEEP", keep),
        "run.py": _RUN,
    }
    found = findings_in(root, texts)
    return [(f["path"], f["line"], f["code"], f["message"]) for f in found]


def test_batches_moved_back_to_keep_their_length_and_one_chunk_are_not_reported(
    tmp_path: Path,
) -> None:
    assert _findings(tmp_path, "2") == [
        (
            "docking/scoring.py",
            45,
            "RTL103",
            "last chunk mats[start:end] can be shorter, so jitted 'pose_energy' re-traces;"
            " drop or pad it",
        ),
        (
            "docking/scoring.py",
            50,
            "RTL101",
            "slice mats[max(0, t - width) : t] changes shape in the loop at line 50, so jitted"
            " 'pose_energy' re-traces; pad or bucket it",
        ),
    ]


def test_a_cut_longer_than_one_chunk_keeps_its_short_last_chunk(tmp_path: Path) -> None:
    found = _findings(tmp_path, "250")
    assert (
        "docking/report.py",
        9,
        "RTL103",
        "last chunk all_coords[pos : pos + CHUNKSIZE] can be shorter, so jitted 'total_energy'"
        " re-traces; drop or pad it",
    ) in found
    assert len(found) == 3
