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
