"""RTL202's fix at a static field of a registered dataclass (issue 41): the field whose value changes is
made a leaf where its class declares it, when the jitted function (in another module here) only computes
with it; a field it needs concrete is left static, with the reason. Unsafe: other code may need it
static."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from test_fix_closures import fixed_once, project, proved_by_jax

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


# A field listed as meta by register_dataclass's call, the class in one module, jitted in another.
READINGS = '''\
"""Sensor readings, each with the gain its channel was read at."""

from dataclasses import dataclass

import jax


@dataclass
class Reading:
    values: jax.Array
    gain: float  # set by the channel's amplifier


jax.tree_util.register_dataclass(Reading, data_fields=["values"], meta_fields=["gain"])
'''

CALIBRATE = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp

from readings import Reading


@jax.jit
def volts(reading):
    return jnp.sum(reading.values) / reading.gain


out = [float(volts(Reading(jnp.arange(3.0) + g, gain=g))) for g in (1.0, 2.0, 4.0)]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

# The step of a regimen declared static by jax.tree.static(), jitted in another module.
REGIMEN = '''\
"""A dosing regimen: arrays are doses, the interval is in hours."""

from dataclasses import dataclass

import jax


@jax.tree_util.register_dataclass
@dataclass
class Regimen:
    dose: jax.Array
    interval: float = jax.tree.static(default=8.0)  # hours between doses
'''

CURVE = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp

from regimen import Regimen


@jax.jit
def level(regimen, t):
    return regimen.dose * jnp.exp(-0.1 * jnp.mod(t, regimen.interval))


t = jnp.linspace(0.0, 24.0, 5)
out = [v for d, h in ((1.0, 6.0), (2.0, 8.0), (3.0, 12.0)) for v in level(Regimen(jnp.float32(d), h), t).tolist()]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""


def test_a_field_listed_as_meta_moves_to_the_data_fields_where_the_class_is_registered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "readings.py").write_text(READINGS, encoding="utf-8")
    (tmp_path / "calibrate.py").write_text(CALIBRATE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = lint(".")
    assert found.stdout.startswith("calibrate.py:15:54: RTL202 [warning] static field Reading.gain")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.stderr.splitlines()[-1] == "Found 1 error (1 fixed, 0 remaining)."
    fixed = (tmp_path / "readings.py").read_text()
    assert fixed == READINGS.replace(
        'data_fields=["values"], meta_fields=["gain"]',
        'data_fields=["values", "gain"], meta_fields=[]',
    )
    assert (tmp_path / "calibrate.py").read_text() == CALIBRATE
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == ""
    assert (tmp_path / "readings.py").read_text() == fixed


def test_a_meta_field_the_jitted_function_needs_concrete_stays_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "readings.py").write_text(READINGS, encoding="utf-8")
    # a gain that sizes an array must stay concrete
    needs = CALIBRATE.replace("/ reading.gain", "/ jnp.ones(int(reading.gain)).sum()")
    (tmp_path / "calibrate.py").write_text(needs, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint("--diff", "--unsafe-fixes", ".")
    assert result.stdout == ""
    assert "RTL202 not fixed: gain must stay static: passes it to int" in result.stderr
    assert (tmp_path / "readings.py").read_text() == READINGS


# A fit whose jitted step counts its updates in a meta field: the class is declared in a module that
# neither the step's module nor the caller's imports; the script that makes the objects does.
SCENE = """\
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["flux"], meta_fields=["n_updates"])
@dataclasses.dataclass(frozen=True)
class Source:
    flux: jax.Array
    n_updates: int = 0
"""

FIT = """\
import dataclasses

import jax
import jax.numpy as jnp


@jax.jit
def step(source, target):
    grad = source.flux - target
    return dataclasses.replace(source, flux=source.flux - 0.5 * grad, n_updates=source.n_updates + 1)


def fit(source, target, steps=4):
    for _ in range(steps):
        source = step(source, target)
    return source
"""

RUN = """\
import jax.numpy as jnp

from fit import fit
from scene import Source

fitted = fit(Source(jnp.float32(3.0)), jnp.float32(1.0))
print(fitted.n_updates, float(fitted.flux))
"""


def test_a_counter_a_jitted_step_updates_becomes_a_leaf_in_the_module_beside_that_declares_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"scene.py": SCENE, "fit.py": FIT, "run.py": RUN})
    assert lint(".").stdout.startswith("fit.py:10:81: RTL201 static field Source.n_updates")
    assert fixed_once(root, "scene.py") == SCENE.replace(
        'data_fields=["flux"], meta_fields=["n_updates"]',
        'data_fields=["flux", "n_updates"], meta_fields=[]',
    )
    assert (root / "fit.py").read_text() == FIT


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the step halves its rate after two updates, in Python: the count must stay concrete
        (
            "    return dataclasses",
            "    if source.n_updates > 2:\n        grad = grad / 2\n    return dataclasses",
        ),
        # the step differentiates the object: jax takes no integer leaf there
        (
            "grad = source.flux - target",
            "grad = value_and_grad(lambda s: (s.flux - target) ** 2)(source)[1].flux",
        ),
        # two modules beside it declare a class of that name: which one is meant is not known
        (None, None),
    ],
)
def test_a_counter_whose_field_cannot_be_found_or_kept_a_leaf_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str | None, new: str | None
) -> None:
    fit = FIT if old is None else FIT.replace(old, new or "")
    fit = fit.replace("import jax\n", "import jax\nfrom jax import value_and_grad\n")
    files = {"scene.py": SCENE, "fit.py": fit, "run.py": RUN}
    if old is None:
        files["scene_v1.py"] = SCENE.replace('["flux"]', '["flux", "n_updates"]')
    project(tmp_path, monkeypatch, files)
    result = lint("--diff", "--unsafe-fixes", ".")
    assert result.stdout == "" and "RTL201 not fixed: " in result.stderr
    expected = {
        None: "a static field not declared as name: type = field(...) or in tree_flatten's aux tuple",
        "    return dataclasses": "n_updates must stay static: decides Python control flow",
        "grad = source.flux - target": "n_updates must stay static: line 10 differentiates source,"
        " whose n_updates is int: jax differentiates no integer leaf",
    }[old]
    assert result.stderr.split("RTL201 not fixed: ", 1)[1].splitlines()[0] == expected
    assert all((tmp_path / n).read_text() == t for n, t in files.items())


def test_a_jax_tree_static_field_becomes_a_plain_dataclass_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "regimen.py").write_text(REGIMEN, encoding="utf-8")
    (tmp_path / "curve.py").write_text(CURVE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert "RTL201 [warning] static field Regimen.interval" in lint(".").stdout
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.stderr.splitlines()[-1] == "Found 1 error (1 fixed, 0 remaining)."
    fixed = (tmp_path / "regimen.py").read_text()
    assert fixed == REGIMEN.replace(
        "jax.tree.static(default=8.0)", "dataclasses.field(default=8.0)"
    ).replace('hours."""\n', 'hours."""\nimport dataclasses\n')
    assert lint("--fix", "--unsafe-fixes", ".").stdout == ""
    assert (tmp_path / "regimen.py").read_text() == fixed


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fields_made_leaves_once_and_they_give_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    programs = {
        "readings": (
            {"readings.py": READINGS, "calibrate.py": CALIBRATE},
            "calibrate.py",
            "volts",
            2,
        ),
        "regimen": ({"regimen.py": REGIMEN, "curve.py": CURVE}, "curve.py", "level", 2),
    }
    proved_by_jax(tmp_path, monkeypatch, programs)


MESHES = '''\
"""Triangle meshes whose face lists are padded to one size; the vertex count rides in the treedef."""

import jax
import numpy as np

FACE_SLOTS = 6


@jax.tree_util.register_pytree_node_class
class Mesh:
    """Faces as vertex indices; padding faces are degenerate ones on the last vertex."""

    def __init__(self, faces, n_vertices):
        self.faces, self.n_vertices = faces, n_vertices

    def tree_flatten(self):
        return (self.faces,), self.n_vertices

    @classmethod
    def tree_unflatten(cls, n_vertices, children):
        (faces,) = children
        return cls(faces, n_vertices)


def load_mesh(triangles, n_vertices):
    faces = np.full((FACE_SLOTS, 3), n_vertices - 1, np.int32)
    faces[: len(triangles)] = triangles
    return Mesh(faces, n_vertices)
'''

VALENCE = """\
import jax
import jax.numpy as jnp

from meshes import load_mesh


@jax.jit
def max_valence(mesh):
    corners = mesh.faces.reshape(-1)
    valence = {use}
    return valence.max()


shapes = [([(0, 1, 2), (0, 2, 3)], 4), ([(0, 1, 2), (1, 2, 3), (2, 3, 4)], 5)]
print([float(max_valence(load_mesh(triangles, n))) for triangles, n in shapes])
"""


@pytest.mark.parametrize(
    ("use", "why"),
    [
        # a count of segments is a shape: no form of the fix makes it traced
        (
            "jnp.bincount(corners, length=mesh.n_vertices)",
            "n_vertices must stay static: gives jax.numpy.bincount an argument that is not "
            "known to take a traced value",
        ),
        # only computed with: a leaf would do, but the value is not where the fix can move it
        (
            "jnp.ones_like(corners) * mesh.n_vertices",
            "a static field not declared as name: type = field(...) or in tree_flatten's aux tuple",
        ),
    ],
)
def test_a_static_value_given_to_a_constructor_says_whether_the_jitted_function_needs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use: str, why: str
) -> None:
    main = VALENCE.format(use=use)
    project(tmp_path, monkeypatch, {"meshes.py": MESHES, "main.py": main})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert f"meshes.py:28:24: RTL201 not fixed: {why}" in result.stderr, result.output
    assert (tmp_path / "meshes.py").read_text() == MESHES
