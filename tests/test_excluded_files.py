"""Excluded files still take part in the analysis; they are only never reported.

The jitted function and the helpers that slice for it live in `lib/`; a loop that calls them lives in a
file the user excludes (`extend-exclude = ["scripts"]`). flake8 and ruff only stop *reporting* in excluded
files, and so does retracelint: the finding that loop makes in `lib/` stays. What is not the project's code
(a virtual environment, `build/`, what git ignores: `experiments/`) is not analysed at all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flake8_runs import flake8_here
from test_cli import write

from retracelint.cli import main

STEPS = '''\
import jax
import jax.numpy as jnp


@jax.jit
def loss(batch):
    return jnp.mean(batch**2)


def warm(x, n):
    """Loss on the first n rows."""
    return loss(x[:n])


class Evaluator:
    def __init__(self, data):
        self.data = data

    def every(self, k):
        return loss(self.data[:k])


def tail(x, n):
    return loss(x[-n:])
'''

SWEEP = """\
import numpy as np

from lib import steps


def main():
    x = np.ones((64, 3), dtype=np.float32)
    for n in range(1, 64):
        steps.warm(x, n)
        steps.loss(x[n:])  # made here: never reported, nothing on its path is


if __name__ == "__main__":
    main()
"""

PROBE = """\
import numpy as np

from lib.steps import Evaluator


def probe():
    evaluator = Evaluator(np.ones((90, 2)))
    for k in range(1, 30):
        evaluator.every(k)


if __name__ == "__main__":
    probe()
"""

# Not the project's code: a loop there would make a finding in tail().
INSTALLED = """\
import numpy as np

from lib import steps

for n in range(1, 9):
    steps.tail(np.ones(10), n)
"""

PROJECT = {
    "pyproject.toml": '[tool.retracelint]\nextend-exclude = ["scripts"]\n',
    ".gitignore": "experiments/\n",
    "lib/__init__.py": "",
    "lib/steps.py": STEPS,
    "scripts/sweep.py": SWEEP,
    "experiments/probe.py": PROBE,
    "experiments/broken.py": "def half(:\n",
    ".venv/lib/python3.11/site-packages/user/run.py": INSTALLED,
    "env/pyvenv.cfg": "home = /usr/bin\n",
    "env/lib/python3.11/site-packages/user/run.py": INSTALLED,
    "build/lib/run.py": INSTALLED,
}
WARM = ("lib/steps.py", 12, "RTL101")  # x[:n], the loop in scripts/sweep.py
EVERY = ("lib/steps.py", 20, "RTL101")  # self.data[:k], the loop in experiments/probe.py


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, PROJECT)
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["--no-cache", "--format", "json", *args])


def found(result: Result) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)]


def test_loops_in_excluded_files_make_findings_in_the_files_reported(project: Path) -> None:
    result = lint(".")
    assert result.exit_code == 1
    assert found(result) == [WARM]
    (warm,) = json.loads(result.stdout)
    assert "loop at scripts/sweep.py:8" in warm["message"]
    # One file of lib/ alone: the same.
    assert found(lint("lib/steps.py")) == [WARM]
    # What git ignores is not analysed; told to read it, its loop counts and its error shows.
    everything = found(lint("--no-respect-gitignore", "."))
    assert everything == [("experiments/broken.py", 1, "RTL000"), WARM, EVERY]


def test_an_excluded_file_named_is_reported(project: Path) -> None:
    # Its own slice, and the finding in lib/ at its call (lib/ is not among the paths given).
    shown = found(lint("scripts/sweep.py"))
    assert shown == [("scripts/sweep.py", 9, "RTL101"), ("scripts/sweep.py", 10, "RTL101")]


def test_flake8_reports_what_the_command_line_reports(project: Path) -> None:
    # (flake8 reads no .gitignore: it would report experiments/broken.py's E999 itself.)
    code, report = flake8_here(["--select", "RTL", "--extend-exclude", "broken.py", "."], project)
    assert code == 1, report
    lines = [line.split(" ")[0:2] for line in report.splitlines()]
    assert lines == [["./lib/steps.py:12:17:", "RTL101"]]
