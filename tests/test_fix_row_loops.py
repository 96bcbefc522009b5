"""The shape fixes' padding where the array enters the jitted function (issue 41), through bodies that
loop a fixed number of times (``for _ in range(n_sub)``: substeps of an integrator), take norms and put
rows side by side (``jnp.concatenate([pos, vel], axis=-1)``): each turn keeps the padding apart as
straight code does, a norm per row is a row, a norm over the rows is made with the padding zeroed.
Refused, with the reason, where a turn changes what the rows are or the count is an argument."""

from __future__ import annotations

from pathlib import Path

import pytest
from shape_pads import PADDED_ROWS
from test_fix_closures import codes, fixed_once, lint, project, proved_by_jax

PARTICLES = '''\
"""Particles slowed by quadratic drag, stepped with fixed substeps."""

import jax
import jax.numpy as jnp

DRAG = 0.1


def _drag(vel):
    speed = jnp.linalg.norm(vel, axis=-1, keepdims=True)
    return -DRAG * speed * vel


@jax.jit
def advance(particles, dt):
    substeps = 4
    h = dt / substeps
    pos, vel = particles[:, :2], particles[:, 2:]
    for _ in range(substeps):
        # semi-implicit Euler
        vel = vel + h * _drag(vel)
        pos = pos + h * vel
    return jnp.concatenate([pos, vel], axis=-1)


@jax.jit
def spread(particles):
    return jnp.linalg.norm(particles - jnp.mean(particles, axis=0))
'''

FRAMES = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp
from particles import advance, spread

cloud = jax.random.normal(jax.random.PRNGKey(0), (12, 4))
out = []
for frame in range(3):
    above = cloud[:, 1] > 0.6 * frame - 0.9
    moved = advance(cloud[above], 0.1)
    out += [float(moved.sum()), float(spread(cloud[above]))]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

FRONT = '''
def advance(particles, dt):
    """advance of particles padded to a bucket of rows: one trace per bucket."""
    valid = len(particles)
    if jnp.ndim(particles) != 2 or jnp.ndim(dt) >= 2:
        return advance_padded.__wrapped__(particles, dt)
    return advance_padded(padded_rows(particles), dt)[:valid]
'''


def test_a_body_looping_over_substeps_is_padded_as_the_rows_enter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"particles.py": PARTICLES, "main.py": FRAMES})
    assert codes(".") == [("main.py", "RTL104"), ("main.py", "RTL104")]
    text = fixed_once(root, "particles.py")
    # the loop's body as it was (comment kept): each row moves alone, the norm is per row
    assert ("@jax.jit\ndef advance_padded(particles, dt):\n    substeps = 4\n") in text
    assert "        # semi-implicit Euler\n" in text and FRONT in text
    assert PADDED_ROWS.strip() in text
    # a norm over the rows, with the padding zeroed
    assert (
        "return jnp.linalg.norm(real_rows(particles - over_rows(jnp.mean, particles, valid_2, "
        "axis=0), valid_2))"
    ) in text


def test_the_padded_bodies_trace_once_and_compute_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"particles.py": PARTICLES, "main.py": FRAMES}
    # 10, 6 and 3 rows: three traces of each before, one of each after
    proved_by_jax(
        tmp_path, monkeypatch, {"frames": (files, "main.py", "advance", 2)}, by_function=True
    )


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        (  # the count an argument: the front passes it to the jit, traced
            "def advance(particles, dt):\n    substeps = 4\n",
            "def advance(particles, dt, substeps=4):\n",
            "loops as many times as an argument says at line 18",
        ),
        (  # one turn per row: as many turns as padded rows
            "    for _ in range(substeps):\n",
            "    for _ in range(particles.shape[0]):\n",
            "loops as many times as it has rows at line 19",
        ),
        (  # the first turn reduces the rows, the second what that made
            "        vel = vel + h * _drag(vel)\n        pos = pos + h * vel\n",
            "        pos = jnp.sum(pos, axis=0) + h\n",
            "carries rows it changes from turn to turn in the loop at line 19",
        ),
    ],
)
def test_a_loop_that_lets_the_padding_in_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, why: str
) -> None:
    particles = PARTICLES.replace(old, new)
    assert particles != PARTICLES
    root = project(tmp_path, monkeypatch, {"particles.py": particles, "main.py": FRAMES})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert f"RTL104 not fixed: advance {why}, so padded rows would change its result" in (
        result.output
    )
    assert "advance_padded" not in (root / "particles.py").read_text(encoding="utf-8")
