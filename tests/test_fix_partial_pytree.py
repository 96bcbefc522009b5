"""RTL204's fix for a ``functools.partial`` made anew and passed static (issue 41), on a project split
over modules: the partials become ``jax.tree_util.Partial`` (pytrees whose bound values are leaves) and
the jitted function, in the module it is imported from, takes the parameter traced. Unsafe; refused,
with the reason, where the function bound needs a bound value concrete or the jitted body uses the
callable other than by calling it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project, proved_by_jax

# A leapfrog integrator jitted with its kinetic energy static, in its own module.
INTEGRATOR = '''\
"""Leapfrog trajectories for HMC."""

from functools import partial

import jax
import jax.numpy as jnp


def potential(q):
    return 0.5 * jnp.sum(q**2)


@partial(jax.jit, static_argnums=(0,))
def trajectory(kinetic, q, p, step):
    grad_k = jax.grad(kinetic)
    for _ in range(3):
        p = p - 0.5 * step * jax.grad(potential)(q)
        q = q + step * grad_k(p)
        p = p - 0.5 * step * jax.grad(potential)(q)
    return q, potential(q) + kinetic(p)
'''

# The mass matrix adapted per window: the kinetic energy made anew with it, in a second module.
ADAPT = '''\
"""Windowed adaptation of a diagonal mass matrix."""

import json
from functools import partial
from pathlib import Path

import jax.numpy as jnp
from integrator import trajectory


def kinetic_energy(inverse_mass, p):
    return 0.5 * jnp.sum(inverse_mass * p**2)


class Adapter:
    def __init__(self, dim):
        self.inverse_mass = jnp.ones(dim)
        self.kinetic = partial(kinetic_energy, self.inverse_mass)  # the identity matrix first

    def end_window(self, draws):
        self.inverse_mass = jnp.var(jnp.stack(draws), axis=0) + 1e-3
        self.kinetic = partial(kinetic_energy, self.inverse_mass)

    def run(self, q, windows=3):
        energies = []
        for w in range(windows):
            draws = []
            for k in range(2):
                q, energy = trajectory(self.kinetic, q, jnp.full(q.shape, 0.1 * (k + w)), 0.1)
                draws.append(q)
                energies.append(float(energy))
            self.end_window(draws)
        return energies


out = Adapter(3).run(jnp.array([1.0, -0.5, 0.25]))
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
'''


def test_a_partial_made_per_window_becomes_a_pytree_and_the_parameter_traced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"integrator.py": INTEGRATOR, "adapt.py": ADAPT})
    found = lint(".")
    assert found.stdout.startswith(
        "adapt.py:29:40: RTL204 static argument self.kinetic is a functools.partial"
    )
    assert lint("--fix", ".").stdout.count("RTL204") == 1  # unsafe: --fix alone leaves it
    assert (root / "adapt.py").read_text() == ADAPT
    adapted = fixed_once(root, "adapt.py")
    assert adapted == ADAPT.replace(
        "self.kinetic = partial(", "self.kinetic = jax.tree_util.Partial("
    ).replace(
        'adaptation of a diagonal mass matrix."""\n',
        'adaptation of a diagonal mass matrix."""\nimport jax\n',
    )
    assert (root / "integrator.py").read_text() == INTEGRATOR.replace(
        "@partial(jax.jit, static_argnums=(0,))", "@jax.jit"
    )


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (  # a bound value that sizes an array must stay concrete
            (
                "return 0.5 * jnp.sum(inverse_mass * p**2)",
                "return jnp.sum(p[: int(inverse_mass[0])])",
            ),
            "the partial cannot be a pytree: kinetic_energy needs inverse_mass static: passes it to int",
        ),
        (  # set once to something other than a partial: what the attribute holds is not known
            (
                "        self.kinetic = partial(kinetic_energy, self.inverse_mass)  #",
                "        self.kinetic = kinetic_energy  #",
            ),
            "the fresh value is not a lambda, a partial or a constructor call here",
        ),
    ],
)
def test_a_partial_whose_values_cannot_be_traced_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: tuple[str, str], reason: str
) -> None:
    adapt = ADAPT.replace(*edit)
    root = project(tmp_path, monkeypatch, {"integrator.py": INTEGRATOR, "adapt.py": adapt})
    result = lint("--diff", "--unsafe-fixes", ".")
    assert result.stdout == ""
    assert f"RTL204 not fixed: {reason}" in result.stderr
    assert (root / "adapt.py").read_text() == adapt
    assert (root / "integrator.py").read_text() == INTEGRATOR


def test_a_callable_the_jitted_body_hands_on_as_a_value_stays_static(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    integrator = INTEGRATOR.replace(
        "    grad_k = jax.grad(kinetic)\n", "    grad_k = jax.grad(kinetic)\n    print(kinetic)\n"
    )
    root = project(tmp_path, monkeypatch, {"integrator.py": integrator, "adapt.py": ADAPT})
    result = lint("--diff", "--unsafe-fixes", ".")
    assert (
        "RTL204 not fixed: kinetic must stay static: line 16 uses it other than by calling it"
        in result.stderr
    )
    assert (root / "integrator.py").read_text() == integrator


# A closure factory in one module, the jitted function in a second, the loop that makes one per
# catalogue entry in a third.
UNITS = '''\
"""Unit conversion factors and the scaling functions built from them."""

FACTORS = {"m": 1.0, "km": 1000.0, "pc": 3.0857e16}


def scale_to_si(unit):
    factor = FACTORS[unit]  # metres per unit

    def to_si(values):
        return values * factor

    return to_si
'''

QUANTITIES = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def log_si(convert, values):
    return jnp.log10(jnp.abs(convert(values)) + 1.0)
"""

CATALOGUE = """\
import json
from pathlib import Path

import jax.numpy as jnp
from quantities import log_si
from units import scale_to_si

out = []
for values, unit in ((jnp.array([1.2, 3.4]), "km"), (jnp.array([5.0, 7.5]), "pc"), (jnp.ones(2), "m")):
    out += log_si(scale_to_si(unit), values).tolist()
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

CLOSURES = {"units.py": UNITS, "quantities.py": QUANTITIES, "catalogue.py": CATALOGUE}


def test_a_closure_factory_returns_a_pytree_of_its_function_moved_to_module_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, CLOSURES)
    assert "RTL204" in lint(".").stdout
    fixed = fixed_once(root, "units.py")
    assert fixed == UNITS.replace('"""\n\nFACTORS', '"""\nimport jax\n\nFACTORS').replace(
        "def scale_to_si(unit):\n    factor = FACTORS[unit]  # metres per unit\n\n"
        "    def to_si(values):\n        return values * factor\n\n    return to_si\n",
        "def to_si(factor, values):\n    return values * factor\n\n\n"
        "def scale_to_si(unit):\n    factor = FACTORS[unit]  # metres per unit\n\n"
        "    return jax.tree_util.Partial(to_si, factor)\n",
    )
    assert (root / "quantities.py").read_text() == QUANTITIES.replace(
        "@partial(jax.jit, static_argnums=0)", "@jax.jit"
    )
    assert (root / "catalogue.py").read_text() == CATALOGUE


def test_a_closure_over_a_value_its_function_needs_concrete_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {**CLOSURES, "units.py": UNITS.replace("values * factor", "values[: int(factor)]")}
    root = project(tmp_path, monkeypatch, files)
    result = lint("--diff", "--unsafe-fixes", ".")
    assert "RTL204 not fixed: scale_to_si's function needs factor static: passes it to int" in (
        result.stderr
    )
    assert all((root / name).read_text() == text for name, text in files.items())


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_partial_made_a_pytree_once_and_it_gives_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    programs = {
        "adapt": ({"integrator.py": INTEGRATOR, "adapt.py": ADAPT}, "adapt.py", "trajectory", 2),
        "units": (CLOSURES, "catalogue.py", "log_si", 2),
    }
    proved_by_jax(tmp_path, monkeypatch, programs)
