"""Long call chains: followed to ``MAX_FRAMES`` calls, and a chain cut there is said, never dropped silently.

A training script's loop hands its step counter down through layers of a pipeline (functions, then the
methods of a class, in three modules) to the function that slices with it and calls the jitted loss:
fourteen calls from the loop to the jit call, which the old limit of twelve dropped without a word.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from test_cli import write

from retracelint.cli import main
from retracelint.propagate import MAX_FRAMES


def _functions(first: int, last: int, then: str) -> str:
    """Functions ``level<first>`` to ``level<last>``, each passing ``x, n`` to the next, the last
    calling ``then``."""
    out = []
    for k in range(first, last + 1):
        callee = f"level{k + 1}" if k < last else then
        out.append(f"def level{k}(x, n):\n    return {callee}(x, n)\n")
    return "\n\n".join(out)


def _methods(first: int, last: int, then: str) -> str:
    out = []
    for k in range(first, last + 1):
        callee = f"self.level{k + 1}" if k < last else then
        out.append(f"    def level{k}(self, x, n):\n        return {callee}(x, n)\n")
    return "class Stages:\n" + "\n".join(out)


LOSS = """\
import jax
import jax.numpy as jnp


@jax.jit
def loss(batch):
    return jnp.mean(batch**2)


def level14(x, n):
    return loss(x[:n])
"""

FOURTEEN = {
    "pyproject.toml": "[tool.retracelint]\n",
    "pipeline/__init__.py": "",
    "pipeline/kernels.py": LOSS,
    "pipeline/stages.py": "from pipeline.kernels import level14\n\n\n" + _methods(6, 13, "level14"),
    "pipeline/front.py": "from pipeline.stages import Stages\n\n\n"
    + _functions(1, 5, "Stages().level6"),
    "train.py": """\
import numpy as np

from pipeline.front import level1


def main():
    x = np.ones((512, 8), dtype=np.float32)
    for step in range(1, 500):
        level1(x, step)


if __name__ == "__main__":
    main()
""",
}


@pytest.fixture
def chdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["--no-cache", "--format", "json", *args])


def test_a_fourteen_call_chain_is_followed(chdir: Path) -> None:
    write(chdir, FOURTEEN)
    result = lint(".")
    assert result.exit_code == 1, result.output
    (found,) = json.loads(result.stdout)
    assert (found["path"], found["line"], found["code"]) == ("pipeline/kernels.py", 11, "RTL101")
    assert "loop at train.py:8" in found["message"]
    calls = [step["call"] for step in found["call_path"]]
    assert calls == [
        "level1",
        *(f"level{k}" for k in range(2, 6)),
        "Stages().level6",
        *(f"self.level{k}" for k in range(7, 14)),
        "level14",
        "loss",
    ]


def test_a_chain_cut_at_the_limit_is_one_note(chdir: Path) -> None:
    depth = MAX_FRAMES + 3
    chain = (
        LOSS.replace("level14", f"level{depth}")
        + "\n\n"
        + _functions(1, depth - 1, f"level{depth}")
    )
    write(
        chdir,
        {
            "pyproject.toml": "[tool.retracelint]\n",
            "chain.py": chain,
            "train.py": FOURTEEN["train.py"].replace("pipeline.front", "chain"),
        },
    )
    result = lint(".")
    assert result.exit_code == 1
    (note,) = json.loads(result.stdout)
    # The jit call is in level<depth>; its callers are asked up to MAX_FRAMES frames: level3.
    assert (note["code"], note["severity"]) == ("RTL000", "warning")
    lines = (chdir / "chain.py").read_text(encoding="utf-8").splitlines()
    assert lines[note["line"] - 1] == "def level3(x, n):"
    assert note["message"].startswith(
        f"call chain cut: what reaches a jit call through level3() goes deeper than {MAX_FRAMES}"
    )
    # `--severity error` shows errors only: the note is not one.
    assert CliRunner().invoke(main, ["--no-cache", "--severity", "error", "."]).exit_code == 0
