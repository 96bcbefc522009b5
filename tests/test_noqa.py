"""`# noqa` as flake8 users write it, and RTL100 for suppressions that hide nothing."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

PROGRAM = """\
import jax


@jax.jit
def step(x):
    return x * 2


def run(x):
    for i in range(1, 9):
        step(x[:i]){comment}
"""


def _codes(tmp_path: Path, comment: str, **settings: object) -> list[tuple[int, str]]:
    path = tmp_path / "train.py"
    path.write_text(PROGRAM.format(comment=comment), encoding="utf-8")
    run = analyse([str(path)], Settings(cache=False, **settings))  # type: ignore[arg-type]
    return [(f.location.line, f.code) for f in run.findings]


def test_without_noqa_the_slice_is_reported(tmp_path: Path) -> None:
    assert _codes(tmp_path, "") == [(11, "RTL101")]


def test_bare_noqa_and_matching_codes_suppress(tmp_path: Path) -> None:
    assert _codes(tmp_path, "  # noqa") == []
    assert _codes(tmp_path, "  # noqa: RTL101") == []
    assert _codes(tmp_path, "  # NOQA:RTL1") == []
    assert _codes(tmp_path, "  # noqa: E501,RTL101") == []


def test_noqa_for_another_code_does_not_suppress(tmp_path: Path) -> None:
    assert _codes(tmp_path, "  # noqa: RTL201") == [(11, "RTL101")]
    assert _codes(tmp_path, "  # noqa: E501") == [(11, "RTL101")]


def test_unused_noqa_is_reported_only_when_selected(tmp_path: Path) -> None:
    comment = "  # noqa: RTL101, RTL203, E501"
    assert _codes(tmp_path, comment) == []
    found = _codes(tmp_path, comment, extend_select=("RTL100",))
    assert found == [(11, "RTL100")]
    path = tmp_path / "train.py"
    run = analyse([str(path)], Settings(cache=False, extend_select=("RTL100",)))
    (finding,) = run.findings
    assert "no RTL203 finding" in finding.message and "E501" not in finding.message
    assert finding.location.col == len("        step(x[:i])  ") + 1
