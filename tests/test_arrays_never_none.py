"""A value made into an array (``jnp.array(best)``) is never None, whatever it was made of."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "optimiser_bests_made_arrays"
FLIP = (
    "bo/optim.py:19:19: RTL403 [warning] best_params is not None in one branch and None in another"
)


def _check(folder: Path) -> tuple[int, str]:
    args = ["check", str(folder), "--no-cache", "--isolated", "--confidence", "all"]
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


def test_an_optimiser_best_returned_as_an_array_never_reaches_a_jit_as_none(
    tmp_path: Path,
) -> None:
    """``best_params = None`` before the restarts, set by the first that is better, is handed back
    as ``jnp.array(scale_from_unit(best_params, ...))``: the caller's jitted kernel never sees None
    (the true findings beside it stay); handed back as it is from a record that may never be
    beaten, the flip reaches the kernel."""
    folder = tmp_path / "bo_run"
    shutil.copytree(FIXTURE, folder)
    code, out = _check(folder)
    assert code == 1
    assert "RTL403" not in out
    assert "bo/gp.py:21:24: RTL102" in out and "bo/optim.py:13:6: RTL301" in out

    optim = folder / "bo" / "optim.py"
    text = optim.read_text(encoding="utf-8")
    # Handed back as it is, from a record that starts finite (a restart may never beat it, so
    # None may come back; from ``np.inf`` the first restart always replaces it).
    made_none = text.replace("return jnp.array(out),", "return out,")
    optim.write_text(made_none.replace("best_f = np.inf", "best_f = 0.0"), encoding="utf-8")
    code, out = _check(folder)
    assert code == 1 and f"{folder}/{FLIP}" in out
