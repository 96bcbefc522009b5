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


# Two calls of a jit on the two arms of ``if conditional == "none":`` in one call of ``test``, whose
# jit ``test`` makes anew around a ``functools.partial`` of its own: one call of ``test`` runs one
# arm, and a partial compares by identity, so another call's jit is another cache (BLT's
# ``transformer_trainer.test``: unconditional sampling with no label, conditional with one).
_SAMPLER = """\
import functools

import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, batch_size, length=16):
        self.batch_size = batch_size
        self.length = length

    def preprocess_batch(self, batch):
        label = None  # trained without class labels
        if batch.shape[0] != self.batch_size:
            return None, None
        return batch.reshape((jax.local_device_count(), -1) + batch.shape[1:]), label

    def sample_one_batch(self, prefix, rng, weights, label, length):
        logits = weights["w"] * length
        if label is not None:
            logits = logits + label.sum()
        if prefix is not None:
            logits = logits + prefix.sum()
        return jax.random.categorical(rng, logits, shape=(length,))

    def test(self, weights, batches, conditional="none", use_vertical=False):
        p_generate = jax.pmap(
            functools.partial(self.sample_one_batch, length=self.length), axis_name="batch"
        )
        keys = jax.random.split(jax.random.PRNGKey(0), jax.local_device_count())
        samples = []
        for batch in batches:
            batch, label = self.preprocess_batch(batch)
            if batch is None:
                break
            if conditional == "none":
                if use_vertical:
                    label = jnp.full_like(batch[..., :1], 3)
                samples.append(p_generate(None, keys, weights, label=label))
            else:
                samples.append(p_generate(batch[..., 1:], keys, weights, label=label))
        return samples
"""

_SAMPLE_MAIN = """\
import sys

import jax.numpy as jnp

from sampling.sampler import Sampler


def main(conditional):
    sampler = Sampler(batch_size=8)
    weights = {"w": jnp.ones((1, 32))}
    batches = [jnp.ones((8, 10), dtype=jnp.int32) for _ in range(100)]
    return sampler.test(weights, batches, conditional=conditional)


if __name__ == "__main__":
    main(sys.argv[1])
"""

# The same arms with the jit made once per sampler, and a run that samples both ways with it.
_SHARED = _SAMPLER.replace(
    "        self.length = length\n",
    "        self.length = length\n"
    "        self.p_generate = jax.pmap(\n"
    '            functools.partial(self.sample_one_batch, length=length), axis_name="batch"\n'
    "        )\n",
).replace(
    "        p_generate = jax.pmap(\n"
    '            functools.partial(self.sample_one_batch, length=self.length), axis_name="batch"\n'
    "        )\n",
    "        p_generate = self.p_generate\n",
)
_BOTH_WAYS = _SAMPLE_MAIN.replace(
    "    return sampler.test(weights, batches, conditional=conditional)\n",
    "    return [\n"
    "        sampler.test(weights, batches, conditional=c, use_vertical=True)\n"
    '        for c in ("none", conditional)\n'
    "    ]\n",
)


@pytest.mark.parametrize(
    ("sampler", "driver", "found"),
    [
        (_SAMPLER, _SAMPLE_MAIN, []),
        (_SHARED, _BOTH_WAYS, [("sampling/sampler.py", 42, "RTL403")]),
    ],
)
def test_calls_on_the_arms_of_a_fixed_mode_pair_only_through_a_shared_jit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sampler: str, driver: str, found: list
) -> None:
    _project(
        tmp_path,
        {"sampling/__init__.py": "", "sampling/sampler.py": sampler, "main.py": driver},
    )
    monkeypatch.chdir(tmp_path)
    shown = _run("--confidence", "all")
    assert [(f["path"], f["line"], f["code"]) for f in shown] == found
    if found:
        assert shown[0]["message"].startswith("'label' gets None here but an array at line 40")
