"""The severity-by-verdict script (benchmarks/precision/severity.py): each finding of the current run
counts under its current severity and its verdict, findings without a verdict as unjudged, verdicts
without a finding as gone; a round run on two tiny code bases adds up, and a missing checkout is exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from bench_scripts import load_script, write_tree

# a per-call jit that an evaluation loop over members runs: an error (the loop grows with the run)
EVALUATE = """\
import jax
import jax.numpy as jnp


def evaluate(x, scale):
    return jax.jit(lambda v: v * scale)(x)


def main(members):
    for member in members:
        evaluate(jnp.ones(3), float(member))


if __name__ == "__main__":
    main(iter(range(8)))
"""

# the same jit rebuilt per item of a literal pair: a warning
PAIR = """\
import jax
import jax.numpy as jnp

for scale in (1.0, 2.0):
    jax.jit(lambda v: v * scale)(jnp.ones(3))
"""


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("precision/severity.py", "severity_rounds")


def _round(verdicts: list[tuple]) -> dict:
    keys = ("repo", "path", "line", "code", "severity", "verdict")
    return {
        "code_bases": [{"repo": "acme/evals", "commit": "0" * 40, "folder": "acme+evals"}],
        "verdicts": [{**dict(zip(keys, v, strict=True)), "cause": None} for v in verdicts],
        "unanalysed": [],
    }


def test_findings_count_under_their_current_severity(script: ModuleType) -> None:
    round_ = _round(
        [
            ("acme/evals", "a.py", 3, "RTL301", "error", "deliberate"),
            ("acme/evals", "b.py", 7, "RTL201", "error", "false"),
            ("acme/evals", "c.py", 9, "RTL105", "warning", "true"),
        ]
    )
    found = {
        ("acme/evals", "a.py", 3, "RTL301"): "warning",
        ("acme/evals", "c.py", 9, "RTL105"): "warning",
        ("acme/evals", "d.py", 1, "RTL301"): "error",
    }
    table, changes = script.tally(round_, found)
    assert table.cells == {
        ("warning", "deliberate"): 1,
        ("warning", "true"): 1,
        ("error", "unjudged"): 1,
    }
    assert table.gone == 1 and table.good_share("warning") == 1.0
    assert table.good_share("error") is None
    assert [str(c) for c in changes] == [
        "error -> warning: acme/evals a.py:3 RTL301 (deliberate)",
        "unjudged error: acme/evals d.py:1 RTL301 (unjudged)",
    ]


def test_a_finding_moved_a_line_keeps_its_verdict_and_unanalysed_files_are_no_findings(
    script: ModuleType,
) -> None:
    round_ = _round(
        [
            ("acme/evals", "a.py", 10, "RTL301", "error", "true"),
            ("acme/evals", "a.py", 30, "RTL301", "error", "false"),
        ]
    )
    found = {
        ("acme/evals", "a.py", 11, "RTL301"): "error",  # the call of line 10, reported at 11
        ("acme/evals", "a.py", 20, "RTL301"): "error",  # too far from line 30
        ("acme/evals", "a.py", 30, "RTL201"): "warning",  # another rule
        ("acme/evals", "b.py", 1, "RTL000"): "error",  # cannot parse
    }
    table, changes = script.tally(round_, found)
    assert table.cells == {
        ("error", "true"): 1,
        ("error", "unjudged"): 1,
        ("warning", "unjudged"): 1,
    }
    assert table.gone == 1
    assert [str(c) for c in changes] == [
        "not analysed (error): acme/evals b.py:1 RTL000",
        "unjudged error: acme/evals a.py:20 RTL301 (unjudged)",
        "unjudged warning: acme/evals a.py:30 RTL201 (unjudged)",
    ]


def test_a_round_on_real_code_adds_up_and_a_missing_checkout_is_exit_2(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    root = write_tree(
        tmp_path / "bases", {"acme+evals/evaluate.py": EVALUATE, "acme+evals/pair.py": PAIR}
    )
    path = tmp_path / "round.json"
    path.write_text(
        json.dumps(
            _round(
                [
                    ("acme/evals", "evaluate.py", 6, "RTL301", "error", "true"),
                    ("acme/evals", "pair.py", 5, "RTL301", "error", "deliberate"),
                ]
            )
        )
    )
    command = ["--retracelint", f"{sys.executable} -m retracelint"]
    assert script.main([f"{path}={root}", *command]) == 0
    out = capsys.readouterr().out
    assert "| round | error | 1 | 0 | 0 | 0 | 100% | 0 |" in out
    assert "| round | warning | 0 | 1 | 0 | 0 | 100% |  |" in out
    assert "| all | error | 1 | 0 | 0 | 0 | 100% | 0 |" in out
    assert "error -> warning: acme/evals pair.py:5 RTL301 (deliberate)" in out
    assert script.main([f"{path}={tmp_path}", *command]) == 2
    assert "missing acme+evals" in capsys.readouterr().err
