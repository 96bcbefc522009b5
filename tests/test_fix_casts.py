"""RTL402's cast at the boundary (issue 41): a value whose dtype differs from the one another call
passes is cast, where it is made, to that dtype when the cast keeps every value; an int-or-float value
becomes a float. Both only with ``--unsafe-fixes``; a narrowing that may lose values is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


MODEL = """\
import jax
import jax.numpy as jnp


@jax.jit
def gather(table, idx):
    return table[idx].sum(axis=-1)
"""

BINS = """\
import numpy as np


def best_bins(scores):
    return np.argmax(scores, axis=1).astype(np.uint8)  # the winning bin of each row
"""

RUN = """\
import jax.numpy as jnp
import numpy as np

from bins import best_bins
from model import gather

table = jnp.arange(12.0).reshape(6, 2)
for step in range(3):
    print(gather(table, jnp.arange(3, dtype=jnp.int32)))
    print(gather(table, best_bins(np.ones((3, 6)) * step)))
"""


def test_a_value_of_another_dtype_is_cast_where_it_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, text in {"model.py": MODEL, "bins.py": BINS, "run.py": RUN}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    safe = lint("--fix", ".")
    assert (tmp_path / "bins.py").read_text() == BINS
    assert "1 hidden fix can be enabled" in safe.stderr
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "bins.py").read_text()
    assert fixed == "import jax.numpy as jnp\n" + BINS.replace(
        "return np.argmax(scores, axis=1).astype(np.uint8)",
        "return jnp.asarray(np.argmax(scores, axis=1).astype(np.uint8), jnp.int32)",
    )
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (tmp_path / "bins.py").read_text() == fixed


def test_a_cast_that_may_lose_values_or_an_int_or_float_is_handled_as_it_must_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lossy = BINS.replace(".astype(np.uint8)", ".astype(np.float64)")
    scaled = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef normalise(x, total):\n"
        "    return x / total\n\n\ndef total_of(xs):\n    return max(1, float(sum(xs)) / 4)\n\n\n"
        "for n in range(3):\n    print(normalise(jnp.ones(2), total_of([0.5 * n, 1.0])))\n"
    )
    files = {"model.py": MODEL, "bins.py": lossy, "run.py": RUN, "scale.py": scaled}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "bins.py").read_text() == lossy
    assert "RTL402 not fixed: a cast from float32 to int32 may change values" in result.stderr, (
        result.stderr
    )
    assert "    return float(max(1, float(sum(xs)) / 4))\n" in (tmp_path / "scale.py").read_text()
