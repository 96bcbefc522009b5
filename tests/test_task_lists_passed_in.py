"""Task lists that reach their loop through a parameter are as fixed as those walked directly
(issue 36, round 32 S1-S2): a validation that builds one env per task of
``tuple(itertools.product(SIZES, SHIFTS))``, passed in and walked through ``enumerate``, steps each env
many times through a jit whose ``self`` is static, and a trainer builds one jitted collector per task of a
tuple of task settings, passed in, and reuses each for every update. Each task is traced once: held back
as a sweep of fixed points, as when the loop walks the tuple itself. Their twins stay errors: tasks
gathered from the batches of a loader.

A flow-matching trainer draws times shaped by the batch of two PyTorch ``DataLoader``s kept without
``drop_last`` (``batch.shape[0]``, zipped): the full batches and the short last one, two shapes, a
warning that tells it (round 31 S1); sizes read from a file stay an error. One loader walked alone is
reported once, at the loader (RTL103, with the cap), the times shaped by its batch its related
finding (cause 8); the same loader dropping its last batch is clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_ENV = """\
from functools import partial

import jax
import jax.numpy as jnp



class RingEnv:
    def __init__(self, size):
        self.size = size

    def reset(self):
        return jnp.zeros(self.size).at[0].set(1.0)

    @partial(jax.jit, static_argnames=("self",))
    def step(self, state, action):
        return jnp.roll(state, action)
"""

_EVALUATE = """\
import itertools

from tasks import env as envs

SIZES = (4, 8, 16)
SHIFTS = (1, 2)
VALIDATION_TASKS = tuple(itertools.product(SIZES, SHIFTS))


def make_env(size, config):
    return envs.RingEnv(size)


def validate(config, tasks):
    results = []
    for task_index, (size, shift) in enumerate(tasks):
        env = make_env(size, config)
        state = env.reset()
        for _ in range(config["MAX_STEPS"]):
            state = env.step(state, shift)
        results.append(float(state.sum()))
    return results


def validate_seen(config, loader):
    tasks = []
    for batch in loader:
        tasks.append((batch.shape[0], 1))
    for task_index, (size, shift) in enumerate(tasks):
        env = make_env(size, config)
        state = env.reset()
        state = env.step(state, shift)
    return state


if __name__ == "__main__":
    print(validate({"MAX_STEPS": 100}, VALIDATION_TASKS))
"""

_ROLLOUT = """\
import jax
import jax.numpy as jnp



def build_collector(config, size):
    def collect(params, state):
        return state * params + jnp.arange(size) * config["SCALE"]

    return jax.jit(collect)


def build_task_context(task, config):
    return {
        "task": task,
        "collector": build_collector(config, task["size"]),
        "state": jnp.zeros(task["size"]),
    }
"""

_TRAIN = """\
import jax.numpy as jnp

from ppo import rollout

TRAIN_TASKS = ({"size": 4}, {"size": 8}, {"size": 16})


def train(config, tasks, num_updates):
    contexts = [rollout.build_task_context(task, config) for task in tasks]
    params = jnp.float32(1.0)
    for _ in range(num_updates):
        for context in contexts:
            context["state"] = context["collector"](params, context["state"])
    return contexts


if __name__ == "__main__":
    train({"SCALE": 0.5}, TRAIN_TASKS, num_updates=50)
"""

_TRAIN_SEEN = """\
import jax.numpy as jnp

from ppo import rollout


def train_on_seen(config, loader, num_updates):
    for batch in loader:
        context = rollout.build_task_context({"size": batch.shape[0]}, config)
        context["collector"](jnp.float32(1.0), context["state"])
"""

_FLOW_MODEL = """\
import jax
import jax.numpy as jnp


@jax.jit
def loss_fn(params, x0, x1, t):
    xt = (1 - t) * x0 + t * x1
    return jnp.mean((xt @ params - (x1 - x0)) ** 2)
"""

_FLOW_TRAIN = """\
import jax
import numpy as np
from torch.utils.data import DataLoader

from flows.model import loss_fn


def train(epochs=10, batch_size=256):
    p0 = np.random.randn(4000, 2).astype(np.float32)
    p1 = np.random.randn(4000, 2).astype(np.float32)
    loader_p0 = DataLoader(p0, batch_size=batch_size, shuffle=True)
    loader_p1 = DataLoader(p1, batch_size=batch_size, shuffle=True)
    params = np.eye(2, dtype=np.float32)
    key = jax.random.PRNGKey(0)
    for _ in range(epochs):
        for batch_p0, batch_p1 in zip(loader_p0, loader_p1):
            key, key_t = jax.random.split(key)
            t = jax.random.uniform(key_t, shape=(batch_p0.shape[0], 1))
            loss = loss_fn(params, batch_p0.numpy(), batch_p1.numpy(), t)
    return loss


def train_sizes(sizes):
    key = jax.random.PRNGKey(0)
    params = np.eye(2, dtype=np.float32)
    for n in sizes:
        batch = np.random.randn(n, 2).astype(np.float32)
        t = jax.random.uniform(key, shape=(batch.shape[0], 1))
        loss_fn(params, batch, batch, t)


if __name__ == "__main__":
    train()
    train_sizes([int(s) for s in open("sizes.txt").read().split()])
"""

# One loader walked alone: RTL103 tells its short last batch at the loader, and the times shaped by
# the batch are that batch again, told there too.
_FLOW_TRAIN_ONE = """\
import jax
import numpy as np
from torch.utils.data import DataLoader

from flows.model import loss_fn


def train_paired(epochs=10, batch_size=256):
    pairs = np.random.randn(4000, 2, 2).astype(np.float32)
    loader = DataLoader(pairs, batch_size=batch_size, shuffle=True@DROP@)
    params = np.eye(2, dtype=np.float32)
    key = jax.random.PRNGKey(0)
    for _ in range(epochs):
        for batch in loader:
            key, key_t = jax.random.split(key)
            t = jax.random.uniform(key_t, shape=(batch.shape[0], 1))
            loss = loss_fn(params, batch[:, 0], batch[:, 1], t)
    return loss


if __name__ == "__main__":
    train_paired()
"""

_PROJECT = {
    "tasks/__init__.py": "",
    "tasks/env.py": _ENV,
    "evaluate.py": _EVALUATE,
    "ppo/__init__.py": "",
    "ppo/rollout.py": _ROLLOUT,
    "train_multitask.py": _TRAIN,
    "flows/__init__.py": "",
    "flows/model.py": _FLOW_MODEL,
    "flows/train.py": _FLOW_TRAIN,
}


def _found(root: Path, *args: str) -> dict[tuple[str, int], dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, str(root)])
    assert result.exit_code == 1, result.output
    return {
        (Path(f["path"]).relative_to(root).as_posix(), f["line"]): f
        for f in json.loads(result.stdout)
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, text in _PROJECT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path.resolve()


def test_tasks_passed_in_are_a_sweep_of_fixed_points(project: Path) -> None:
    shown = _found(project)
    assert ("evaluate.py", 20) not in shown
    assert ("ppo/rollout.py", 10) not in shown
    held = _found(project, "--confidence", "all")
    per_env, per_task = held["evaluate.py", 20], held["ppo/rollout.py", 10]
    assert (per_env["code"], per_env["severity"], per_env["confidence"]) == (
        "RTL204",
        "warning",
        "low",
    )
    assert "a sweep over 6 fixed points" in per_env["assumptions"][0]["text"]
    assert (per_task["code"], per_task["severity"], per_task["confidence"]) == (
        "RTL301",
        "warning",
        "low",
    )
    assert 'task["size"]' in per_task["assumptions"][0]["text"]


def test_tasks_gathered_from_data_stay_errors(project: Path) -> None:
    (project / "train_seen.py").write_text(_TRAIN_SEEN, encoding="utf-8")
    shown = _found(project)
    per_batch_env, per_batch_task = shown["evaluate.py", 32], shown["ppo/rollout.py", 10]
    assert (per_batch_env["code"], per_batch_env["severity"]) == ("RTL204", "error")
    assert (per_batch_task["code"], per_batch_task["severity"]) == ("RTL301", "error")
    assert "build_collector()" in per_batch_task["message"]


def test_a_loaders_last_batch_is_one_more_shape(project: Path) -> None:
    shown = _found(project)
    last_batch, from_file = shown["flows/train.py", 18], shown["flows/train.py", 27]
    assert (last_batch["code"], last_batch["severity"]) == ("RTL105", "warning")
    assert last_batch["message"].endswith(
        "(at most 2 traces: the full batches and the short last one)"
    )
    assert (from_file["code"], from_file["severity"]) == ("RTL105", "error")


def test_a_loaders_last_batch_is_told_once_at_the_loader(project: Path) -> None:
    """RTL103 at the loader and RTL105 at the times shaped by its batch are one cause: told at the
    loader, which names the fix, with the cap; the times' finding is its related one."""
    one = project / "flows" / "train_one.py"
    one.write_text(_FLOW_TRAIN_ONE.replace("@DROP@", ""), encoding="utf-8")
    told = {k: f for k, f in _found(project).items() if k[0] == "flows/train_one.py"}
    assert list(told) == [("flows/train_one.py", 10)]
    loader = told["flows/train_one.py", 10]
    assert (loader["code"], loader["severity"]) == ("RTL103", "warning")
    assert loader["bound"] == "at most 2 traces: the full batches and the short last one"
    assert "and 1 more of this cause: line 16" in loader["message"]
    assert [(r["code"], r["line"]) for r in loader["related"]] == [("RTL105", 16)]
    # Told alone where the loader's finding is not selected: never lost to the fold.
    alone = _found(project, "--select", "RTL105")
    assert alone["flows/train_one.py", 16]["bound"] == loader["bound"]


def test_a_loader_dropping_its_last_batch_is_clean(project: Path) -> None:
    one = project / "flows" / "train_one.py"
    one.write_text(_FLOW_TRAIN_ONE.replace("@DROP@", ", drop_last=True"), encoding="utf-8")
    assert not [k for k in _found(project) if k[0] == "flows/train_one.py"]
