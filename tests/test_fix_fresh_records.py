"""RTL204's fix made once (issue 41) for a record of functions a factory makes at each call: an
optax-style ``NamedTuple`` of defs nested in the factory (``Schedule(init, rate)``), passed static. Its
fields are called (``schedule.init(params)``), which changes nothing when no nested def changes what
it closes over, so one record made at module level serves every call; a def that appends to a list
of the factory would carry that list across calls, and the fix is left with the reason. Projects
over two modules, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix_closures import lint, project

SCHEDULES = '''\
"""Learning-rate schedules as records of pure functions, optax style."""

from typing import Callable, NamedTuple

import jax.numpy as jnp


class Schedule(NamedTuple):
    init: Callable
    rate: Callable


def warmup_cosine(peak, warmup, total):
    def init(params):
        return jnp.zeros(())

    def rate(count):
        ramp = peak * jnp.minimum(count / warmup, 1.0)
        return ramp * 0.5 * (1.0 + jnp.cos(jnp.pi * jnp.minimum(count / total, 1.0)))

    return Schedule(init, rate)
'''

TRAIN = """\
from functools import partial

import jax
import jax.numpy as jnp
import schedules


@partial(jax.jit, static_argnames=("schedule",))
def sgd_step(w, count, x, y, schedule):
    grad = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - schedule.rate(count) * grad, count + 1


def fit(seed, steps=5):
    x = jax.random.normal(jax.random.PRNGKey(seed), (16, 3))
    y = x @ jnp.array([0.5, -1.0, 2.0])
    schedule = schedules.warmup_cosine(0.1, 2, 5)  # a new record, new functions, each fit
    w, count = jnp.zeros(3), schedule.init(None)
    for _ in range(steps):
        w, count = sgd_step(w, count, x, y, schedule=schedule)
    return w


for seed in range(3):
    print([round(float(v), 4) for v in fit(seed)])
"""


@pytest.fixture
def trainer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return project(tmp_path, monkeypatch, {"schedules.py": SCHEDULES, "train.py": TRAIN})


FIXED = TRAIN.replace(
    "\n\ndef fit(seed", "\n\nSCHEDULE = schedules.warmup_cosine(0.1, 2, 5)\n\n\ndef fit(seed", 1
).replace("    schedule = schedules.warmup_cosine(0.1, 2, 5)  #", "    schedule = SCHEDULE  #", 1)


@pytest.mark.parametrize(
    "imported",
    [
        ("import schedules\n", "schedules.warmup_cosine"),
        ("from schedules import warmup_cosine\n", "warmup_cosine"),
    ],
)
def test_a_record_of_pure_functions_made_per_call_is_made_once(
    trainer: Path, imported: tuple[str, str]
) -> None:
    statement, called = imported
    train = TRAIN.replace("import schedules\n", statement).replace(
        "schedules.warmup_cosine", called
    )
    (trainer / "train.py").write_text(train, encoding="utf-8")
    assert "RTL204" in lint(".").output
    assert "1 hidden fix can be enabled" in lint("--fix", ".").stderr
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    fixed = FIXED.replace("import schedules\n", statement).replace(
        "schedules.warmup_cosine", called
    )
    assert (trainer / "train.py").read_text() == fixed
    assert (trainer / "schedules.py").read_text() == SCHEDULES
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (trainer / "train.py").read_text() == fixed


@pytest.mark.parametrize(
    "edit",
    [
        # a def that appends to a list the factory made: one record would keep it between fits
        (
            ("    def init(params):", "    seen = []\n\n    def init(params):"),
            ("    def rate(count):\n", "    def rate(count):\n        seen.append(count)\n"),
        ),
        # a class of its own, not an immutable record: what its methods change is not followed
        (
            (
                "class Schedule(NamedTuple):\n    init: Callable\n    rate: Callable\n",
                "class Schedule:\n    def __init__(self, init, rate):\n"
                "        self.init, self.rate = init, rate\n",
            ),
        ),
    ],
)
def test_a_record_that_calling_may_change_is_left_with_the_reason(
    trainer: Path, edit: tuple[tuple[str, str], ...]
) -> None:
    schedules = SCHEDULES
    for old, new in edit:
        schedules = schedules.replace(old, new, 1)
    (trainer / "schedules.py").write_text(schedules, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (
        "RTL204 not fixed: schedule is changed after it is made: one shared object would carry that"
        in result.stderr
    ), result.stderr
    assert (trainer / "train.py").read_text() == TRAIN
