"""``jax.jit(self.step)`` built per call: a new bound method per read for a method or a
classmethod (an empty cache each time), the same plain function for a staticmethod (jax's caches
are keyed by it, so every build after the first finds its traces; round 23, F3)."""

from __future__ import annotations

from pathlib import Path

from project_runs import checked, written

BASE = """import jax.numpy as jnp


class Scorer:
    @staticmethod
    def step(params, batch):
        return jnp.mean((batch @ params) ** 2)
"""

EVALUATOR = """import jax

from scoring.base import Scorer


class Evaluator(Scorer):
    def evaluate(self, params, batches):
        scored = jax.jit(self.step)
        return [scored(params, b) for b in batches]

    def fit(self, params, batches, epochs):
        for epoch in range(epochs):
            if epoch % 10 == 0:
                self.evaluate(params, batches)
        return params
"""

RUN = """import jax.numpy as jnp

from scoring.evaluator import Evaluator

Evaluator().fit(jnp.ones(4), [jnp.ones((8, 4))] * 3, 500)
"""


def _project(tmp_path: Path, base: str) -> Path:
    return written(
        tmp_path / "proj",
        {
            "scoring/__init__.py": "",
            "scoring/base.py": base,
            "scoring/evaluator.py": EVALUATOR,
            "run.py": RUN,
        },
    )


def test_a_jit_of_an_inherited_staticmethod_rebuilt_per_call_is_not_reported(
    tmp_path: Path,
) -> None:
    assert checked(_project(tmp_path, BASE)) == (0, "")


def test_a_jit_of_a_method_or_classmethod_rebuilt_per_call_is_reported(tmp_path: Path) -> None:
    """The same evaluator over a plain method (``self`` bound anew at each read) or a classmethod
    (the class bound anew at each read): every ``evaluate`` traces again."""
    head = "evaluator.py:8:18: RTL301 jax.jit rebuilds a jitted bound method each call of"
    for decorator, first in (("", "self"), ("    @classmethod\n", "cls")):
        base = BASE.replace("    @staticmethod\n", decorator).replace(
            "def step(params", f"def step({first}, params"
        )
        code, out = checked(_project(tmp_path / first, base))
        assert code == 1 and f"{head} Evaluator.evaluate()" in out, out
