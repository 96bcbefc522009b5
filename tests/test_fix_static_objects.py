"""RTL201 / RTL202's fix (issue 41) for a static object whose attributes change: a jitted method's
``self`` hashed by its settings (the JAX FAQ's recipe) and a frozen dataclass of settings passed static.
The body needs some attributes concrete (a shape, ``range``), so the object cannot simply be traced: its
class becomes a pytree, the attributes the body only computes with leaves (followed into the methods of
the object it calls) and the rest aux data. A project over three modules, as a user runs it; and
RTL204's: a holder hashed by identity made anew per call, made a pytree in the module that jits."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from dynamic_support import run_fixed_and_original

from retracelint.cli import main

PLANNER = '"""A receding-horizon planner for a damped point mass, hashed by its settings so that `plan` can take\nself as a static argument (the JAX FAQ\'s recipe)."""\n\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\nclass Planner:\n    def __init__(self, horizon, dt, damping=0.1):\n        self.horizon = horizon\n        self.dt = dt\n        self.damping = damping\n\n    def _key(self):\n        return (self.horizon, self.dt, self.damping)\n\n    def __hash__(self):\n        return hash(self._key())\n\n    def __eq__(self, other):\n        return isinstance(other, Planner) and self._key() == other._key()\n\n    def retimed(self, dt):\n        """A planner with another step (a new object: a hashed static must not change)."""\n        return Planner(self.horizon, dt, self.damping)\n\n    def _decay(self, v):\n        return v * (1.0 - self.damping * self.dt)\n\n    @partial(jax.jit, static_argnums=0)\n    def plan(self, x, v, goal):\n        steps = jnp.arange(self.horizon)\n        t, decay = steps * self.dt, self._decay(v)\n        path = x + decay * t\n        return jnp.sum((path - goal) ** 2)\n'

SOLVER = '"""Fixed-point relaxation with a tolerance that the caller tightens."""\n\nimport dataclasses\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\n@dataclasses.dataclass(frozen=True)\nclass Settings:\n    tol: float = 1e-2\n    max_iters: int = 8\n\n\n@partial(jax.jit, static_argnames=("settings",))\ndef relax(x, settings):\n    for _ in range(settings.max_iters):\n        step = 0.5 * (jnp.cos(x) - x)\n        x = x + jnp.where(jnp.abs(step) > settings.tol, step, 0.0)\n    return x\n'

MAIN = 'import jax.numpy as jnp\n\nfrom planner import Planner\nfrom solver import Settings, relax\n\n\ndef sweep(planner, dts):\n    for dt in dts:\n        planner = planner.retimed(dt)\n        cost = planner.plan(jnp.float32(0.0), jnp.float32(1.0), jnp.float32(2.0))\n        print(f"dt={dt} cost={float(cost):.4f}")\n\n\ndef tighten(x, tolerances):\n    for tol in tolerances:\n        x = relax(x, Settings(tol=tol))\n        print(f"tol={tol} x={float(x):.5f}")\n\n\nsweep(Planner(horizon=16, dt=0.1), [0.1, 0.05, 0.025])\ntighten(jnp.float32(0.2), [1e-1, 1e-2, 1e-3])\n'

FROZEN = '"""Trained weights served as constants: the holder hashes by identity, so it can be static."""\n\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\nclass FrozenWeights:\n    def __init__(self, arrays):\n        self.arrays = tuple(arrays)\n\n    def __hash__(self):\n        return id(self)\n\n    def __eq__(self, other):\n        return self is other\n\n\n@partial(jax.jit, static_argnums=(1,))\ndef forward(x, frozen):\n    h = x\n    for w in frozen.arrays[:-1]:\n        h = jnp.tanh(h @ w)\n    return h @ frozen.arrays[-1]\n'

SERVE = "import numpy as np\n\nfrom frozen import FrozenWeights, forward\n\n\nclass Classifier:\n    def __init__(self, weights):\n        self.weights = weights\n\n    def predict(self, x):\n        return np.asarray(forward(x, FrozenWeights(self.weights))).argmax(axis=-1)\n\n\nrng = np.random.default_rng(0)\nweights = [rng.normal(size=(4, 8)).astype(np.float32), rng.normal(size=(8, 3)).astype(np.float32)]\nmodel = Classifier(weights)\nfor _ in range(3):\n    print(model.predict(rng.normal(size=(2, 4)).astype(np.float32)))\n"

FLATTEN = """
    def tree_flatten(self):
        # leaves: what jitted code computes with; aux: what it needs concrete
        return (self.dt, self.damping), (self.horizon,)

    @classmethod
    def tree_unflatten(cls, aux, leaves):
        obj = object.__new__(cls)  # as __init__ left it, without running it again
        (obj.horizon,) = aux
        (obj.dt, obj.damping) = leaves
        return obj
"""


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (("planner.py", PLANNER), ("solver.py", SOLVER), ("main.py", MAIN)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fixed_planner() -> str:
    return (
        PLANNER.replace(
            "class Planner:", "@jax.tree_util.register_pytree_node_class\nclass Planner:"
        )
        .replace("        self.damping = damping\n", "        self.damping = damping\n" + FLATTEN)
        .replace("    @partial(jax.jit, static_argnums=0)\n", "    @jax.jit\n")
    )


def fixed_solver() -> str:
    return SOLVER.replace(
        "@dataclasses.dataclass(frozen=True)",
        '@partial(jax.tree_util.register_dataclass, data_fields=["tol"],'
        ' meta_fields=["max_iters"])\n@dataclasses.dataclass(frozen=True)',
    ).replace('@partial(jax.jit, static_argnames=("settings",))', "@jax.jit")


def test_static_objects_become_pytrees_with_unsafe_fixes_once(project: Path) -> None:
    safe = lint("--fix", ".")
    assert safe.stderr.splitlines()[-1] == (
        "No fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option)."
    )
    assert (project / "planner.py").read_text() == PLANNER

    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.stderr.splitlines() == ["Found 2 errors (2 fixed, 0 remaining)."]
    assert fixed.exit_code == 0
    # horizon gives jnp.arange its length: aux data; dt and damping (read in _decay too) are leaves
    assert (project / "planner.py").read_text() == fixed_planner()
    assert (project / "solver.py").read_text() == fixed_solver()  # max_iters is range's
    assert (project / "main.py").read_text() == MAIN
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0
    assert (project / "planner.py").read_text() == fixed_planner()


def test_a_class_a_pytree_cannot_rebuild_is_left_static_with_the_reason(project: Path) -> None:
    based = PLANNER.replace(
        "class Planner:", "class Settings:\n    pass\n\n\nclass Planner(Settings):"
    )
    (project / "planner.py").write_text(based, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", "planner.py", "main.py")
    assert (
        "retracelint: main.py:10:16: RTL202 not fixed: self must stay static: line 38 uses it in"
        " Attribute; Planner has a base class"
    ) in result.stderr.splitlines()
    assert (project / "planner.py").read_text() == based


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fixed_sweeps_once_and_they_print_the_same(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    report, original = run_fixed_and_original(
        project, lambda: lint("--fix", "--unsafe-fixes", "."), tmp_path_factory.mktemp("before")
    )
    assert not report.raised, report.summary()
    traces = {function.name: n for function, n in report.traces.items()}
    assert traces["plan"] == 1, report.summary()
    assert traces["relax"] == 1, report.summary()
    assert not original.raised, original.summary()
    assert original.stdout, "the program must print what the fix has to keep"
    assert report.stdout == original.stdout


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "frozen.py").write_text(FROZEN, encoding="utf-8")
    (tmp_path / "main.py").write_text(SERVE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fixed_frozen() -> str:
    flatten = (
        FLATTEN.replace("(self.dt, self.damping), (self.horizon,)", "(self.arrays,), ()")
        .replace("        (obj.horizon,) = aux\n", "")
        .replace("(obj.dt, obj.damping) = leaves", "(obj.arrays,) = leaves")
    )
    return (
        FROZEN.replace(
            "class FrozenWeights:",
            "@jax.tree_util.register_pytree_node_class\nclass FrozenWeights:",
        )
        .replace(
            "        self.arrays = tuple(arrays)\n",
            "        self.arrays = tuple(arrays)\n" + flatten,
        )
        .replace("@partial(jax.jit, static_argnums=(1,))", "@jax.jit")
    )


def test_a_fresh_holder_becomes_a_pytree_where_it_is_jitted(served: Path) -> None:
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.stderr.splitlines() == ["Found 1 error (1 fixed, 0 remaining)."]
    # the finding is in main.py; the class and the jit are rewritten in frozen.py
    assert (served / "frozen.py").read_text() == fixed_frozen()
    assert (served / "main.py").read_text() == SERVE


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_served_model_once_and_it_prints_the_same(
    served: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    report, original = run_fixed_and_original(
        served, lambda: lint("--fix", "--unsafe-fixes", "."), tmp_path_factory.mktemp("before")
    )
    assert not report.raised, report.summary()
    traces = {function.name: n for function, n in report.traces.items()}
    assert traces["forward"] == 1, report.summary()
    assert not original.raised, original.summary()
    assert original.stdout, "the program must print what the fix has to keep"
    assert report.stdout == original.stdout


# The plan found by gradient steps: the body hands values to the gradient jax.grad made, which traces
# its differentiated argument whatever it is given; the step length made of the horizon flows there.
DESCENT = PLANNER.replace(
    """    def plan(self, x, v, goal):
        steps = jnp.arange(self.horizon)
        t, decay = steps * self.dt, self._decay(v)
        path = x + decay * t
        return jnp.sum((path - goal) ** 2)
""",
    """    def plan(self, x, v, goal):
        grad_fn = jax.grad(self._cost)
        lr = 0.5 / (1.0 + (self.horizon * self.dt) ** 2)
        accel = jnp.zeros(())
        for _ in range(4):
            accel = accel - lr * grad_fn(accel, x, v, goal)
        return accel

    def _cost(self, accel, x, v, goal):
        h = self.horizon * self.dt
        return (x + self._decay(v) * h + 0.5 * accel * h**2 - goal) ** 2
""",
)


def test_values_a_gradient_is_taken_of_are_leaves(project: Path) -> None:
    (project / "planner.py").write_text(DESCENT, encoding="utf-8")
    lint("--fix", "--unsafe-fixes", ".")
    fixed = (project / "planner.py").read_text()
    assert "        return (self.horizon, self.dt, self.damping), ()\n" in fixed
    assert "    @jax.jit\n    def plan(self, x, v, goal):" in fixed


def test_a_value_passed_to_a_gradient_as_a_constant_stays_aux_data(project: Path) -> None:
    """grad_fn(x, accel, ...) differentiates x: what it is given at accel's place is not traced by it."""
    constant = DESCENT.replace("grad_fn(accel, x, v, goal)", "grad_fn(x, accel, v, goal)").replace(
        "def _cost(self, accel, x, v, goal)", "def _cost(self, x, accel, v, goal)"
    )
    (project / "planner.py").write_text(constant, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (
        "        return (self.damping,), (self.horizon, self.dt)\n"
        in (project / "planner.py").read_text()
    )
    # dt, which the sweep changes, stays static by this fix: the check says so at once
    assert "static field Planner.dt, a float, changes in the loop at main.py:8" in result.output
