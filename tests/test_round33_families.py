"""Round 33's false families (issue 36): a change told again upstream of the cut the jit sees (F9),
on realistic code split across modules. Each false shape is checked gone and a true twin of the
same family kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _findings(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[dict]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, "."])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _where(found: list[dict]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in found]


# F9: the boxes a mask selects are cut into fixed chunks of 1000 with a short last one; the jit
# sees the chunk, and padding it removes the mask's re-traces too.
_BOXES = """\
import jax
import numpy as np


@jax.jit
def shift_grid(grid, lows, highs):
    return grid[None] * (highs - lows)[:, None] / 2 + ((lows + highs) / 2)[:, None]


def chunks(n, size):
    starts = np.arange(int(np.ceil(n / size))) * size
    return starts, np.minimum(starts + size, n)


def refine(grid, lows, highs):
    starts, ends = chunks(len(lows), 1000)
    return np.vstack([shift_grid(grid, lows[i:j], highs[i:j]) for i, j in zip(starts, ends)])
"""

_VERIFY = """\
import jax
import jax.numpy as jnp
import numpy as np

from refine.boxes import refine


@jax.jit
def worst(values):
    return jnp.max(jnp.abs(values))


def check(grid, centers, values, report):
    bad = centers[values > 1.0]
    if report:
        print(worst(bad))
    return refine(grid, bad - 0.01, bad + 0.01)


grid = np.random.rand(9, 2).astype(np.float32)
for step in range(50):
    centers = np.random.rand(5000, 2).astype(np.float32)
    check(grid, centers, np.random.randn(5000), report=False)
"""


@pytest.fixture
def refinement(tmp_path: Path) -> Path:
    _write(tmp_path, {"refine/__init__.py": "", "refine/boxes.py": _BOXES, "verify.py": _VERIFY})
    return tmp_path


def test_a_mask_cut_into_chunks_is_told_once_at_the_chunk(
    refinement: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _findings(refinement, monkeypatch)
    assert _where(found) == [("refine/boxes.py", 17, "RTL101")]
    (chunk,) = found
    assert chunk["severity"] == "error"
    assert chunk["message"].endswith("(fed by verify.py:14)")
    assert [(r["path"], r["line"], r["code"]) for r in chunk["related"]] == [
        ("refine/boxes.py", 17, "RTL101"),
        ("verify.py", 14, "RTL104"),
    ]
    assert any(d.startswith("feeds this cut: verify.py:14: RTL104") for d in chunk["details"])
    # selected alone, the mask is shown: the fold comes after selection
    assert _where(_findings(refinement, monkeypatch, "--select", "RTL104")) == [
        ("verify.py", 14, "RTL104")
    ]


def test_a_mask_the_jit_sees_whole_stays_its_own_finding(
    refinement: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(refinement, {"verify.py": _VERIFY.replace("report=False", "report=True")})
    found = _findings(refinement, monkeypatch)
    assert _where(found) == [
        ("refine/boxes.py", 17, "RTL101"),
        ("verify.py", 14, "RTL104"),
    ]
    assert "jitted 'worst' re-traces" in found[1]["message"]


# F2: a pool that keeps a fraction of its rows and draws the rest anew, up to a fixed capacity: its
# length is the capacity after each refresh, whatever the fraction.
_LEARNER = """\
from functools import partial

import jax
import jax.numpy as jnp


class Learner:
    def __init__(self, batch):
        self.batch = batch

    @partial(jax.jit, static_argnums=(0,))
    def train_step(self, key, params, examples):
        picked = jax.random.choice(key, examples, shape=(self.batch,))
        return params - 0.01 * jnp.mean(picked)
"""

_POOL = """\
import numpy as np


class CounterexamplePool:
    def __init__(self, width, capacity):
        self.capacity = capacity
        self.rows = np.zeros((capacity, width), dtype=np.float32)

    def refresh(self, fraction, fresh):
        n_keep = int((1 - fraction) * len(self.rows))
        n_new = int(self.capacity - n_keep)
        keep = np.random.choice(len(self.rows), n_keep, replace=False)
        new = np.random.choice(len(fresh), n_new, replace=n_new > len(fresh))
        self.rows = np.vstack((self.rows[keep], fresh[new]))
"""

_CEGIS = """\
import jax
import numpy as np

from cegis.learner import Learner
from cegis.pool import CounterexamplePool

learner = Learner(batch=16)
pool = CounterexamplePool(width=3, capacity=256)
params = np.float32(0.0)
key = jax.random.key(0)
for it in range(20):
    for _ in range(10):
        key, sub = jax.random.split(key)
        params = learner.train_step(sub, params, pool.rows)
    fresh = np.random.randn(100 + it * 7, 3).astype(np.float32)
    pool.refresh(0.25 + it / 100, fresh)
"""


@pytest.fixture
def cegis(tmp_path: Path) -> Path:
    _write(
        tmp_path,
        {
            "cegis/__init__.py": "",
            "cegis/learner.py": _LEARNER,
            "cegis/pool.py": _POOL,
            "run.py": _CEGIS,
        },
    )
    return tmp_path


def test_kept_and_new_rows_that_fill_a_capacity_keep_one_length(
    cegis: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _findings(cegis, monkeypatch, "--confidence", "all") == []


def test_kept_rows_and_all_new_ones_still_change_the_length(
    cegis: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every new row kept: ``k + len(fresh)`` rows, no total they add up to."""
    _write(cegis, {"cegis/pool.py": _POOL.replace("self.capacity - n_keep", "len(fresh)")})
    found = _findings(cegis, monkeypatch)
    assert _where(found) == [("cegis/pool.py", 12, "RTL105")]
    assert "jitted 'train_step' re-traces" in found[0]["message"]


# F7: a DataLoader without drop_last over a data set whose length is a multiple of its batch size.
_MOLECULES = """\
import numpy as np
from torch.utils.data import DataLoader, Dataset


class Molecules(Dataset):
    def __init__(self, n):
        self.x = np.random.randn(n, 16).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i]


def loaders(batch_size):
    full = Molecules(130_000)
    train = [full[i] for i in range(100_000)]
    return DataLoader(train, batch_size=batch_size, shuffle=True, collate_fn=np.stack)
"""

_ENERGY = """\
import jax
import jax.numpy as jnp

from molecules.data import loaders

BATCH = 32


@jax.jit
def update(w, batch):
    grad = jax.grad(lambda w: jnp.mean((batch @ w) ** 2))(w)
    return w - 1e-3 * grad


w = jnp.ones(16)
for epoch in range(3):
    for batch in loaders(BATCH):
        w = update(w, batch)
"""


@pytest.fixture
def molecules(tmp_path: Path) -> Path:
    _write(
        tmp_path,
        {"molecules/__init__.py": "", "molecules/data.py": _MOLECULES, "train_energy.py": _ENERGY},
    )
    return tmp_path


def test_batches_that_divide_the_data_set_are_all_full(
    molecules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _findings(molecules, monkeypatch, "--confidence", "all") == []


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [
        ("train_energy.py", "BATCH = 32", "BATCH = 48"),  # 100 000 = 2083 x 48 + 16
        ("molecules/data.py", "range(100_000)", "range(len(full) - 7)"),  # a length not known
    ],
)
def test_a_batch_size_that_leaves_a_remainder_keeps_the_short_batch(
    molecules: Path, monkeypatch: pytest.MonkeyPatch, where: str, old: str, new: str
) -> None:
    text = {"train_energy.py": _ENERGY, "molecules/data.py": _MOLECULES}[where]
    _write(molecules, {where: text.replace(old, new)})
    found = _findings(molecules, monkeypatch)
    assert _where(found) == [("molecules/data.py", 19, "RTL103")]
    assert found[0]["message"].startswith("last chunk DataLoader without drop_last=True")


# F4: one frame taken from the frames of a ring of cells whose length changes per edge.
_FRAMES = """\
import jax
import jax.numpy as jnp


@jax.jit
def align_frame(ref, other):
    scores = jnp.abs(ref.T @ other)
    order = jnp.argmax(scores, axis=1)
    return other[:, order]
"""

_COMB = """\
import numpy as np

from mesh.frames import align_frame


def comb_around_edges(frames, edge_cells, offsets, edges):
    for e in edges:
        ring = edge_cells[offsets[e]:offsets[e + 1]]
        for k in range(1, len(ring)):
            frames[ring[k]] = align_frame(frames[ring][k - 1], frames[ring][k])
    return frames


rng = np.random.default_rng(0)
frames = rng.normal(size=(50, 3, 3)).astype(np.float32)
sizes = rng.integers(2, 7, size=20)
offsets = np.concatenate([[0], np.cumsum(sizes)])
edge_cells = rng.integers(0, 50, size=offsets[-1])
comb_around_edges(frames, edge_cells, offsets, np.arange(20))
"""


@pytest.fixture
def mesh(tmp_path: Path) -> Path:
    _write(tmp_path, {"mesh/__init__.py": "", "mesh/frames.py": _FRAMES, "comb.py": _COMB})
    return tmp_path


def test_one_row_of_a_varying_ring_has_one_shape(
    mesh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _findings(mesh, monkeypatch, "--confidence", "all") == []


def test_the_ring_itself_still_changes_shape(mesh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(mesh, {"comb.py": _COMB.replace("frames[ring][k - 1]", "frames[ring]")})
    found = _findings(mesh, monkeypatch)
    assert _where(found) == [("comb.py", 8, "RTL101")]
    assert "jitted 'align_frame' re-traces" in found[0]["message"]


# F5: a weak 0 or a NumPy int picks a cell; the jit gets that cell's frame, a float32 array either
# way.
_SEAMS = """\
import numpy as np

from mesh.frames import align_frame


def dissolve_seams(frames, face_cells, cuttable, bad_faces):
    for face in bad_faces:
        pair = face_cells[face]
        ok = np.argwhere(cuttable[pair])
        if len(ok) == 0:
            pick = 0
        else:
            pick = ok[0, 0]
        cell = pair[pick]
        other = pair[1 - pick]
        frames[cell] = align_frame(frames[other], frames[cell])
    return frames


rng = np.random.default_rng(1)
frames = rng.normal(size=(40, 3, 3)).astype(np.float32)
face_cells = rng.integers(0, 40, size=(30, 2))
cuttable = rng.random(40) > 0.5
dissolve_seams(frames, face_cells, cuttable, np.arange(30))
"""


def test_the_kind_of_an_index_is_not_the_kind_of_what_it_selects(
    mesh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(mesh, {"comb.py": _SEAMS})
    assert _findings(mesh, monkeypatch, "--confidence", "all") == []


def test_the_index_passed_itself_still_flips(mesh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(
        mesh,
        {
            "comb.py": _SEAMS.replace("frames[cell])\n", "frames[cell], pick)\n"),
            "mesh/frames.py": _FRAMES.replace("(ref, other)", "(ref, other, which)"),
        },
    )
    found = _findings(mesh, monkeypatch)
    assert _where(found) == [("comb.py", 11, "RTL401")]
    assert found[0]["message"].startswith("pick is a weakly typed scalar in one branch")
