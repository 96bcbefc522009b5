"""A weakly typed leaf nested two NamedTuples deep in a carried state (issue 39): ``World(particles,
empty_stats())`` starts the energy as a Python ``0.0``, and the jitted chunk gives it back strong from
a ``lax.fori_loop`` whose body builds the ``Stats`` in a helper (``measure``), so ``advance`` traces
again on its second call. Told where the weak leaf is written. Its twins trace once: the energy
made a float32 array from the start, or the body passing the carried energy back as it came in.
Checked by hand under jax 0.10.2 (``JAX_LOG_COMPILES=1``: two compiles of ``advance`` for the
positive, one for each twin)."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding

PHYSICS = '''\
"""Particles in a harmonic trap, advanced by leapfrog substeps inside one jitted chunk."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

DT = 0.01
SUBSTEPS = 10


class Particles(NamedTuple):
    pos: jax.Array
    vel: jax.Array


class Stats(NamedTuple):
    energy: jax.Array
    steps: jax.Array


class World(NamedTuple):
    particles: Particles
    stats: Stats


def empty_stats():
    return Stats(0.0, jnp.zeros((), jnp.int32))


def measure(particles, steps):
    kinetic = 0.5 * jnp.sum(particles.vel**2)
    return Stats(kinetic + 0.5 * jnp.sum(particles.pos**2), steps + 1)


def leapfrog(particles, dt):
    vel = particles.vel - 0.5 * dt * particles.pos
    pos = particles.pos + dt * vel
    return Particles(pos, vel - 0.5 * dt * pos)


@jax.jit
def advance(world):
    def substep(i, carry):
        particles, stats = carry
        particles = leapfrog(particles, DT)
        return particles, measure(particles, stats.steps)

    particles, stats = jax.lax.fori_loop(0, SUBSTEPS, substep, (world.particles, world.stats))
    return World(particles, stats)
'''

SIM = '''\
"""Run the trap for a few chunks and print the energy."""

import jax
import jax.numpy as jnp

from physics import Particles, World, advance, empty_stats


def simulate(n=64, chunks=4):
    pos = jax.random.normal(jax.random.PRNGKey(0), (n, 3))
    world = World(Particles(pos, jnp.zeros_like(pos)), empty_stats())
    for _ in range(chunks):
        world = advance(world)
    return world.stats.energy


if __name__ == "__main__":
    print(float(simulate()))
'''


def _found(root: Path, physics: str) -> list[Finding]:
    (root / "physics.py").write_text(physics, encoding="utf-8")
    (root / "sim.py").write_text(SIM, encoding="utf-8")
    return analyse([str(root)], Settings(cache=False, select=("RTL",))).findings


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def test_a_weak_leaf_of_a_nested_state_made_strong_in_a_fori_loop_is_told_where_written(
    tmp_path: Path,
):
    found = _found(tmp_path, PHYSICS)
    assert _where(found) == [("physics.py", 28, "RTL401")]
    assert found[0].location.col == 18  # the ``0.0``
    assert (
        "world.stats.energy starts as a weakly typed scalar here and is a strongly typed array"
        " once advance() returns it" in found[0].message
    )


def test_an_energy_strong_from_the_start_traces_once(tmp_path: Path):
    fixed = PHYSICS.replace("return Stats(0.0, ", "return Stats(jnp.zeros(()), ")
    assert _found(tmp_path, fixed) == []


def test_the_carried_energy_passed_back_as_it_came_stays_weak(tmp_path: Path):
    # The body's helper-free Stats keeps the weak energy weak: jax gives it back weak.
    kept = PHYSICS.replace(
        "return particles, measure(particles, stats.steps)",
        "return particles, Stats(stats.energy, stats.steps + 1)",
    )
    assert _found(tmp_path, kept) == []


def test_the_same_flip_in_a_registered_dataclass_is_told(tmp_path: Path):
    # jax.tree_util.register_dataclass: the same leaves, the same re-trace (two compiles by hand).
    as_dataclass = PHYSICS.replace(
        "from typing import NamedTuple\n",
        "from dataclasses import dataclass\nfrom typing import NamedTuple\n",
    ).replace(
        "class Stats(NamedTuple):", "@jax.tree_util.register_dataclass\n@dataclass\nclass Stats:"
    )
    assert _where(_found(tmp_path, as_dataclass)) == [("physics.py", 31, "RTL401")]
