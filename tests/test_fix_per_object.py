"""RTL204's fix (issue 41) for a static argument a method makes anew at each call from what ``__init__``
gave the object: a tracker that builds its cost weights from its config at every step, a detector that
asks the bank it holds for a response curve (a lambda) at every call, and a trainer that sets a fresh
optimizer (a pair of closures) at every epoch. Each value is made once at the end of ``__init__`` and
the method uses the one kept on the object. Unsafe; refused when another method changes what it is
made from, when the object made is changed afterwards, or when it reads the method's own arguments.
Projects over several modules, as a user runs them; JAX proves the fixed programs trace once and
print the same."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project, proved_by_jax

COSTS = '''\
"""Weights of the tracking problem, read from a plain config dict."""


class TrackingCosts:
    def __init__(self, position, effort, n_iters):
        self.position = position
        self.effort = effort
        self.n_iters = n_iters


def build_costs(config):
    return TrackingCosts(config["position"], config["effort"], config["iters"])
'''

SOLVER = '''\
"""A few gradient steps on the tracking loss, jitted with the costs static."""

from functools import partial

import jax
import jax.numpy as jnp


def tracking_loss(q, target, costs):
    return costs.position * jnp.sum((q - target) ** 2) + costs.effort * jnp.sum(q**2)


@partial(jax.jit, static_argnames=("costs",))
def solve(q, target, costs):
    for _ in range(costs.n_iters):
        q = q - 0.1 * jax.grad(tracking_loss)(q, target, costs)
    return q, tracking_loss(q, target, costs)
'''

TRACKER = '''\
"""Track a moving target, warm-starting from the last solution."""

import jax.numpy as jnp

from costs import build_costs
from solver import solve


class Tracker:
    def __init__(self, config, dim=3):
        self.config = dict(config)
        self.q = jnp.zeros(dim)

    def step(self, target):
        costs = build_costs(self.config)  # the weights as configured
        self.q, loss = solve(self.q, target, costs)
        return float(loss)
'''

TRACKING_MAIN = """\
import json
from pathlib import Path

import jax.numpy as jnp

from tracker import Tracker

tracker = Tracker({"position": 1.0, "effort": 0.01, "iters": 5})
out = [tracker.step(jnp.array([1.0, 0.5, -0.5]) * (1.0 + 0.1 * t)) for t in range(4)]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

BANK = '''\
"""A bank of shifted response curves; a detector reads the sharpest through one jitted function."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("curve",))
def total_response(x, curve):
    return jnp.sum(curve(x))


class Bank:
    def __init__(self, offsets, gain):
        self.offsets = tuple(offsets)
        self.gain = gain

    def _shifted(self, offset):
        gain = self.gain
        return lambda x: gain * jnp.tanh(x - offset)

    def sharpest(self):
        return self._shifted(max(self.offsets))


class Detector:
    def __init__(self, bank, scale):
        self.bank = bank
        self.scale = scale

    def respond(self, x):
        return total_response(x * self.scale, curve=self.bank.sharpest())
'''

DETECTOR_MAIN = """\
import json
from pathlib import Path

import jax.numpy as jnp

from bank import Bank, Detector

detector = Detector(Bank([0.0, 0.5, 1.0], gain=2.0), scale=0.5)
out = [float(detector.respond(jnp.linspace(-1.0, 1.0, 5) * t)) for t in range(4)]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

OPTIM = '''\
"""A momentum optimizer as a pair of functions, the way small training loops carry one."""

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def momentum(lr, beta=0.9):
    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, velocity):
        velocity = jax.tree.map(lambda v, g: beta * v + g, velocity, grads)
        return jax.tree.map(lambda v: -lr * v, velocity), velocity

    return Optimizer(init, update)
'''

TRAINER = '''\
"""Fit a line, restarting the optimizer's state at every epoch."""

from functools import partial

import jax
import jax.numpy as jnp

from optim import momentum


@partial(jax.jit, static_argnames=("optimizer",))
def train_step(w, velocity, x, y, optimizer):
    grads = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    updates, velocity = optimizer.update(grads, velocity)
    return w + updates, velocity


class Trainer:
    def __init__(self, w):
        self.w = w

    def reset_optimizer(self):
        # a fresh optimizer, so no momentum carries over from the last epoch
        self.optimizer = momentum(0.05)
        self.velocity = self.optimizer.init(self.w)

    def epoch(self, x, y, steps=3):
        self.reset_optimizer()
        for _ in range(steps):
            self.w, self.velocity = train_step(self.w, self.velocity, x, y, self.optimizer)
        return float(jnp.mean((x @ self.w - y) ** 2))
'''

TRAINING_MAIN = """\
import json
from pathlib import Path

import jax.numpy as jnp

from trainer import Trainer

x = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
y = x @ jnp.array([2.0, -1.0])
trainer = Trainer(jnp.zeros(2))
out = [trainer.epoch(x, y) for _ in range(4)]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

TRACKING = {"costs.py": COSTS, "solver.py": SOLVER, "tracker.py": TRACKER, "main.py": TRACKING_MAIN}
DETECTOR = {"bank.py": BANK, "main.py": DETECTOR_MAIN}
TRAINING = {"optim.py": OPTIM, "trainer.py": TRAINER, "main.py": TRAINING_MAIN}


def test_a_value_a_method_makes_from_the_objects_attributes_is_made_once_in_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, TRACKING)
    safe = lint("--fix", ".")
    assert safe.stderr.splitlines()[-1] == (
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    )
    assert (root / "tracker.py").read_text() == TRACKER
    # the name keeps its comment; the value is made after everything __init__ assigns
    assert fixed_once(root, "tracker.py") == TRACKER.replace(
        "        self.q = jnp.zeros(dim)\n",
        "        self.q = jnp.zeros(dim)\n        self._costs = build_costs(self.config)\n",
    ).replace("costs = build_costs(self.config)  #", "costs = self._costs  #")
    for name in ("costs.py", "solver.py", "main.py"):
        assert (root / name).read_text() == TRACKING[name]


def test_a_value_asked_of_an_object_the_object_holds_is_made_once_in_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, DETECTOR)
    # passed straight at the call: the curve the bank it holds makes through its own methods
    assert fixed_once(root, "bank.py") == BANK.replace(
        "        self.scale = scale\n",
        "        self.scale = scale\n        self._curve = self.bank.sharpest()\n",
    ).replace("curve=self.bank.sharpest())", "curve=self._curve)")
    assert (root / "main.py").read_text() == DETECTOR_MAIN


def test_an_attribute_a_method_sets_anew_at_each_call_is_made_once_in_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, TRAINING)
    # the attribute passed is made by the one assignment of it, in reset_optimizer
    assert fixed_once(root, "trainer.py") == TRAINER.replace(
        "        self.w = w\n", "        self.w = w\n        self._optimizer = momentum(0.05)\n"
    ).replace("self.optimizer = momentum(0.05)", "self.optimizer = self._optimizer")
    assert (root / "optim.py").read_text() == OPTIM


def test_an_attribute_whose_object_is_changed_after_it_is_made_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every epoch's optimizer gets its own learning rate: one shared optimizer would keep the last
    changed = TRAINER.replace(
        "    def epoch(self, x, y, steps=3):\n        self.reset_optimizer()\n",
        "    def epoch(self, x, y, steps=3):\n        self.reset_optimizer()\n"
        "        self.optimizer.lr = 0.05\n",
    )
    root = project(tmp_path, monkeypatch, {**TRAINING, "trainer.py": changed})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "self.optimizer is changed after it is made: one shared object would carry that" in (
        result.stderr
    )
    assert (root / "trainer.py").read_text() == changed


@pytest.mark.parametrize(
    ("changed", "reason"),
    [
        # another method changes the config in place: the costs made once would keep the old weights
        (
            TRACKER + '\n    def retune(self, effort):\n        self.config["effort"] = effort\n',
            "self.config is changed outside __init__: the value made once would not follow",
        ),
        # made from the call's own argument: a value per call, not per object
        (
            TRACKER.replace("def step(self, target):", "def step(self, target, iters=5):").replace(
                "build_costs(self.config)", 'build_costs({**self.config, "iters": iters})'
            ),
            "it reads iters, which may change between calls",
        ),
    ],
)
def test_a_value_that_may_differ_from_one_made_in_init_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str, reason: str
) -> None:
    root = project(tmp_path, monkeypatch, {**TRACKING, "tracker.py": changed})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 1
    assert "retracelint: tracker.py:16:46: RTL204 not fixed: " in result.stderr
    assert reason in result.stderr
    assert (root / "tracker.py").read_text() == changed


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_value_made_once_per_object_once_and_it_gives_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    programs = {
        "tracking": (TRACKING, "main.py", "solve", 3),
        "detector": (DETECTOR, "main.py", "total_response", 3),
        "training": (TRAINING, "main.py", "train_step", 3),
    }
    proved_by_jax(tmp_path, monkeypatch, programs)


# A window a method makes at each step of a loop: the first fix makes it once above the loop, which
# the fixed text still reports, bounded now (once per call of run) where it grew with the loop, so
# the fix stands; the next round makes it once per object in __init__.
SMOOTHING = '''\
"""Smoothing of sensor traces with a moving window of geometric weights."""

from functools import partial

import jax
import jax.numpy as jnp


class Window:
    def __init__(self, width):
        self.width = width
        self.weights = tuple(0.5**k for k in range(width))

    def __call__(self, x):
        w = jnp.array(self.weights, x.dtype)
        return jnp.convolve(x, w / w.sum(), mode="same")


@partial(jax.jit, static_argnums=(0,))
def smooth_step(window, x):
    return window(x) * 0.9 + x * 0.1


class Smoother:
    def __init__(self, width):
        self.width = width

    def window(self):
        return Window(self.width)

    def run(self, x, steps):
        for _ in range(steps):
            x = smooth_step(self.window(), x)
        return x
'''

SMOOTHING_MAIN = """\
import jax.numpy as jnp

from smoothing import Smoother

smoother = Smoother(width=3)
for trace in range(2):
    x = jnp.sin(jnp.linspace(0.0, 3.0 + trace, 32))
    print(trace, round(float(smoother.run(x, steps=4).sum()), 4))
"""


def test_a_fix_that_bounds_a_growing_re_trace_stands_and_the_next_round_ends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"smoothing.py": SMOOTHING, "main.py": SMOOTHING_MAIN})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "not fixed" not in result.stderr, result.stderr
    assert "(2 fixed, 0 remaining)" in result.stderr
    assert fixed_once(root, "smoothing.py") == SMOOTHING.replace(
        "        self.width = width\n\n    def window",
        "        self.width = width\n        self._window_2 = self.window()\n\n    def window",
    ).replace(
        "        for _ in range(steps):\n            x = smooth_step(self.window(), x)",
        "        window_2 = self._window_2\n        for _ in range(steps):\n"
        "            x = smooth_step(window_2, x)",
    )
