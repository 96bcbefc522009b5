"""A finding's severity says how bad it is: an error re-traces on every step (unbounded), a warning adds
a few traces (a loop over values written out in the source, one flip between two signatures)."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

FIXTURES = Path(__file__).parent / "fixtures"


def _severities(project: Path, tmp: Path | None = None) -> dict[tuple[int, str], str]:
    run = analyse([str(project)], Settings(cache=False))
    return {(f.location.line, f.code): f.severity for f in run.findings}


def test_a_loop_over_a_few_literal_values_is_a_warning_an_open_loop_an_error() -> None:
    found = _severities(FIXTURES / "rtl201_loop_varying_static_args.py")
    assert found[(45, "RTL201")] == "warning"  # for depth in range(2, 12, 2): five traces
    assert found[(53, "RTL201")] == "warning"  # for d in range(1, 4)
    assert found[(38, "RTL201")] == "error"  # a step counter of an open loop


def test_a_rebuilt_jit_per_step_is_an_error() -> None:
    found = _severities(FIXTURES / "runs_once_or_traced")
    assert set(found.values()) == {"error"}


def test_a_flip_between_two_signatures_is_a_warning(tmp_path: Path) -> None:
    program = tmp_path / "flip.py"
    program.write_text(
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef scale(x, s):\n    return x * s\n\n\n"
        "def run(x):\n    for _ in range(100):\n        scale(x, 2.0)\n"
        "        scale(x, jnp.float32(2.0))\n",
        encoding="utf-8",
    )
    found = _severities(program)
    assert found == {(13, "RTL401"): "warning"}
