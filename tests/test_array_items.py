"""Dtype flips of issue 39 that come in through what a loop takes from an array or a caller.

Items of NumPy and typed arrays keep the array's dtype: iterating a schedule (``for
temperature in cooling(...)``, a helper's ``np.linspace``) or unpacking a pair (``damping, dt =
np.array([0.9, 0.1])``) gives NumPy float64 scalars, strongly typed, which widen a float32 state to
float64 under x64 in the jitted step that takes them. The state may be a dict of alike leaves that a
``tree_map`` updates (kept on an object by a method) or a NamedTuple advanced in a ``while`` loop;
each positive is found where its float32 start is made. Its twins stay clean: the schedule made in
float32, its ``.tolist()`` (Python floats, weakly typed), and the positive run without x64 (float64
is float32 there).

A NamedTuple state that a method gets as a parameter and folds in a ``while`` loop is typed field by
field where its caller's factory makes it: an int32 count that the jitted step gives back float32
(``stats.seen + batch.shape[0] * 0.5``) is found at the factory's ``jnp.zeros``; its twins (the
count made float32, or grown by an int) stay clean.

A dict an object's ``__init__`` stores (``self.metrics = {"loss": ...}``) and a method stores back
from a jitted function that adds keys (``{**metrics, "acc": acc}``, or ``metrics["acc"] = acc`` on a
copy) is a structure flip told at that store; started with every key, it stays clean.

Checked under jax 0.10.2: each positive traces its step twice, each twin once."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_promoted_results import _found, _write

X64 = 'jax.config.update("jax_enable_x64", True)'

# A spin-glass annealer: an object keeps its couplings (a dict of float32 leaves made in the model's
# module) and relaxes them once per temperature of a schedule that another module makes.
ANNEAL = {
    "schedule.py": '''\
"""A cooling schedule for the annealer."""

import numpy as np


def cooling(start, stop, steps):
    return @SCHEDULE@
''',
    "model.py": '''\
"""Couplings of a small spin glass, relaxed toward lower energy at each temperature."""

import jax
import jax.numpy as jnp


def init_couplings(n):
    return {"field": jnp.zeros(n, jnp.float32), "spins": jnp.ones(n, dtype=jnp.float32)}


@jax.jit
def relax(couplings, temperature):
    return jax.tree_util.tree_map(lambda c: c - temperature * jnp.tanh(c), couplings)
''',
    "main.py": '''\
"""Anneal the couplings down the schedule."""

import jax

@X64@

from model import init_couplings, relax  # noqa: E402
from schedule import cooling  # noqa: E402


class Annealer:
    def __init__(self, n, steps):
        self.couplings = init_couplings(n)
        self.steps = steps

    def run(self):
        for temperature in cooling(1.0, 0.1, self.steps):
            self.couplings = relax(self.couplings, temperature)
        return self.couplings


if __name__ == "__main__":
    Annealer(8, 4).run()
''',
}

# The same annealer holding its schedule, made in ``__init__``, on itself.
HELD = {
    "model.py": ANNEAL["model.py"],
    "main.py": '''\
"""Anneal the couplings down a schedule the annealer holds."""

import jax
import numpy as np

@X64@

from model import init_couplings, relax  # noqa: E402


class Annealer:
    def __init__(self, n, steps):
        self.couplings = init_couplings(n)
        self.temperatures = @SCHEDULE@

    def run(self):
        for temperature in self.temperatures:
            self.couplings = relax(self.couplings, temperature)
        return self.couplings


if __name__ == "__main__":
    Annealer(8, 4).run()
''',
}

# A damped walker, a NamedTuple made in its own module, stepped in a while loop with a damping and a
# time step unpacked from one NumPy pair.
WALKER = {
    "walker.py": '''\
"""A damped walker and its jitted step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Walker(NamedTuple):
    pos: jax.Array
    vel: jax.Array


def start(n):
    return Walker(jnp.zeros(n, jnp.float32), jnp.ones(n, jnp.float32))


@jax.jit
def step(walker, damping, dt):
    vel = walker.vel * damping
    return Walker(walker.pos + dt * vel, vel)
''',
    "main.py": '''\
"""Walk until the walker slows down."""

import jax
import numpy as np

@X64@

from walker import start, step  # noqa: E402


def walk(n, steps):
    damping, dt = @PAIR@
    walker = start(n)
    t = 0
    while t < steps:
        walker = step(walker, damping, dt)
        t += 1
    return walker


if __name__ == "__main__":
    walk(4, 3)
''',
}


# Running statistics folded batch by batch by a monitor's method, in a while loop, from a state its
# caller makes with another module's factory.
RUNNING = {
    "stats.py": '''\
"""Running statistics of a stream of batches."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Running(NamedTuple):
    seen: jax.Array
    total: jax.Array


def fresh():
    return Running(jnp.zeros((), @COUNT@), jnp.zeros((), jnp.float32))


@jax.jit
def absorb(stats, batch):
    return Running(stats.seen + @GROWTH@, stats.total + batch.sum())
''',
    "monitor.py": '''\
"""A monitor that folds every batch of a stream into the statistics it is handed."""

import jax.numpy as jnp

from stats import absorb


class Monitor:
    def __init__(self, batches):
        self.batches = batches

    def fold(self, stats):
        i = 0
        while i < len(self.batches):
            stats = absorb(stats, self.batches[i])
            i += 1
        return stats


def stream(n=3):
    return [jnp.ones(4, jnp.float32) * k for k in range(n)]
''',
    "main.py": '''\
"""Watch a stream."""

from monitor import Monitor, stream
from stats import fresh


def main():
    return Monitor(stream()).fold(fresh())


if __name__ == "__main__":
    main()
''',
}


# A tracker object keeps the epoch's metrics; its method stores back what a jitted fold in another
# module gives back.
TRACKER = {
    "metrics.py": '''\
"""Evaluation metrics, folded batch by batch in a jitted function."""

import jax
import jax.numpy as jnp


@jax.jit
def fold(metrics, logits, labels):
@BODY@
''',
    "tracker.py": '''\
"""A tracker object that keeps the metrics of the current epoch."""

import jax.numpy as jnp

from metrics import fold


class Tracker:
    def __init__(self):
        self.metrics = @START@

    def update(self, logits, labels):
        self.metrics = fold(self.metrics, logits, labels)
''',
    "main.py": '''\
"""Evaluate a few batches."""

import jax
import jax.numpy as jnp

from tracker import Tracker


def main(batches=3):
    tracker = Tracker()
    key = jax.random.PRNGKey(0)
    for _ in range(batches):
        key, sub = jax.random.split(key)
        logits = jax.random.normal(sub, (8, 4))
        tracker.update(logits, jnp.zeros(8, jnp.int32))
    return tracker.metrics


if __name__ == "__main__":
    main()
''',
}
SPREAD = """\
    loss = metrics["loss"] + jnp.mean(jax.nn.logsumexp(logits, axis=-1))
    return {**metrics, "loss": loss, "acc": jnp.mean(jnp.argmax(logits, -1) == labels)}"""
STORED = """\
    metrics = dict(metrics)
    metrics["loss"] = metrics["loss"] + jnp.mean(jax.nn.logsumexp(logits, axis=-1))
    metrics["acc"] = jnp.mean(jnp.argmax(logits, -1) == labels)
    return metrics"""
LOSS_ONLY = '{"loss": jnp.zeros(())}'
EVERY_KEY = '{"loss": jnp.zeros(()), "acc": jnp.zeros(())}'


@pytest.mark.parametrize(
    ("files", "holes", "found"),
    [
        (
            ANNEAL,
            {"SCHEDULE": "np.linspace(start, stop, steps)", "X64": X64},
            [("model.py", 8, "RTL402")],
        ),
        (
            HELD,
            {"SCHEDULE": "np.linspace(1.0, 0.1, steps)", "X64": X64},
            [("model.py", 8, "RTL402")],
        ),
        (WALKER, {"PAIR": "np.array([0.9, 0.1])", "X64": X64}, [("walker.py", 15, "RTL402")]),
    ],
    ids=["iterated-schedule", "held-schedule", "unpacked-pair"],
)
def test_numpy_float64_items_widening_a_float32_state_are_found(
    tmp_path: Path, files: dict[str, str], holes: dict[str, str], found: list
) -> None:
    assert _found(_write(tmp_path, files, **holes)) == found


@pytest.mark.parametrize(
    ("files", "holes"),
    [
        (ANNEAL, {"SCHEDULE": "np.linspace(start, stop, steps, dtype=np.float32)", "X64": X64}),
        (ANNEAL, {"SCHEDULE": "np.linspace(start, stop, steps).tolist()", "X64": X64}),
        (ANNEAL, {"SCHEDULE": "np.linspace(start, stop, steps)", "X64": ""}),
        (HELD, {"SCHEDULE": "np.linspace(1.0, 0.1, steps, dtype=np.float32)", "X64": X64}),
        (WALKER, {"PAIR": "np.array([0.9, 0.1], np.float32)", "X64": X64}),
        (WALKER, {"PAIR": "np.array([0.9, 0.1])", "X64": ""}),
    ],
    ids=[
        "float32-schedule",
        "python-floats",
        "schedule-without-x64",
        "float32-held-schedule",
        "float32-pair",
        "no-x64",
    ],
)
def test_items_of_the_state_s_width_or_weak_are_not_flagged(
    tmp_path: Path, files: dict[str, str], holes: dict[str, str]
) -> None:
    assert _found(_write(tmp_path, files, **holes)) == []


def test_an_int_field_of_a_parameter_state_made_float_is_found_at_the_factory(
    tmp_path: Path,
) -> None:
    holes = {"COUNT": "jnp.int32", "GROWTH": "batch.shape[0] * 0.5"}
    assert _found(_write(tmp_path, RUNNING, **holes)) == [("stats.py", 15, "RTL402")]


@pytest.mark.parametrize(
    "holes",
    [
        {"COUNT": "jnp.float32", "GROWTH": "batch.shape[0] * 0.5"},
        {"COUNT": "jnp.int32", "GROWTH": "batch.shape[0]"},
    ],
    ids=["float-count", "int-growth"],
)
def test_a_parameter_state_s_fields_kept_in_their_dtype_are_not_flagged(
    tmp_path: Path, holes: dict[str, str]
) -> None:
    assert _found(_write(tmp_path, RUNNING, **holes)) == []


@pytest.mark.parametrize("body", [SPREAD, STORED], ids=["spread", "stored"])
def test_keys_a_jitted_step_adds_to_a_stored_dict_are_found_at_the_store(
    tmp_path: Path, body: str
) -> None:
    root = _write(tmp_path, TRACKER, BODY=body, START=LOSS_ONLY)
    assert _found(root) == [("tracker.py", 10, "RTL403")]


@pytest.mark.parametrize("body", [SPREAD, STORED], ids=["spread", "stored"])
def test_a_stored_dict_that_starts_with_every_key_is_not_flagged(tmp_path: Path, body: str) -> None:
    assert _found(_write(tmp_path, TRACKER, BODY=body, START=EVERY_KEY)) == []
