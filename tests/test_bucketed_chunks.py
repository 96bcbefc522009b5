"""A batch padded up to a power-of-two bucket and walked in chunks of a power-of-two bucket has no
short last chunk: the smaller power of two divides the larger (or one chunk takes the whole batch).
Fresh round 16, multifil_jax ``simulation.py:1088`` (RTL103): a library that snaps its minibatch to
a bucket so that chunks divide evenly. A chunk of any other size over the same padded batch still
leaves a short one (checked with JAX 0.10.2: the snapped run traces its kernel once, the unsnapped
one twice, for chunks of 5 and 2). Only a name bound once is read: a chunk that a branch may set to
the padded size is otherwise the minibatch, of any size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_KERNEL = """\
import jax
import jax.numpy as jnp


@jax.jit
def simulate(geometry, z):
    return jnp.cumsum(z[:, None] * geometry["spacing"], axis=1)
"""

_SIMULATION = """\
import math

import jax.numpy as jnp

from muscle.kernel import simulate

# Batch sizes are padded up to one of these, so that sweeps of near sizes share one compile.
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def _pad(z, n):
    return jnp.concatenate([z, jnp.broadcast_to(z[:1], (n - z.shape[0],))])


def run(geometry, z_lines, replicates=3, minibatch=None):
    total = len(z_lines) * 2 * replicates
    padded = PADDED
    z = _pad(jnp.asarray(z_lines * 2 * replicates, jnp.float32), padded)
    # Snap the minibatch to a bucket: a power of two divides the padded batch.
    valid = [b for b in BATCH_BUCKETS if b <= (minibatch or padded)]
    chunk = max(valid) if minibatch is not None else padded
    out = []
    for start in range(0, padded, chunk):
        out.append(simulate(geometry, z[start : start + chunk]))
    return jnp.concatenate(out)[:total]


def run_unsnapped(geometry, z_lines, replicates=3, minibatch=5):
    total = len(z_lines) * 2 * replicates
    padded = PADDED
    z = _pad(jnp.asarray(z_lines * 2 * replicates, jnp.float32), padded)
    chunk = minibatch
    if not minibatch:
        chunk = padded
    out = []
    for start in range(0, padded, chunk):
        out.append(simulate(geometry, z[start : start + chunk]))
    return jnp.concatenate(out)[:total]
"""

_GEOMETRIES = """\
import jax.numpy as jnp

from muscle.simulation import run

PRESETS = {
    "vertebrate": ({"spacing": jnp.linspace(0.0, 1.0, 8)}, [2.1, 2.3, 2.5, 2.7]),
    "insect": ({"spacing": jnp.linspace(0.0, 2.0, 8)}, [2.4, 2.6, 2.8, 3.0]),
}
for name, (geometry, z_lines) in PRESETS.items():
    print(name, run(geometry, z_lines, minibatch=6).shape)
"""

_UNSNAPPED = """\
import jax.numpy as jnp

from muscle.simulation import run_unsnapped

geometry = {"spacing": jnp.linspace(0.0, 1.0, 8)}
for z0 in (2.1, 2.4):
    print(run_unsnapped(geometry, [z0, z0 + 0.2, z0 + 0.4, z0 + 0.6]).shape)
"""


@pytest.mark.parametrize(
    "padded",
    [
        "next(b for b in BATCH_BUCKETS if b >= total)",
        "2 ** math.ceil(math.log2(total))",
    ],
)
def test_chunks_of_a_bucket_over_a_bucket_are_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, padded: str
) -> None:
    texts = {
        "pyproject.toml": "",
        "muscle/__init__.py": "",
        "muscle/kernel.py": _KERNEL,
        "muscle/simulation.py": _SIMULATION.replace("PADDED", padded),
        "examples/geometries.py": _GEOMETRIES,
        "examples/unsnapped.py": _UNSNAPPED,
    }
    for name, text in texts.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = ["--no-cache", "--confidence", "all", "--format", "json", "."]
    found = json.loads(CliRunner().invoke(main, args).stdout)
    assert [(f["path"], f["line"], f["code"], f["message"]) for f in found] == [
        (
            "muscle/simulation.py",
            37,
            "RTL103",
            "last chunk z[start : start + chunk] can be shorter, so jitted 'simulate' re-traces;"
            " drop or pad it",
        ),
    ]
