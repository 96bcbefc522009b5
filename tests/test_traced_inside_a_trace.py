"""A jitted call made only while another jitted function traces re-traces only when that one does
(round 8, cause 8): one re-trace is told once, at the outer call; the same jitted call made outside
any trace is still reported."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

STATS = '''\
"""Running statistics of an evaluation, reset to zeros of the batch's shape."""

from functools import partial

import jax
import jax.numpy as jnp


class Stats:
    def __init__(self, names):
        self.names = names

    @partial(jax.jit, static_argnums=(0, 1))
    def reset(self, batch_shape=(1,)):
        return {name: jnp.zeros(batch_shape) for name in self.names}
'''

RUNNER = '''\
"""A runner per group of states: its jitted rollout resets the runner's own statistics."""

from functools import partial

import jax

from stats import Stats


class Runner:
    def __init__(self, states):
        self.states = states
        self.stats = Stats(("return", "length"))

    @partial(jax.jit, static_argnums=(0,))
    def run(self, params):
        stats = self.stats.reset(batch_shape=(self.states.shape[0],))
        return stats["return"] + self.states @ params

    def empty_stats(self):
        return self.stats.reset(batch_shape=(1,))
'''

MAIN = """\
import jax.numpy as jnp

from runner import Runner


def evaluate(groups, params):
    for states in groups:
        runner = Runner(states)
        runner.run(params)
        runner.empty_stats()


if __name__ == "__main__":
    evaluate([jnp.ones((8, 3))] * 10, jnp.ones(3))
"""


def _found(root: Path, main: str) -> list[tuple[str, int, str, str]]:
    for name, text in {"stats.py": STATS, "runner.py": RUNNER, "main.py": main}.items():
        (root / name).write_text(text, encoding="utf-8")
    run = analyse([str(root)], Settings(cache=False, select=("RTL",), confidence="all"))
    return [
        (Path(f.location.path).name, f.location.line, f.code, f.jit_site.name)  # type: ignore[union-attr]
        for f in run.findings
    ]


def test_a_jitted_call_inside_a_reported_jitted_method_is_told_at_the_outer_call(tmp_path: Path):
    """A new runner per group re-traces ``run``, and with it ``reset`` of the runner's new stats:
    one finding at ``runner.run(params)``; ``empty_stats()``, outside any trace, re-traces ``reset``
    on its own and is reported there."""
    assert _found(tmp_path, MAIN) == [
        ("main.py", 9, "RTL204", "run"),
        ("runner.py", 21, "RTL204", "reset"),
    ]


def test_a_runner_built_once_reports_neither(tmp_path: Path):
    """Built once, the runner keeps its stats: ``run`` and ``reset`` trace once."""
    once = MAIN.replace(
        "    for states in groups:\n        runner = Runner(states)\n",
        "    runner = Runner(groups[0])\n    for states in groups:\n",
    )
    assert _found(tmp_path, once) == []
