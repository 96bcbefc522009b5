"""An integer array times a Python float is a weakly typed float array (``jnp.arange(n) * d``; checked
with JAX 0.10.2: weak_type True, and ``jnp.repeat``/``jnp.tile`` keep it). Fresh round 30,
booz_xform_jax's ``jax_api.py:83`` (RTL401): the same grid built in a set-up method from fields of
unknown kind (``n: int | None = None`` set by ``int(...)`` elsewhere) was taken as strongly typed:
``jnp.arange`` of a count of unknown kind may hold ints, and so may ``jnp.arange(n)`` with what is
most likely a float (``2.0 * pi / (self.nfp * n)``): their product is of a weak type not known
here. Kept: the grid stored with an explicit dtype, which is strong against the weak functional
route (checked: 2 traces)."""

from __future__ import annotations

from pathlib import Path

from project_runs import findings_in

_TRIG = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(2,))
def init_trig(theta, zeta, mmax):
    m = jnp.arange(mmax + 1)
    return jnp.cos(m[:, None] * theta[None]), jnp.sin(m[:, None] * zeta[None])
"""

_GRIDS = """\
from typing import NamedTuple

import jax.numpy as jnp

from .trig import init_trig


class Grids(NamedTuple):
    theta_grid: jnp.ndarray
    zeta_grid: jnp.ndarray


def prepare_grids(mboz: int, nboz: int, nfp: int) -> Grids:
    ntheta = 2 * (2 * mboz + 1)
    nzeta = 2 * (2 * nboz + 1) if nboz > 0 else 1
    d_theta = (2.0 * jnp.pi) / ntheta
    d_zeta = (2.0 * jnp.pi) / (nfp * nzeta)
    theta_grid = jnp.repeat(jnp.arange(ntheta) * d_theta, nzeta)
    zeta_grid = jnp.tile(jnp.arange(nzeta) * d_zeta, ntheta)
    return Grids(theta_grid=theta_grid, zeta_grid=zeta_grid)


def transform(mboz: int, nboz: int, nfp: int, mmax: int = 4):
    grids = prepare_grids(mboz, nboz, nfp)
    return init_trig(grids.theta_grid, grids.zeta_grid, mmax)
"""

_CORE = """\
from dataclasses import dataclass

import jax.numpy as jnp

from .trig import init_trig


@dataclass
class Booz:
    nfp: int = 1
    mboz: int | None = None
    nboz: int | None = None

    def read(self, mpol, ntor, nfp):
        self.mboz = int(mpol)
        self.nboz = int(ntor)
        self.nfp = int(nfp)

    def _setup_grids(self):
        ntheta = 2 * (2 * self.mboz + 1)
        nzeta = 2 * (2 * self.nboz + 1) if self.nboz > 0 else 1
        d_theta = (2.0 * jnp.pi) / ntheta
        d_zeta = (2.0 * jnp.pi) / (self.nfp * nzeta)
        self._theta_grid = jnp.repeat(jnp.arange(ntheta) * d_theta, nzeta)
        self._zeta_grid = jnp.tile(jnp.arange(nzeta) * d_zeta, ntheta)

    def run(self):
        self._setup_grids()
        return init_trig(self._theta_grid, self._zeta_grid, 4)
"""

_SURFACES = """\
from boozlib.core import Booz
from boozlib.grids import transform

for surface in range(3):
    booz = Booz()
    booz.read(3, 2, 3)
    booz.run()
    transform(3, 2, 3)
"""


def _findings(root: Path, core: str) -> list[tuple]:
    texts = {
        "pyproject.toml": "",
        "boozlib/__init__.py": "",
        "boozlib/trig.py": _TRIG,
        "boozlib/grids.py": _GRIDS,
        "boozlib/core.py": core,
        "surfaces.py": _SURFACES,
    }
    found = findings_in(root, texts)
    return [(f["path"], f["line"], f["code"], f["message"]) for f in found]


def test_an_integer_grid_times_a_float_on_self_is_as_weak_as_the_local_one(tmp_path: Path) -> None:
    assert _findings(tmp_path, _CORE) == []


def test_a_grid_stored_with_a_dtype_is_strong_against_the_weak_one(tmp_path: Path) -> None:
    core = _CORE.replace(
        "jnp.repeat(jnp.arange(ntheta) * d_theta, nzeta)",
        "jnp.asarray(jnp.repeat(jnp.arange(ntheta) * d_theta, nzeta), dtype=jnp.float32)",
    )
    assert _findings(tmp_path, core) == [
        (
            "boozlib/grids.py",
            18,
            "RTL401",
            "'theta' is weakly typed here but strongly typed from self._theta_grid at core.py:24,"
            " so jitted 'init_trig' traces twice; pass one kind of value",
        )
    ]
