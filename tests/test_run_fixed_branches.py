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


# A static argument the jitted body reads as a length (``perm[:num]``) cannot be made traced: each
# value is another output shape (evogo's ``sort_select``). A loop count (``range(steps)``) can, as
# ``lax.fori_loop``'s bound, and a number used as data can.
_UTILS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["num"])
def sort_select(xs, ys, num=None):
    if num is None:
        num = len(xs) // 2
    perm = jnp.argsort(ys)
    return xs[perm[:num]], ys[perm[:num]]


@partial(jax.jit, static_argnames=["size"])
def first_hits(ys, size):
    return jnp.nonzero(ys > 0, size=size)[0]


@partial(jax.jit, static_argnames=["steps"])
def smooth(ys, steps):
    for _ in range(steps):
        ys = 0.5 * (ys + jnp.roll(ys, 1))
    return ys


@partial(jax.jit, static_argnums=(1,))
def scaled(ys, factor):
    return ys * factor
"""

_SEARCH = """\
import jax
import jax.numpy as jnp

from evo.utils import first_hits, scaled, smooth, sort_select


def optimise(key, num_iters=200, pop=64):
    xs = jax.random.normal(key, (pop, 4))
    ys = jnp.sum(xs**2, axis=1)
    for it in range(num_iters):
        key, sub = jax.random.split(key)
        keep = int(jnp.count_nonzero(ys <= jnp.median(ys)).item())
        best_x, best_y = sort_select(xs, ys, num=keep)
        hits = first_hits(best_y, keep)
        best_y = smooth(best_y, it % 7 + 1)
        best_y = scaled(best_y, it) + hits.sum()
        xs = jnp.concatenate([best_x, jax.random.normal(sub, (pop - keep, 4))])
        ys = jnp.concatenate([best_y, jnp.sum(xs[keep:] ** 2, axis=1)])
    return xs, ys


if __name__ == "__main__":
    optimise(jax.random.PRNGKey(0))
"""


def test_a_static_length_is_padded_and_masked_not_made_traced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, {"evo/__init__.py": "", "evo/utils.py": _UTILS, "evo/search.py": _SEARCH})
    monkeypatch.chdir(tmp_path)
    found = {f["line"]: f for f in _run()}
    assert {line: f["code"] for line, f in found.items()} == {
        13: "RTL201",
        14: "RTL201",
        15: "RTL201",
        16: "RTL201",
    }
    for line in (13, 14):  # a slice length, ``size=``
        assert found[line]["message"].endswith("re-traces; pad to a fixed size and mask")
        assert "cannot be made traced" in found[line]["fix"]
    for line in (15, 16):  # a loop count, a factor
        assert found[line]["message"].endswith("re-traces; make it traced")


# The rebuild per call of a function that a script's epoch loop calls ``num_epochs = 10`` times is
# bounded by that count, and the message says it (FabricPC's ``evaluate_pcn``); a count given at run
# time bounds nothing.
_EVALUATE = """\
import jax
import jax.numpy as jnp


def eval_step(params, batch, structure):
    logits = batch["x"] @ params["w"] + structure["bias"]
    return jnp.mean(jnp.argmax(logits, -1) == batch["y"])


def evaluate(params, structure, loader):
    jit_eval_step = jax.jit(lambda p, b: eval_step(p, b, structure))
    scores = [jit_eval_step(params, batch) for batch in loader]
    return sum(float(s) for s in scores) / len(scores)
"""

_EPOCHS = """\
import jax.numpy as jnp

from training.evaluate import evaluate

num_epochs = 10
params = {"w": jnp.zeros((4, 3))}
structure = {"bias": jnp.zeros(3)}
loader = [{"x": jnp.ones((8, 4)), "y": jnp.zeros(8, dtype=jnp.int32)} for _ in range(5)]

if __name__ == "__main__":
    for epoch in range(num_epochs):
        params = {"w": params["w"] + 0.1}
        print(epoch, evaluate(params, structure, loader))
"""


@pytest.mark.parametrize(
    ("epochs", "severity", "tail"),
    [
        ("num_epochs", "warning", "(at most 10 traces: one per listed item)"),
        ("int(input())", "error", "build the jit once"),
    ],
)
def test_a_rebuild_per_epoch_of_a_listed_count_says_the_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, epochs: str, severity: str, tail: str
) -> None:
    script = _EPOCHS.replace("range(num_epochs)", f"range({epochs})")
    files = {"training/__init__.py": "", "training/evaluate.py": _EVALUATE, "train.py": script}
    _project(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    found = _run()
    assert [(f["path"], f["line"], f["severity"]) for f in found] == [
        ("training/evaluate.py", 11, severity)
    ]
    assert found[0]["message"].endswith(tail)
