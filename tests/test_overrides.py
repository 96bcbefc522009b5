"""``self.m()`` in a method of a base class runs the override of the subclass ``self`` is: the call
is linked to the overrides the project defines (a jit an override rebuilds per call is reported
through the base's loop), up to a bound past which the base is a plugin interface and only its own
``m`` is linked."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main

BASE = """
class Task:
    def evaluate(self, batches):
        return [self.score(b) for b in batches]

    def score(self, batch):
        return batch
"""

OVERRIDE = """
import jax

from tasks.base import Task


class Task{n}(Task):
    def score(self, batch):
        return jax.jit(lambda v: v * {n})(batch)
"""

MAIN = """
import sys

import jax.numpy as jnp

{imports}


if __name__ == "__main__":
    for task in ({tasks},):
        task.evaluate([jnp.ones(3) * k for k in range(int(sys.argv[1]))])
"""


def _project(root: Path, overrides: int) -> None:
    """A base class, ``overrides`` subclasses (one module each) and a script that evaluates each."""
    package = root / "tasks"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "base.py").write_text(BASE, encoding="utf-8")
    for n in range(overrides):
        (package / f"task{n}.py").write_text(OVERRIDE.format(n=n), encoding="utf-8")
    imports = "\n".join(f"from tasks.task{n} import Task{n}" for n in range(overrides))
    tasks = ", ".join(f"Task{n}()" for n in range(overrides))
    (root / "main.py").write_text(MAIN.format(imports=imports, tasks=tasks), encoding="utf-8")


def _lines(root: Path) -> list[str]:
    result = CliRunner().invoke(main, ["check", str(root), "--no-cache", "--isolated"])
    return result.stdout.splitlines()


def test_a_call_on_self_in_a_base_reaches_each_override(tmp_path: Path) -> None:
    _project(tmp_path, 3)
    found = _lines(tmp_path)
    assert [line.split(": RTL")[0].rpartition("tasks/")[2] for line in found] == [
        "task0.py:9:16",
        "task1.py:9:16",
        "task2.py:9:16",
    ]
    assert all("jax.jit rebuilds a jitted lambda each call of Task" in f for f in found)


def test_a_base_with_more_overrides_than_the_bound_links_its_own_method(tmp_path: Path) -> None:
    _project(tmp_path, 17)
    assert _lines(tmp_path) == []
