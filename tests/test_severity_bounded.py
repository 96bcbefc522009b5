"""Re-traces that a run repeats only a bounded number of times are warnings, whatever rebuilds the jit
(issue 36: an error only when the re-traces grow with the run): a jit rebuilt per section of a run, per
field of a state, per configured setting of a benchmark (with its warm-up call), per item of a
progress-bar range over a few values. What grows with the run stays an error: an evaluation every few
steps, a progress-bar range over the steps. JAX agrees on the fixture: tests/test_fixtures_dynamic.py
runs it with 2 and 4 steps."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

FIXTURES = Path(__file__).parent / "fixtures"


def _severities(project: Path) -> dict[tuple[str, int, str], str]:
    run = analyse([str(project)], Settings(cache=False))
    return {(Path(f.location.path).name, f.location.line, f.code): f.severity for f in run.findings}


def test_bounded_rebuilt_jits_are_warnings_an_evaluation_per_step_an_error() -> None:
    assert _severities(FIXTURES / "bounded_rebuilt_jits") == {
        # teacher copied at `step % (max_steps // sections) == 0`: once per section
        ("distill.py", 21, "RTL301"): "warning",
        # evaluated every `eval_every` steps: grows with the run
        ("evaluation.py", 6, "RTL301"): "error",
        # per field of a NamedTuple: zip(state._fields, state)
        ("sharding.py", 18, "RTL301"): "warning",
        # a warm-up and a timed call per configuration of a generator over default settings
        ("benchmark.py", 18, "RTL301"): "warning",
    }


_LOOPS = """\
import jax
from tqdm import trange
from tqdm.auto import trange as progress_range


def train(state, steps):
    for step in trange(1, steps + 1, desc="train"):
        state = jax.jit(lambda s: s + 1.0)(state)
    return state


def seeds(state):
    for seed in progress_range(3, desc="seeds"):
        state = jax.jit(lambda s: s * 2.0)(state)
    return state
"""

_MAIN = """\
import sys

import jax.numpy as jnp
from loops import seeds, train

if __name__ == "__main__":
    state = seeds(jnp.ones(3))
    print(train(state, int(sys.argv[1])))
"""


def test_a_progress_bar_range_counts_as_its_range(tmp_path: Path) -> None:
    """``tqdm.trange(3)`` walks three values, as ``range(3)`` does: a warning; ``trange(1, steps +
    1)`` walks the steps of the run: an error."""
    (tmp_path / "loops.py").write_text(_LOOPS, encoding="utf-8")
    (tmp_path / "main.py").write_text(_MAIN, encoding="utf-8")
    assert _severities(tmp_path) == {
        ("loops.py", 8, "RTL301"): "error",
        ("loops.py", 14, "RTL301"): "warning",
    }


_TRAIN = """\
import jax
import jax.numpy as jnp


def copy(params):
    return jax.tree_util.tree_map(jnp.copy, params)


def epoch(params, steps_per_epoch, sections):
    for step in range(steps_per_epoch):
        params = {"w": params["w"] * 0.9}
        if step % (steps_per_epoch // sections) == 0:
            params = jax.jit(lambda p: copy(p))(params)
    return params


def fit(params, epochs, steps_per_epoch, log_every):
    for _ in range(epochs):
        params = epoch(params, steps_per_epoch, 2)
    for step in range(steps_per_epoch * epochs):
        if step % (log_every // 2) == 0:
            params = jax.jit(lambda p: copy(p))(params)
    return params


def pairs(loader_a, loader_b):
    for a, b in zip(loader_a, loader_b):
        jax.jit(lambda x: x + b)(a)
"""

_FIT = """\
import sys

import jax.numpy as jnp
from train import fit, pairs


def batches():
    while True:
        yield jnp.ones(3)


if __name__ == "__main__":
    print(fit({"w": jnp.ones(3)}, int(sys.argv[1]), 10, 4))
    pairs(batches(), batches())
"""


def test_sections_of_a_repeated_loop_or_of_another_count_and_zips_of_streams_stay_errors(
    tmp_path: Path,
) -> None:
    """Sections of each epoch's steps repeat with the epochs; ``step % (log_every // 2)`` does not
    divide the loop's own count into sections; a zip of two streams runs as long as they do."""
    (tmp_path / "train.py").write_text(_TRAIN, encoding="utf-8")
    (tmp_path / "main.py").write_text(_FIT, encoding="utf-8")
    assert _severities(tmp_path) == {
        ("train.py", 13, "RTL301"): "error",
        ("train.py", 22, "RTL301"): "error",
        ("train.py", 28, "RTL301"): "error",
    }


_REGISTRY = """\
import functools
from typing import NamedTuple


class Task(NamedTuple):
    name: str
    cond_fn: object


def _mask(x, keep):
    return x[:, :keep]


def get_task_registry(config):
    return {
        "full": Task("full", functools.partial(_mask, keep=4)),
        "half": Task("half", functools.partial(_mask, keep=2)),
    }
"""

_MULTITASK = """\
import functools

import jax
import jax.numpy as jnp
from registry import get_task_registry


@functools.partial(jax.jit, static_argnums=(1,))
def tokenize(x, cond_fn):
    return cond_fn(x)


def train(config, total_steps):
    task_reg = get_task_registry(config)
    task_ids = config.get("tasks", ("full",))
    rng = jax.random.PRNGKey(0)
    x = jnp.ones((2, 8))
    for step in range(total_steps):
        with jax.named_scope("train"):
            task_idx = jax.random.choice(jax.random.fold_in(rng, step), len(task_ids))
            task = task_reg[task_ids[task_idx]]
        print(tokenize(x, task.cond_fn).shape)


@functools.partial(jax.jit, static_argnums=(1,))
def scale(x, factor):
    return x * factor


def train_schedules(total_steps):
    x = jnp.ones((2, 8))
    names = ["warmup"]
    factors = {"warmup": 1}
    for step in range(total_steps):
        names.append(f"phase{step}")
        factors[names[-1]] = step + 2
        factor = factors[names[step]]
        print(scale(x, factor).sum())


if __name__ == "__main__":
    train({"tasks": ("full", "half")}, 10)
    train_schedules(10)
"""


def test_a_static_task_picked_from_a_registry_is_a_warning(tmp_path: Path) -> None:
    """``task = task_reg[task_ids[i]]`` each step (under a ``with``): one of the configured tasks,
    one trace each however long the run, a warning. A table the loop adds keys and items to gives
    a new value each step: an error."""
    (tmp_path / "registry.py").write_text(_REGISTRY, encoding="utf-8")
    (tmp_path / "multitask.py").write_text(_MULTITASK, encoding="utf-8")
    assert _severities(tmp_path) == {
        ("multitask.py", 22, "RTL201"): "warning",
        ("multitask.py", 38, "RTL201"): "error",
    }


def test_a_list_rebuilt_from_itself_is_walked_without_end(tmp_path: Path) -> None:
    """``images = [resize(i) for i in images]`` names itself: following a name to the comprehension
    bound to it goes one step, not round the cycle (which ended in RTL000 "nested too deeply")."""
    (tmp_path / "resize.py").write_text(
        "import jax\nimport jax.numpy as jnp\n\n\n"
        "def resize_all(images, size):\n"
        "    images = [jnp.resize(i, (size, size)) for i in images]\n"
        "    masks = [m for m in zip(images, images)]\n"
        "    for image in images:\n"
        "        jax.jit(lambda x: x * 2)(image)\n"
        "    return masks\n",
        encoding="utf-8",
    )
    assert _severities(tmp_path) == {("resize.py", 9, "RTL301"): "error"}


_LINESEARCH = """\
import jax
from jax.tree_util import Partial


def loop_helper(carry, actual_function):
    return actual_function(carry)


def one_step(carry, scale):
    return (carry[0] * scale, carry[1] + 1)


def not_done(carry, limit):
    return carry[1] < limit


def search(x, scale, limit):
    step = Partial(one_step, scale=scale)
    step = Partial(loop_helper, actual_function=step)
    done = Partial(not_done, limit=limit)
    return jax.lax.while_loop(done, step, (x, 0))
"""


def test_a_name_rebound_to_a_partial_of_itself_is_followed_once(tmp_path: Path) -> None:
    """``step = Partial(helper, actual_function=step)`` names itself through the partial it binds:
    the function a partial binds is followed with the names already followed, so the module is
    analysed (it ended in RTL000 "nested too deeply") and the loop's new functions are found."""
    (tmp_path / "linesearch.py").write_text(_LINESEARCH, encoding="utf-8")
    (tmp_path / "fit.py").write_text(
        "import jax.numpy as jnp\nfrom linesearch import search\n\n"
        "for k in range(3):\n"
        "    print(search(jnp.ones(4), 0.5, 10 + k))\n",
        encoding="utf-8",
    )
    assert _severities(tmp_path) == {("linesearch.py", 21, "RTL301"): "warning"}
