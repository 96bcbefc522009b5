"""A static field of a registered dataclass that a method of the class computes anew (``epoch=self.epoch
+ 1``) inside the jitted step, which only calls that method: every call passes a treedef the cache
has not seen, so the step traces on every call (RTL201). Told where the class makes the field
static, as nothing in the jitted body writes it; the same counter as a leaf traces once and stays
clean. The step is a nested def a factory jits, or a method of a trainer jitted in ``__init__``;
the loop a ``for`` or a ``while``."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _write, needs_jax

SCHEDULE = {
    "schedule.py": '''\
"""A cosine schedule's state: the rate is a leaf, the epoch count bookkeeping."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Schedule:
    rate: jax.Array
    epoch: int = dataclasses.field(@FIELD@)

    def advance(self, total):
        rate = 0.5 * (1.0 + jnp.cos(jnp.pi * (self.epoch + 1) / total)) * self.rate
        return dataclasses.replace(self, rate=rate, epoch=self.epoch + 1)
''',
}

FACTORY = {
    **SCHEDULE,
    "run.py": '''\
"""Step a schedule with a step a factory jits."""

import jax
import jax.numpy as jnp

from schedule import Schedule


def make_step(total):
    @jax.jit
    def step(schedule, grads):
        return schedule.advance(total), grads * schedule.rate

    return step


def main(epochs=4):
    schedule = Schedule(rate=jnp.asarray(0.1, jnp.float32), epoch=0)
    step = make_step(epochs)
    for _ in range(epochs):
        schedule, scaled = step(schedule, jnp.ones(3))
    return schedule


if __name__ == "__main__":
    main()
''',
}

TRAINER = {
    **SCHEDULE,
    "run.py": '''\
"""Step a schedule with a trainer's jitted method."""

import jax
import jax.numpy as jnp

from schedule import Schedule


class Trainer:
    def __init__(self, total):
        self.total = total
        self._step = jax.jit(self.step)

    def step(self, schedule, grads):
        return schedule.advance(self.total), grads * schedule.rate

    def fit(self, schedule):
        i = 0
        while i < self.total:
            schedule, _ = self._step(schedule, jnp.ones(3))
            i += 1
        return schedule


if __name__ == "__main__":
    Trainer(4).fit(Schedule(rate=jnp.asarray(0.1, jnp.float32), epoch=0))
''',
}

_STATIC = "metadata=dict(static=True)"


def _projects(tmp_path: Path) -> dict[str, Path]:
    return {
        "factory_static": _write(tmp_path / "factory_static", FACTORY, FIELD=_STATIC),
        "factory_leaf_fixed": _write(tmp_path / "factory_leaf_fixed", FACTORY, FIELD=""),
        "trainer_static": _write(tmp_path / "trainer_static", TRAINER, FIELD=_STATIC),
        "trainer_leaf_fixed": _write(tmp_path / "trainer_leaf_fixed", TRAINER, FIELD=""),
    }


# Told at the field the class makes static.
EXPECTED = {
    "factory_static": [("schedule.py", 13, "RTL201")],
    "trainer_static": [("schedule.py", 13, "RTL201")],
}
RUNS = {"factory": ("run.py", "step"), "trainer": ("run.py", "step")}
# Traced once per call: four calls of each positive.
_CALLS = 4


def test_a_static_field_a_helper_recomputes_is_told_at_the_field(tmp_path: Path) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    from dynamic_support import count_retraces_many

    projects = _projects(tmp_path)
    reports = count_retraces_many([p / "run.py" for p in projects.values()], cwd=tmp_path)
    for name, report in zip(projects, reports, strict=True):
        traces = {f.name: n for f, n in report.traces.items()}
        expected = _CALLS if name in EXPECTED else 1
        assert traces.get("step") == expected, (name, report.summary())
