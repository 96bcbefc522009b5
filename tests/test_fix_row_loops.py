"""The shape fixes' padding where the array enters the jitted function (issue 41), through bodies that
loop a fixed number of times (``for _ in range(n_sub)``: substeps of an integrator), take norms and put
rows side by side (``jnp.concatenate([pos, vel], axis=-1)``): each turn keeps the padding apart as
straight code does, a norm per row is a row, a norm over the rows is made with the padding zeroed.
Refused, with the reason, where a turn changes what the rows are or the count is an argument."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shape_pads import PADDED_ROWS
from test_fix_closures import codes, fixed_once, lint, project

ORBITS = '''\
"""Leapfrog propagation of the bodies in view, each around the sun alone."""

import jax
import jax.numpy as jnp

GM = 2.96e-4


def _acceleration(pos):
    r = jnp.linalg.norm(pos, axis=-1, keepdims=True)
    return -GM * pos / r**3


@jax.jit
def propagate(states, dt):
    n_sub = 8
    h = dt / n_sub
    pos, vel = states[:, :3], states[:, 3:]
    for _ in range(n_sub):
        # kick, drift, kick
        vel = vel + 0.5 * h * _acceleration(pos)
        pos = pos + h * vel
        vel = vel + 0.5 * h * _acceleration(pos)
    return jnp.concatenate([pos, vel], axis=-1)


@jax.jit
def spread(states):
    return jnp.linalg.norm(states - jnp.mean(states, axis=0))
'''

NIGHTS = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp
from orbits import propagate, spread

catalog = 1.0 + jax.random.uniform(jax.random.PRNGKey(0), (12, 6))
out = []
for night in range(3):
    in_view = catalog[:, night] > 1.4
    moved = propagate(catalog[in_view], 1.0)
    out += [float(moved.sum()), float(spread(catalog[in_view]))]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

FRONT = '''
def propagate(states, dt):
    """propagate of states padded to a bucket of rows: one trace per bucket."""
    valid = len(states)
    if jnp.ndim(states) != 2 or jnp.ndim(dt) >= 2:
        return propagate_padded.__wrapped__(states, dt)
    return propagate_padded(padded_rows(states), dt)[:valid]
'''


def test_a_body_looping_over_substeps_is_padded_as_the_rows_enter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"orbits.py": ORBITS, "main.py": NIGHTS})
    assert codes(".") == [("main.py", "RTL104"), ("main.py", "RTL104")]
    text = fixed_once(root, "orbits.py")
    # the loop's body as it was (comment kept): each row moves alone, the norm is per row
    assert ("@jax.jit\ndef propagate_padded(states, dt):\n    n_sub = 8\n") in text
    assert "        # kick, drift, kick\n" in text and FRONT in text
    assert PADDED_ROWS.strip() in text
    # a norm over the rows, with the padding zeroed
    assert (
        "return jnp.linalg.norm(real_rows(states - over_rows(jnp.mean, states, valid_2, axis=0), "
        "valid_2))"
    ) in text


def test_the_padded_bodies_trace_once_and_compute_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dynamic_support import count_retraces_many

    for copy in ("original", "fixed"):
        (tmp_path / copy).mkdir()
        project(tmp_path / copy, monkeypatch, {"orbits.py": ORBITS, "main.py": NIGHTS})
    assert lint("--fix", "--unsafe-fixes", ".").exit_code == 0
    scripts = [tmp_path / c / "main.py" for c in ("original", "fixed")]
    before, after = count_retraces_many(scripts, cwd=tmp_path)
    assert not before.raised and before.total_retraces == 2, before.summary()
    assert not after.raised and set(after.traces.values()) == {1}, after.summary()
    printed = [json.loads((tmp_path / c / "out.json").read_text()) for c in ("original", "fixed")]
    assert printed[0] == pytest.approx(printed[1], rel=1e-5)


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        (  # the count an argument: the front passes it to the jit, traced
            "def propagate(states, dt):\n    n_sub = 8\n",
            "def propagate(states, dt, n_sub=8):\n",
            "loops as many times as an argument says at line 18",
        ),
        (  # one turn per row: as many turns as padded rows
            "    for _ in range(n_sub):\n",
            "    for _ in range(states.shape[0]):\n",
            "loops as many times as it has rows at line 19",
        ),
        (  # the first turn reduces the rows, the second what that made
            "        vel = vel + 0.5 * h * _acceleration(pos)\n        pos = pos + h * vel\n"
            "        vel = vel + 0.5 * h * _acceleration(pos)\n",
            "        pos = jnp.sum(pos, axis=0) + h\n",
            "carries rows it changes from turn to turn in the loop at line 19",
        ),
    ],
)
def test_a_loop_that_lets_the_padding_in_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, why: str
) -> None:
    orbits = ORBITS.replace(old, new)
    assert orbits != ORBITS
    root = project(tmp_path, monkeypatch, {"orbits.py": orbits, "main.py": NIGHTS})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert f"RTL104 not fixed: propagate {why}, so padded rows would change its result" in (
        result.output
    )
    assert "def propagate(states, dt" in (root / "orbits.py").read_text(encoding="utf-8")
    assert "propagate_padded" not in (root / "orbits.py").read_text(encoding="utf-8")
