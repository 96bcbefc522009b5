"""A real state that a jitted step gives back complex (issue 39): a point source made with
``jnp.zeros(...).at[i, j].set(1.0)`` is float32, and the step multiplies it by a phase plate cast to
complex64 inside a loop of a constant count; the field comes back complex64, so the step traces
again. Told where the state starts: no cast can drop the imaginary part. Its fixed twins trace once:
the field made complex64 from the start, or a part of it (``jnp.abs``, ``.real``) given back.
Checked by hand under jax 0.10.2 (``JAX_LOG_COMPILES=1``: two compiles of ``advance`` for the
positive, one for each twin)."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding

OPTICS = '''\
"""Split-step propagation of a scalar optical field through thin phase plates."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Beam(NamedTuple):
    field: jax.Array
    z: jax.Array


def point_source(n):
    field = jnp.zeros((n, n))
    return Beam(field.at[n // 2, n // 2].set(1.0), jnp.zeros(()))


def phase_plate(n, strength):
    x = jnp.linspace(-1.0, 1.0, n)
    phase = strength * (x[:, None] ** 2 + x[None, :] ** 2)
    return jnp.stack([jnp.cos(phase), jnp.sin(phase)]).astype(jnp.complex64)


def through(field, plate):
    cos, sin = plate[0], plate[1]
    return jnp.swapaxes(field * (cos + 1j * sin), 0, 1)


@jax.jit
def advance(beam, strength):
    plate = phase_plate(beam.field.shape[0], strength)
    field = beam.field
    for _ in range(PASSES):
        field = through(field, plate)
    return Beam(field, beam.z + 0.1)


PASSES = 2
'''

BENCH = '''\
"""Run the beam through a stack of plates and print the peak amplitude."""

import jax.numpy as jnp

from optics import advance, point_source

PLATES = 4


class Bench:
    def __init__(self, n, strength):
        self.n = n
        self.strength = strength

    def run(self):
        beam = point_source(self.n)
        for _ in range(PLATES):
            beam = advance(beam, self.strength)
        return jnp.abs(beam.field).max()


if __name__ == "__main__":
    print(float(Bench(16, 0.5).run()))
'''

RETURNED = "    return Beam(field, beam.z + 0.1)"


def _found(root: Path, optics: str) -> list[Finding]:
    (root / "optics.py").write_text(optics, encoding="utf-8")
    (root / "bench.py").write_text(BENCH, encoding="utf-8")
    return analyse([str(root)], Settings(cache=False, select=("RTL",))).findings


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def test_a_real_field_made_complex_by_the_step_is_told_where_it_starts(tmp_path: Path):
    found = _found(tmp_path, OPTICS)
    assert _where(found) == [("optics.py", 15, "RTL402")]
    assert "beam.field starts as float32 here and is complex64 once advance() returns it" in (
        found[0].message
    )


def test_a_field_complex_from_the_start_traces_once(tmp_path: Path):
    fixed = OPTICS.replace("jnp.zeros((n, n))", "jnp.zeros((n, n), jnp.complex64)")
    assert _found(tmp_path, fixed) == []


def test_the_intensity_given_back_is_real(tmp_path: Path):
    # |field|**2 of a complex field is float32, as the state started.
    intensity = OPTICS.replace(RETURNED, "    return Beam(jnp.abs(field) ** 2, beam.z + 0.1)")
    assert _found(tmp_path, intensity) == []


def test_the_real_part_given_back_is_real(tmp_path: Path):
    real = OPTICS.replace(RETURNED, "    return Beam(field.real * 2.0, beam.z + 0.1)")
    assert _found(tmp_path, real) == []
