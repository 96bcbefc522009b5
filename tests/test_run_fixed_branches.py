"""Findings that rest on a branch whose side the run fixes, and the messages of true findings that
told the wrong fix or an unsaid count (fresh round 37, issue 36 cause 1).

A rebuild only under ``if jax.tree_util.tree_leaves(state["extra"]):`` (a model's batch statistics)
runs at every turn or never: a loop keeps the pytree's structure, and nothing in the source says the
models the program builds have the collection (BLT's ``merge_model_state``, whose models have none).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_BASE = """\
import jax


class BaseTrainer:
    def merge_extra(self, state):
        if jax.tree_util.tree_leaves(state["extra"]):  # only models with batch statistics
            mean = jax.pmap(lambda x: jax.lax.pmean(x, "i"), "i")
            return {**state, "extra": mean(state["extra"])}
        return state

    def sync_params(self, state):
        mean = jax.pmap(lambda x: jax.lax.pmean(x, "i"), "i")
        return {**state, "params": mean(state["params"])}

    def train(self, state, batches, eval_every=100):
        for step, batch in enumerate(batches):
            state = self.step(state, batch)
            if step % eval_every == 0:
                state = self.merge_extra(state)
                state = self.sync_params(state)
        return state
"""

_LM = """\
import flax.linen as nn
import jax
import jax.numpy as jnp

from trainers.base import BaseTrainer


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.LayerNorm()(x))


class LMTrainer(BaseTrainer):
    def __init__(self):
        self.model = Model()
        self._step = jax.jit(self._loss_step)

    def _loss_step(self, params, batch):
        return jax.tree_util.tree_map(lambda p: p - 0.01 * batch.mean(), params)

    def init(self, x):
        variables = dict(self.model.init(jax.random.PRNGKey(0), x))
        params = variables.pop("params")
        return {"params": params, "extra": variables}

    def step(self, state, batch):
        return {**state, "params": self._step(state["params"], batch)}


if __name__ == "__main__":
    xs = [jnp.ones((8, 4)) for _ in range(1000)]
    trainer = LMTrainer()
    trainer.train(trainer.init(xs[0]), xs)
"""


def _project(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _run(*args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, "."])
    return json.loads(result.stdout)


@pytest.fixture
def trainers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _project(
        tmp_path,
        {"trainers/__init__.py": "", "trainers/base.py": _BASE, "trainers/lm.py": _LM},
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_rebuild_under_a_test_of_a_pytrees_leaves_rests_on_it(trainers: Path) -> None:
    shown = [(f["path"], f["line"], f["severity"]) for f in _run()]
    # the unguarded rebuild of the same loop stays a proven error
    assert shown == [("trainers/base.py", 12, "error")]
    held = {f["line"]: f for f in _run("--confidence", "all") if f["path"] == "trainers/base.py"}
    assert held[7]["severity"] == "warning"
    assert [(a["kind"], a["line"]) for a in held[7]["assumptions"]] == [("structure-guard", 6)]
    assert "tree_leaves(state['extra'])" in held[7]["assumptions"][0]["text"]
    assert held[12]["assumptions"] == []


@pytest.mark.parametrize(
    "guard",
    [
        'not jax.tree_util.tree_leaves(state["extra"])',
        'len(jax.tree_leaves(state["extra"])) == 0',
    ],
)
def test_either_arm_of_a_leaves_test_is_an_assumption(trainers: Path, guard: str) -> None:
    negated = _BASE.replace(
        'if jax.tree_util.tree_leaves(state["extra"]):  # only models with batch statistics\n',
        f"if {guard}:\n            return state\n        else:\n",
    )
    (trainers / "trainers/base.py").write_text(negated, encoding="utf-8")
    assert [f["line"] for f in _run()] == [14]
    held = [f for f in _run("--confidence", "all") if f["line"] == 9]
    assert [a["kind"] for a in held[0]["assumptions"]] == ["structure-guard"]
