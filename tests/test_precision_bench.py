"""The precision benchmark's comparison (benchmarks/precision/run.py) on a tiny corpus made here: an
unjudged finding fails the run, a filled-in template makes it pass, and the figures add up."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from bench_scripts import load_script, write_tree

TRAIN = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return x * 2


def main():
    x = jnp.ones(8)
    for n in range(1, 5):
        step(x[:n])
    for n in range(1, 5):
        step(x[:n])
    for scale in (1.0, 2.0, 3.0):
        jax.jit(lambda v: v * scale)(x)


if __name__ == "__main__":
    main()
"""

OPS = """\
import jax
import jax.numpy as jnp


@jax.jit
def norm(x):
    return x / jnp.sum(x)


def sweep(x):
    for k in range(2, 6):
        norm(x[:k])
"""

SPLIT = """\
test = ["*_test.py"]
user = ["*/train.py"]
"""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("precision/run.py", "precision_run")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"app/app/train.py": TRAIN, "app/app/__init__.py": ""}
    files |= {"lib/lib/ops.py": OPS, "lib/lib/__init__.py": ""}
    return write_tree(tmp_path_factory.mktemp("corpus"), files)


@pytest.fixture(scope="module")
def saved(bench: ModuleType, corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This corpus's findings, from one run of retracelint, for the other runs to compare."""
    work = tmp_path_factory.mktemp("saved")
    out = work / "found.json"
    split = work / "split.toml"
    split.write_text(SPLIT)
    args = ["--no-build", "--corpus", str(corpus), "--split", str(split), "-j", "1"]
    bench.main([*args, "--judgments", str(work / "none.json"), "--save-findings", str(out)])
    return out


def _run(bench: ModuleType, corpus: Path, saved: Path, work: Path, *extra: str) -> int:
    (work / "split.toml").write_text(SPLIT)
    args = ["--no-build", "--corpus", str(corpus), "--split", str(work / "split.toml")]
    args += ["--findings", str(saved), "--judgments", str(work / "judgments.json")]
    return bench.main([*args, "--json", str(work / "out.json"), *extra])


def _verdict(stub: dict) -> str:
    if stub["dist"] == "lib":
        return "false"
    return "deliberate" if stub["rule"] == "RTL301" else "true"


def test_unjudged_findings_fail_until_judged_and_the_figures_add_up(
    bench: ModuleType, corpus: Path, saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    found = json.loads(saved.read_text())
    slices = [f for f in found if f["dist"] == "app" and f["text"] == "step(x[:n])"]
    assert [(f["line"], f["occurrence"]) for f in slices] == [(13, 0), (15, 1)]
    assert {(f["dist"], f["rule"]) for f in found} >= {("app", "RTL301"), ("lib", "RTL101")}

    first = {**slices[0], "verdict": "true", "why": "n grows every iteration"}
    del first["message"]
    gone = {**first, "line": 99, "text": "step(x[:m])", "why": "a finding no longer produced"}
    (tmp_path / "judgments.json").write_text(json.dumps([first, gone]))
    template = tmp_path / "stubs.json"

    assert _run(bench, corpus, saved, tmp_path, "--unjudged-template", str(template)) == 1
    out = json.loads((tmp_path / "out.json").read_text())
    assert len(out["unjudged"]) == len(found) - 1
    assert [j["text"] for j in out["vanished"]] == ["step(x[:m])"]
    report = capsys.readouterr().out
    assert f"Unjudged findings: {len(found) - 1}" in report
    assert "RECALL LOSS: 1 true finding(s) no longer produced" in report

    stubs = json.loads(template.read_text())
    assert {(s["line"], s["occurrence"]) for s in stubs if s["text"] == "step(x[:n])"} == {(15, 1)}
    for s in stubs:
        s.update(verdict=_verdict(s), why="judged by the test")
    template.write_text(json.dumps(stubs))
    table = tmp_path / "TABLE.md"
    rc = _run(bench, corpus, saved, tmp_path, "--merge", str(template), "--drop-vanished")
    assert rc == 0
    assert _run(bench, corpus, saved, tmp_path, "--write-table", "--table", str(table)) == 0

    kept = json.loads((tmp_path / "judgments.json").read_text())
    assert len(kept) == len(found)  # the vanished judgment dropped, every finding judged once
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["unjudged"] == [] and out["vanished"] == []
    lines = {
        "user": TRAIN.count("\n"),
        "library": OPS.count("\n"),
        "all": TRAIN.count("\n") + OPS.count("\n"),
    }
    for kind, dists in (("user", {"app"}), ("library", {"lib"}), ("all", {"app", "lib"})):
        mine = [_verdict(f) for f in found if f["dist"] in dists]
        tally = out["by_kind"][kind]
        assert tally["lines"] == lines[kind]
        assert tally["findings"] == len(mine)
        assert [tally[v] for v in ("true", "deliberate", "false")] == [
            mine.count(v) for v in ("true", "deliberate", "false")
        ]
        assert tally["false_per_20kloc"] == pytest.approx(
            mine.count("false") * 20_000 / lines[kind]
        )
        good = mine.count("true") + mine.count("deliberate")
        assert tally["true_or_deliberate"] == pytest.approx(good / len(mine))
    assert out["by_kind"]["test"]["findings"] == 0
    rows = [
        line for line in table.read_text().splitlines() if line.startswith("| ") and "`" in line
    ]
    assert len(rows) == len(found)
    assert any("`app/app/train.py:15`" in row and "| true |" in row for row in rows)


def test_a_template_left_unfilled_is_refused(
    bench: ModuleType, corpus: Path, saved: Path, tmp_path: Path
) -> None:
    template = tmp_path / "stubs.json"
    assert _run(bench, corpus, saved, tmp_path, "--unjudged-template", str(template)) == 1
    assert _run(bench, corpus, saved, tmp_path, "--merge", str(template)) == 2
    assert not (tmp_path / "judgments.json").exists()


def test_speed_snapshot_diff_counts_each_key_as_often_as_it_differs(bench: ModuleType) -> None:
    def finding(line: int, text: str) -> object:
        return bench.Finding("jax", "jax/a.py", line, "RTL301", "", text, "m")

    found = bench.numbered([finding(3, "f = jax.jit(g)"), finding(9, "f = jax.jit(g)")])
    assert [f.occurrence for f in found] == [0, 1]
    before = [["jax", "jax/a.py", "RTL301", "f = jax.jit(g)", "", 0]]
    before.append(["jax", "jax/b.py", "RTL201", "h(x, n)", "n", 0])
    added, removed = bench.snapshot_diff(found, before)
    assert added == [("jax", "jax/a.py", "RTL301", "f = jax.jit(g)", "", 1)]
    assert removed == [("jax", "jax/b.py", "RTL201", "h(x, n)", "n", 0)]
