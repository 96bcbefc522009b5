"""A finding a helper makes, caused by a call in another file: every way of running on either file shows it.

`train.py` loops over steps and calls `data.prefix(self.x, step + 1)`, which slices in `pkg/data.py`;
the slice reaches the jitted `model.loss` of `pkg/model.py`. The line to change is in `data.py`, but the
call that makes it change is in `train.py`: an editor or a pre-commit hook on `train.py` must show it
(at that call, saying where it is made), and the call path must hold that call.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flake8_runs import FLAKE8, flake8_here
from limits import HANG_S
from test_cli import write

from retracelint.cli import main

PROJECT = {
    "pyproject.toml": "[tool.retracelint]\n",
    "pkg/__init__.py": "",
    "pkg/data.py": '''\
import numpy as np


def load(rows):
    return np.ones((rows, 4), dtype=np.float32)


def prefix(x, n):
    """The first n rows: what the model has seen so far."""
    return x[:n]
''',
    "pkg/model.py": """\
import jax
import jax.numpy as jnp


@jax.jit
def loss(batch):
    return jnp.mean(batch**2)
""",
    "train.py": """\
from pkg import data, model


class Trainer:
    def __init__(self, rows):
        self.x = data.load(rows)

    def fit(self, steps):
        total = 0.0
        for step in range(steps):
            seen = data.prefix(self.x, step + 1)
            total += model.loss(seen)
        return total


if __name__ == "__main__":
    Trainer(256).fit(100)
""",
}
SLICE = ("pkg/data.py", 10, 12)  # x[:n]
CALL = ("train.py", 11, 20)  # data.prefix(self.x, step + 1)
JIT_CALL = ("train.py", 12, 22)  # model.loss(seen)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def lint(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--no-cache", *args], input=stdin)


def at(found: dict) -> tuple[str, int, int]:
    return found["path"], found["line"], found["col"]


def json_of(*args: str, stdin: str | None = None) -> list[dict]:
    result = lint("--format", "json", *args, stdin=stdin)
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)


def test_the_call_path_holds_the_call_of_the_helper(project: Path) -> None:
    (found,) = json_of(".")
    assert (found["code"], at(found), found["origin"]) == ("RTL101", SLICE, None)
    steps = [(s["path"], s["line"], s["col"], s["call"]) for s in found["call_path"]]
    assert steps == [(*CALL, "data.prefix"), (*JIT_CALL, "model.loss")]
    # The headline names the loop; the helper's call is the first step of the path (above).
    assert "in the loop at train.py:" in found["message"]


def test_a_run_on_either_file_shows_it(project: Path) -> None:
    (made,) = json_of("pkg/data.py")
    assert at(made) == SLICE
    (called,) = json_of("train.py")
    assert at(called) == CALL
    assert (called["origin"]["path"], called["origin"]["line"]) == SLICE[:2]
    assert called["message"] == f"from pkg/data.py:10: {made['message']}"
    assert called["call_path"] == made["call_path"]
    # Both files: once, where it is made. Standard input for train.py: as the file.
    assert [at(f) for f in json_of("train.py", "pkg/data.py")] == [SLICE]
    source = (project / "train.py").read_text(encoding="utf-8")
    (buffer,) = json_of("--stdin-filename", "train.py", "-", stdin=source)
    assert buffer == called
    text = lint("train.py").stdout
    assert text.startswith("train.py:11:20: RTL101 from pkg/data.py:10: slice x[:n] changes shape")


def test_flake8_shows_it_once_in_the_first_file_it_checks(project: Path) -> None:
    def places(report: str) -> list[str]:
        return [":".join(line.split(":")[:3]) for line in report.splitlines()]

    def flake8(*args: str) -> list[str]:
        code, report = flake8_here(["--select", "RTL", *args], project)
        assert code == 1, report
        return places(report)

    assert flake8("train.py") == ["train.py:11:20"]
    assert flake8(".") == ["./pkg/data.py:10:12"]  # not again at the call
    assert flake8("--exclude", "pkg", ".") == ["./train.py:11:20"]
    source = (project / "train.py").read_text(encoding="utf-8")
    stdin = [*FLAKE8, "--select", "RTL", "--stdin-display-name", "train.py", "-"]
    done = subprocess.run(stdin, input=source, capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 1, done.stderr
    assert places(done.stdout) == ["train.py:11:20"]


def test_noqa_and_baseline_count_where_it_is_shown_and_where_it_is_made(project: Path) -> None:
    assert lint("--write-baseline", "base.json", ".").exit_code == 0  # what it records passes
    assert lint("train.py").exit_code == 1
    # Recorded where it is made, it is the same finding where it is shown.
    assert lint("--baseline", "base.json", "train.py").exit_code == 0
    train = project / "train.py"
    text = train.read_text(encoding="utf-8")
    train.write_text(text.replace("step + 1)", "step + 1)  # noqa: RTL101"), encoding="utf-8")
    assert lint("train.py").exit_code == 0
    assert lint("pkg/data.py").exit_code == 1  # the comment is not on the line that makes it


def test_sarif_and_the_graph_start_where_it_is_made(project: Path) -> None:
    result = lint("--format", "sarif", "train.py")
    (shown,) = json.loads(result.stdout)["runs"][0]["results"]

    def place(location: dict) -> tuple[str, int]:
        physical = location["physicalLocation"]
        return physical["artifactLocation"]["uri"], physical["region"]["startLine"]

    assert place(shown["locations"][0]) == CALL[:2]
    assert place(shown["relatedLocations"][0]) == SLICE[:2]
    flow = shown["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [place(step["location"]) for step in flow] == [
        SLICE[:2],
        CALL[:2],
        JIT_CALL[:2],
        ("pkg/model.py", 6),
    ]
    graph = CliRunner().invoke(main, ["graph", "--no-cache", "train.py"]).stdout
    assert 'n0["pkg/data.py:10"]:::origin' in graph
    assert '["train.Trainer.fit (train.py:11)"]' in graph


REBUILT = {
    "pyproject.toml": "[tool.retracelint]\n",
    "metrics.py": """\
import jax


def scaled(x, k):
    times_k = jax.jit(lambda v: v * k)
    return times_k(x)
""",
    "run.py": """\
import numpy as np

import metrics


def main():
    x = np.ones(4)
    for k in range(10):
        metrics.scaled(x, k)


if __name__ == "__main__":
    main()
""",
}


def test_a_function_repeated_by_a_loop_elsewhere_starts_its_path_at_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The jit rebuilt per call of scaled() is made in metrics.py; the loop that repeats the call is
    # in run.py: the path starts there, and a run on run.py shows it at that call.
    write(tmp_path, REBUILT)
    monkeypatch.chdir(tmp_path)
    (made,) = json_of(".")
    assert (made["code"], at(made)) == ("RTL301", ("metrics.py", 5, 15))
    steps = [(s["path"], s["line"], s["call"]) for s in made["call_path"]]
    assert steps == [("run.py", 9, "metrics.scaled"), ("metrics.py", 6, "times_k")]
    (shown,) = json_of("run.py")
    assert (at(shown), shown["origin"]["path"]) == (("run.py", 9, 9), "metrics.py")
