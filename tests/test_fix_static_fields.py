"""RTL202's fix at a static field of a registered dataclass (issue 41): the field whose value changes is
made a leaf where its class declares it, when the jitted function (in another module here) only computes
with it; a field it needs concrete is left static, with the reason. Unsafe: other code may need it
static."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


CONFIG = """\
from dataclasses import dataclass, field

import jax


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Schedule:
    weights: jax.Array
    steps: int = field(metadata=dict(static=True))
    rate: float = field(default=0.1, metadata={"static": True})  # annealed by the caller
"""

TRAIN = """\
from dataclasses import replace

import jax
import jax.numpy as jnp

from config import Schedule


@jax.jit
def descend(schedule, x):
    for _ in range(schedule.steps):
        x = x - schedule.rate * (x - schedule.weights)
    return x


schedule = Schedule(jnp.ones(3), steps=2)
x = jnp.zeros(3)
for epoch in range(3):
    x = descend(schedule, x)
    schedule = replace(schedule, rate=schedule.rate * 0.5)
print(x)
"""


def test_a_changing_static_field_becomes_a_leaf_where_its_class_declares_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    safe = lint("--fix", ".")
    assert (tmp_path / "config.py").read_text() == CONFIG
    assert "1 hidden fix can be enabled" in safe.stderr
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "config.py").read_text()
    assert fixed == CONFIG.replace(
        'field(default=0.1, metadata={"static": True})', "field(default=0.1)"
    )
    assert (tmp_path / "train.py").read_text() == TRAIN
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (tmp_path / "config.py").read_text() == fixed


def test_a_static_field_the_jitted_function_needs_concrete_stays_static(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text(CONFIG, encoding="utf-8")
    # a jitted function that branches on the rate in Python needs it concrete
    steps = TRAIN.replace(
        "    return x\n", "    if schedule.rate < 0.05:\n        x = 2 * x\n    return x\n", 1
    )
    (tmp_path / "train.py").write_text(steps, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint("--diff", "--unsafe-fixes", ".")
    assert result.stdout == ""
    assert "RTL202 not fixed: rate must stay static: decides Python control flow" in result.stderr


STATE = '''\
"""The integrator's state, a pytree whose step size rides in its aux data."""
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class State:
    def __init__(self, y, dt, rtol=1e-3):
        self.y, self.dt, self.rtol = y, dt, rtol

    def tree_flatten(self):
        return (self.y,), (self.dt, self.rtol)

    @classmethod
    def tree_unflatten(cls, aux, children):
        """Rebuild from the leaves."""
        return cls(*children, *aux)
'''

STEP = """\
import jax
import jax.numpy as jnp

from state import State


@jax.jit
def euler(state):
    return state.y - state.dt * jnp.sin(state.y)


y = jnp.ones(2)
for n in range(3):
    y = euler(State(y, 0.1 / (n + 1)))  # the step shrinks
print(y)
"""


def test_a_changing_aux_value_moves_to_the_children_and_comes_back_in_unflatten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "state.py").write_text(STATE, encoding="utf-8")
    (tmp_path / "step.py").write_text(STEP, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "state.py").read_text()
    assert fixed == STATE.replace(
        "return (self.y,), (self.dt, self.rtol)", "return (self.y, self.dt), (None, self.rtol)"
    ).replace(
        '        """Rebuild from the leaves."""\n',
        '        """Rebuild from the leaves."""\n'
        "        aux, children = (*aux[:0], children[-1], *aux[1:]), children[:-1]\n",
    )
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (tmp_path / "state.py").read_text() == fixed


BODIES = '''\
"""Rigid bodies numbered as they are loaded."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Cylinder:
    mass: jax.Array
    radius: jax.Array
    part_id: int = field(default=0, metadata={"static": True})  # which row of the parts list


def load(spec):
    return [Cylinder(jnp.float32(m), jnp.float32(r), part_id=i) for i, (m, r) in enumerate(spec)]
'''

INERTIA = """\
import jax

from bodies import load


@jax.jit
def axial_moment(body):
    return body.mass * body.radius**2 / 2


for body in load([(1.0, 0.1), (2.0, 0.2), (3.0, 0.3)]):
    print(body.part_id, float(axial_moment(body)))
"""


def test_a_static_field_set_by_a_constructor_keyword_becomes_a_leaf_where_it_is_declared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bodies.py").write_text(BODIES, encoding="utf-8")
    (tmp_path / "inertia.py").write_text(INERTIA, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = lint(".")
    assert found.stdout.startswith("bodies.py:18:62: RTL201 static field Cylinder.part_id changes")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.stderr.splitlines()[-1] == "Found 1 error (1 fixed, 0 remaining)."
    assert (tmp_path / "bodies.py").read_text() == BODIES.replace(
        'field(default=0, metadata={"static": True})', "field(default=0)"
    )
    assert (tmp_path / "inertia.py").read_text() == INERTIA
    assert lint(".").exit_code == 0
