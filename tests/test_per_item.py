"""A jit (or a static object) made per item from the item, each item another problem traced once, is
no removable re-trace: building it once would trace as often, however many items (issue 36 cause 2,
round 32 S1/S2). Held back by default, shown under ``--confidence all`` with its ``per-item``
assumption; the same shapes where a build repeats with nothing new (a model built from the same
settings at every step, data closed over where an argument would do, a build per step within one
item) stay errors."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

PER_ITEM = "one trace per item, each item its own computation"

# A benchmark of a dense solver over sizes (a comprehension and a list joined: 18 of them) and tile
# sizes, timing six runs of a jit built per size; and an iterative refinement that rebuilds its jit
# at every step around a new scale it could take as an argument.
SOLVER = """\
import time
from functools import partial

import jax
import jax.numpy as jnp

N_RUNS = 5


def solve(a, b, tile, scale):
    return jnp.linalg.solve(a * scale, b)[:tile]


def time_solver(n, tile):
    solver = jax.jit(partial(solve, scale=2.0), static_argnums=2)
    a = jnp.eye(n)
    b = jnp.ones((n, 1))
    times = []
    for run in range(N_RUNS + 1):
        start = time.perf_counter()
        solver(a, b, tile).block_until_ready()
        if run > 0:
            times.append(time.perf_counter() - start)
    return times
"""
SWEEP = """\
from solvers.dense import time_solver

if __name__ == "__main__":
    for n in [2**i for i in range(4, 18)] + [58000, 140000, 200000, 280000]:
        for tile in (8, 16):
            print(n, tile, min(time_solver(n, tile)))
"""
REFINE = """\
import jax
import jax.numpy as jnp

from solvers.dense import solve


def refine(a, b, num_steps):
    x = b
    for step in range(num_steps):
        scale = jnp.float32(1.0 + 1.0 / (step + 1))
        solver = jax.jit(lambda a, b: solve(a, b, 4, scale))
        x = solver(a, x)
    return x


if __name__ == "__main__":
    refine(jnp.eye(8), jnp.ones((8, 1)), 1000)
"""

# A validation script: one ring env per task of a task list the command line may replace (its
# default normalised by a helper), each stepped for the episode; and a replay that makes an env of
# the configured size anew per recorded episode.
RING = """\
from functools import partial

import jax
import jax.numpy as jnp


class RingEnv:
    def __init__(self, size, max_steps):
        self.size = size
        self.max_steps = max_steps

    def reset(self):
        return jnp.zeros(self.size).at[0].set(1.0)

    @partial(jax.jit, static_argnames=("self",))
    def step(self, state, action):
        return jnp.roll(state, action) * (1.0 - 1.0 / self.max_steps)
"""
VALIDATE = """\
import argparse

from envs.ring import RingEnv

DEFAULT_VALIDATION_TASKS = (
    {"size": 4, "shift": 1},
    {"size": 8, "shift": 1},
    {"size": 16, "shift": 2},
    {"size": 32, "shift": 3},
)


def normalize_task_specs(task_specs, default_task_specs):
    raw_specs = default_task_specs if task_specs is None else task_specs
    normalized = []
    for spec in raw_specs:
        normalized.append({"size": int(spec["size"]), "shift": int(spec["shift"])})
    return normalized


def validate(config, validation_tasks):
    returns = []
    for task_index, task in enumerate(validation_tasks):
        env = RingEnv(task["size"], config["MAX_STEPS"])
        state = env.reset()
        for _ in range(config["MAX_STEPS"]):
            state = env.step(state, task["shift"])
        returns.append((task_index, float(state.sum())))
    return returns


def replay(config, episodes):
    totals = []
    for episode in episodes:
        env = RingEnv(config["SIZE"], config["MAX_STEPS"])
        state = env.reset()
        for action in episode:
            state = env.step(state, action)
        totals.append(float(state.sum()))
    return totals


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--validation-tasks", type=int, nargs=2, action="append")
    parser.add_argument("--max-steps", type=int, default=200)
    args = parser.parse_args()
    config = {"MAX_STEPS": args.max_steps, "SIZE": 8}
    tasks = normalize_task_specs(args.validation_tasks, DEFAULT_VALIDATION_TASKS)
    print(validate(config, tasks))
    print(replay(config, [[1, 2, 1]] * args.max_steps))


if __name__ == "__main__":
    main()
"""

# A multi-task trainer: one jitted rollout collector per task of a curriculum imported from the
# configuration module, built before the updates and reused by each; a policy rebuilt from the same
# configuration at every update.
ROLLOUT = """\
import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, config):
        self.scale = config["SCALE"]

    def act(self, params, obs):
        return jnp.tanh(obs * params) * self.scale


def build_collector(config, size):
    def collect(params, state):
        return state * params + jnp.arange(size) * config["SCALE"]

    return jax.jit(collect)


def build_task_context(task, config):
    return {
        "collector": build_collector(config, task["size"]),
        "state": jnp.zeros(task["size"]),
    }


def update_all(params, contexts):
    for context in contexts:
        context["state"] = context["collector"](params, context["state"])


def act_every_step(config, params, obs, num_updates):
    actions = []
    for _ in range(num_updates):
        policy = Policy(config)
        act = jax.jit(lambda p, o: policy.act(p, o))
        actions.append(act(params, obs))
    return actions
"""
TASK_CONFIG = """\
CURRICULUM = ({"size": 4}, {"size": 8}, {"size": 16}, {"size": 32})
"""
TRAIN = """\
import jax.numpy as jnp

from agents import rollout
from task_config import CURRICULUM


def train(config, tasks, num_updates):
    contexts = [rollout.build_task_context(task, config) for task in tasks]
    params = jnp.float32(1.0)
    for _ in range(num_updates):
        rollout.update_all(params, contexts)
    return contexts


if __name__ == "__main__":
    config = {"SCALE": 0.5}
    train(config, CURRICULUM, num_updates=500)
    rollout.act_every_step(config, jnp.float32(1.0), jnp.ones(3), num_updates=500)
"""
# The same builder called at every update within each task: one build per task serves them all.
REBUILDING = """\
import jax.numpy as jnp

from agents import rollout
from task_config import CURRICULUM


def train_rebuilding(config, tasks, num_updates):
    params = jnp.float32(1.0)
    for task in tasks:
        for _ in range(num_updates):
            context = rollout.build_task_context(task, config)
            context["collector"](params, context["state"])


if __name__ == "__main__":
    train_rebuilding({"SCALE": 0.5}, CURRICULUM, num_updates=500)
"""

Found = dict[tuple[str, int, str], tuple[str, str, list[str]]]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _found(project: Path, confidence: str) -> Found:
    """Each finding by file, line and rule: its severity, confidence and assumptions' texts."""
    run = analyse([str(project)], Settings(cache=False, confidence=confidence))
    return {
        (Path(f.location.path).relative_to(project).as_posix(), f.location.line, f.code): (
            f.severity,
            f.confidence,
            [a.text for a in f.assumptions],
        )
        for f in run.findings
        if f.code in ("RTL204", "RTL301")
    }


def _solver(tmp_path: Path) -> Path:
    files = {"solvers/__init__.py": "", "solvers/dense.py": SOLVER}
    return _write(tmp_path, {**files, "run_sweep.py": SWEEP, "refine.py": REFINE})


def test_a_jit_built_per_size_of_a_long_benchmark_sweep_is_held_back(tmp_path: Path) -> None:
    """18 sizes (more than a sweep's few spelled-out points): each size's solver is another
    program, traced once and timed six times; the refinement's jit rebuilt per step around a scale
    it could take as an argument is a removable re-trace per step: an error."""
    project = _solver(tmp_path)
    assert _found(project, "high") == {("refine.py", 11, "RTL301"): ("error", "high", [])}
    shown = _found(project, "all")
    assert shown[("solvers/dense.py", 15, "RTL301")] == (
        "warning",
        "low",
        [f"`n` sets the shapes it is called with: {PER_ITEM}"],
    )
    assert shown[("refine.py", 11, "RTL301")] == ("error", "high", [])


def test_a_static_env_per_task_of_a_command_line_task_list_is_held_back(tmp_path: Path) -> None:
    """The validation tasks are the command line's or, by default, the module's four (through a
    normalising helper): one env per task, stepped for the episode, each traced once. The replay's
    env is made from the same configured size for every episode: building it once removes every
    trace but the first, an error."""
    files = {"envs/__init__.py": "", "envs/ring.py": RING, "validate.py": VALIDATE}
    project = _write(tmp_path, files)
    assert _found(project, "high") == {("validate.py", 38, "RTL204"): ("error", "high", [])}
    assert _found(project, "all")[("validate.py", 27, "RTL204")] == (
        "warning",
        "low",
        [f"{PER_ITEM}: an object per item of `enumerate(validation_tasks)`"],
    )


def _trainer(tmp_path: Path, *extra: tuple[str, str]) -> Path:
    files = {"agents/__init__.py": "", "agents/rollout.py": ROLLOUT}
    files |= {"task_config.py": TASK_CONFIG, "train_multitask.py": TRAIN, **dict(extra)}
    return _write(tmp_path, files)


def test_a_collector_per_task_of_an_imported_curriculum_is_held_back(tmp_path: Path) -> None:
    """One collector per task of the curriculum the trainer imports, reused by 500 updates: four
    traces, the fewest there can be. The policy rebuilt from the same configuration at every
    update closes over nothing new: an error."""
    project = _trainer(tmp_path)
    assert _found(project, "high") == {("agents/rollout.py", 36, "RTL301"): ("error", "high", [])}
    assert _found(project, "all")[("agents/rollout.py", 17, "RTL301")] == (
        "warning",
        "low",
        [f'`task["size"]` makes another computation: {PER_ITEM}'],
    )


def test_a_collector_rebuilt_at_every_update_of_a_task_is_an_error(tmp_path: Path) -> None:
    """The same builder called at every update within a task: each task's collector is built 500
    times where once would do. That cause is proven, and the finding tells it."""
    project = _trainer(tmp_path, ("train_rebuilding.py", REBUILDING))
    found = _found(project, "high")
    assert found[("agents/rollout.py", 17, "RTL301")] == ("error", "high", [])
    assert found[("agents/rollout.py", 36, "RTL301")] == ("error", "high", [])
