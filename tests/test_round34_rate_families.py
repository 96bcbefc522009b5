"""Round 34's RTL301 rate families (issue 36), on realistic code split across modules: a jit rebuilt
per turn of a loop but used only after it (F1), ``jax.jit`` re-wrapping a function kept as data on
an object made once (F3), and a jit stored over before anything reads it (F7c). Each false shape
is checked gone and a true twin of the same family kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in, written


def _findings(root: Path, *flags: str) -> list[dict]:
    return findings_in(root, {}, *flags)


def _where(found: list[dict]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in found]


# F1: a data generator sets new circuit parameters and rebuilds the circuit's jitted energy for
# each of `args.n` circuits; the step the trajectory runs calls the local function, and the jitted
# attribute is used (vmapped, not called) only by the plot, once, after the loop.
_GENERATE = """\
import argparse

import jax
import jax.numpy as jnp

from circuits.lc import LCCircuit

parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=200)
args = parser.parse_args()

env = LCCircuit(1.0, 1.0)
key = jax.random.PRNGKey(0)
caps = jax.random.uniform(key, (args.n,), minval=0.5, maxval=1.5)
dataset = []
for i in range(args.n):
    env.capacitance = caps[i]
    env.define_dynamics()
    dataset.append(env.trajectory(jnp.array([1.0, 0.0]), 100))
print(env.plot_energy(dataset[-1]).max())
"""

_CIRCUIT = """\
import jax
import jax.numpy as jnp


class LCCircuit:
    def __init__(self, capacitance, inductance, dt=0.01):
        self.capacitance = capacitance
        self.inductance = inductance
        self.dt = dt
        self.define_dynamics()

    def define_dynamics(self):
        def energy(state):
            charge, flux = state
            return charge**2 / (2 * self.capacitance) + flux**2 / (2 * self.inductance)

        def step(state):
            return state + self.dt * jnp.array([[0.0, 1.0], [-1.0, 0.0]]) @ jax.grad(energy)(state)

        self.energy = jax.jit(energy)
        self.step = step

    def trajectory(self, state, n):
        states = [state]
        for _ in range(n):
            state = self.step(state)
            states.append(state)
        return jnp.stack(states)

    def plot_energy(self, states):
        return jax.vmap(self.energy)(states)
"""

_IN_LOOP = "    dataset.append(env.trajectory(jnp.array([1.0, 0.0]), 100))\n"


@pytest.fixture
def circuits(tmp_path: Path) -> Path:
    written(
        tmp_path,
        {"circuits/__init__.py": "", "circuits/lc.py": _CIRCUIT, "generate.py": _GENERATE},
    )
    return tmp_path


def test_a_jit_rebuilt_per_circuit_but_used_after_the_loop_is_no_finding(
    circuits: Path,
) -> None:
    assert _findings(circuits, "--confidence", "all") == []


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        # plotted at each circuit: the vmapped read runs in the loop
        ("generate.py", _IN_LOOP, _IN_LOOP + "    print(env.plot_energy(dataset[-1]).max())\n"),
        # the step the trajectory runs reads the jitted attribute itself
        ("circuits/lc.py", "jax.grad(energy)(state)", "jax.grad(self.energy)(state)"),
        # a method the loop calls calls it at each step
        (
            "circuits/lc.py",
            "            states.append(state)\n",
            "            states.append(state)\n            assert self.energy(state) < 1e6\n",
        ),
    ],
)
def test_a_jit_rebuilt_per_circuit_and_used_in_the_loop_stays_reported(
    circuits: Path, module: str, old: str, new: str
) -> None:
    text = (circuits / module).read_text(encoding="utf-8")
    written(circuits, {module: text.replace(old, new)})
    found = _findings(circuits)
    assert _where(found) == [("circuits/lc.py", 20, "RTL301")]
    assert found[0]["message"].startswith(
        "jax.jit rebuilds a jitted nested def each call of LCCircuit.define_dynamics()"
    )


def test_a_use_nothing_seen_calls_holds_the_rebuild_back(
    circuits: Path,
) -> None:
    """``plot_energy`` called by nothing in the project may run anywhere: no default finding, and
    the held-back one names the assumption."""
    written(circuits, {"generate.py": _GENERATE.rpartition("print(")[0]})
    assert _findings(circuits) == []
    (held,) = _findings(circuits, "--confidence", "all")
    assert (held["line"], held["confidence"]) == (20, "low")
    assert [a["text"] for a in held["assumptions"]] == [
        "`energy` is used by LCCircuit.plot_energy(), which nothing seen calls: it may not run"
        " between two builds"
    ]


# F3: an ensemble jits the `apply` of a record of functions its `__init__` makes once, at each
# call: the same function object each time, whose jit finds jax's caches.
_RECORD = """\
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Transformed(NamedTuple):
    init: Callable
    apply: Callable


def transform(n_models):
    def init(key, x):
        return jax.random.normal(key, (n_models, x.shape[-1]))

    def apply(params, x):
        return jnp.tanh(x @ params.T)

    return Transformed(init, apply)


class Ensemble:
    def __init__(self, n_models):
        self.n_models = n_models
        self.transformed = transform(n_models)

    def init(self, key, x):
        return self.transformed.init(key, x)

    def apply(self, params, x):
        return jax.jit(self.transformed.apply)(params, x)
"""

_HAIKU = """\
import haiku as hk
import jax
import jax.numpy as jnp


class Ensemble:
    def __init__(self, n_models):
        self.n_models = n_models
        self.transformed = hk.transform_with_state(self.forward)

    def forward(self, x):
        return jnp.stack([hk.nets.MLP([32, 1])(x) for _ in range(self.n_models)])

    def init(self, key, x):
        return self.transformed.init(key, x)

    def apply(self, params, x):
        return jax.jit(self.transformed.apply)(params, None, None, x)[0]
"""

_MAIN = """\
import jax
import jax.numpy as jnp

from ensembles.forward import Ensemble

ensemble = Ensemble(8)
x = jnp.ones((32, 4))
params = ensemble.init(jax.random.PRNGKey(0), x)
for step in range(500):
    preds = ensemble.apply(params, x)
    params = jax.tree.map(lambda p: p - 1e-3 * jnp.mean(preds) * p, params)
"""

_JITTED = "        return jax.jit(self.transformed.apply)"


def _ensemble(root: Path, forward: str) -> Path:
    written(root, {"ensembles/__init__.py": "", "ensembles/forward.py": forward, "main.py": _MAIN})
    return root


@pytest.mark.parametrize("forward", [_RECORD, _HAIKU], ids=["namedtuple", "haiku"])
def test_a_jit_of_a_record_field_made_once_is_no_finding(tmp_path: Path, forward: str) -> None:
    assert _findings(_ensemble(tmp_path, forward), "--confidence", "all") == []


@pytest.mark.parametrize(
    "forward",
    [
        # the record made again at each call: new nested defs each time
        _RECORD.replace(_JITTED, "        self.transformed = transform(self.n_models)\n" + _JITTED),
        # a method of `self`: a new bound method at each read
        _RECORD.replace(
            _JITTED,
            "        return jax.jit(self.forward)(params, x)\n\n"
            "    def forward(self, params, x):\n"
            "        return self.transformed.apply",
        ),
        # a record class whose `apply` is a method, not a field
        _RECORD.replace(
            "    apply: Callable\n",
            "    forward: Callable\n\n"
            "    def apply(self, params, x):\n"
            "        return self.forward(params, x)\n",
        ),
    ],
    ids=["record-per-call", "bound-method", "record-method"],
)
def test_a_jit_of_a_function_made_per_read_stays_reported(tmp_path: Path, forward: str) -> None:
    found = _findings(_ensemble(tmp_path, forward))
    assert [(f["path"], f["code"], f["severity"]) for f in found] == [
        ("ensembles/forward.py", "RTL301", "error")
    ]
    assert "each call of Ensemble.apply()" in found[0]["message"]


# F7c: a model's builder stores a jit of its forward function, then stores the vmapped function
# over it on the next line; the training loop rebuilds the model's function per step and calls
# the vmapped one.
_MODEL = """\
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.build()

    def build(self):
        def forward_g(params, z):
            return jnp.tanh(params * z * self.scale)

        self.forward_g = jax.jit(forward_g)
        self.forward_g = jax.vmap(forward_g, in_axes=(None, 0))

    def loss(self, params, zs):
        return jnp.mean(self.forward_g(params, zs) ** 2)
"""

_TRAIN = """\
import jax.numpy as jnp

from models.model import Model

model = Model(1.0)
zs = jnp.ones((16, 3))
params = jnp.ones(3)
for step in range(100):
    model.scale = 1.0 + step / 100
    model.build()
    params = params - 0.1 * model.loss(params, zs)
"""

_STORED_OVER = "        self.forward_g = jax.vmap(forward_g, in_axes=(None, 0))\n"


def _model(root: Path, model: str) -> Path:
    written(root, {"models/__init__.py": "", "models/model.py": model, "train.py": _TRAIN})
    return root


def test_a_jit_stored_over_before_any_read_is_no_finding(tmp_path: Path) -> None:
    assert _findings(_model(tmp_path, _MODEL), "--confidence", "all") == []


@pytest.mark.parametrize(
    "over",
    [
        # stored over only on one branch: the jit is called on the other
        "        if self.scale > 2:\n    " + _STORED_OVER,
        # a method of the object runs between, and calls the jit
        "        self.check()\n" + _STORED_OVER + "\n    def check(self):\n"
        "        assert self.forward_g(jnp.ones(3), jnp.ones(3)).shape == (3,)\n",
    ],
    ids=["on-a-branch", "read-between"],
)
def test_a_jit_that_may_be_read_before_it_is_stored_over_stays_reported(
    tmp_path: Path, over: str
) -> None:
    found = _findings(_model(tmp_path, _MODEL.replace(_STORED_OVER, over)))
    assert _where(found) == [("models/model.py", 14, "RTL301")]
    assert found[0]["message"].startswith(
        "jax.jit rebuilds a jitted nested def each call of Model.build()"
    )
