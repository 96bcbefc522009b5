"""What a jitted step gives back leaf by leaf when a ``tree_map`` over several trees computes it
(issue 39, capability A), against the pytree it starts as, on projects split over modules: running
per-row energies of float16 features kept in the features' dtype (``jnp.zeros(f.shape[:-1],
f.dtype)`` mapped over the features, a dict of float16 arrays: every leaf's ``f.dtype`` is float16),
updated by a nested def that a ``tree_map`` applies (``def blend(e, f): return rate * e + (1.0 -
rate) * jnp.mean(f * f, axis=-1)``) or by a lambda, ``rate`` a helper's float32
(``.astype(jnp.float32)``): float32 comes back, so the step traces twice. Found where the energies
are made in the features' float16 (the start's dtype is decided there). Its twins, one change away (the blend cast back to the energy's dtype, the features
float32 from the start), trace once and stay clean. Each positive re-traces under jax
(``dynamic_support``, in a subprocess). The same state carried by a method's ``for`` loop (a
dashboard's ``run``), or set on ``self`` in ``__init__`` and stored back by a method called per
frame (``self.state = watch(self.state, ...)``), is found alike."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _traced_as_expected, _write, needs_jax

ENERGY = {
    "energy.py": '''\
"""Running energy of each row of a set of feature maps, with a warm-up on its smoothing rate."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Energy(NamedTuple):
    seen: jax.Array
    rows: dict


def start(features):
    rows = jax.tree.map(lambda f: jnp.zeros(f.shape[:-1], f.dtype), features)
    return Energy(jnp.zeros((), jnp.int32), rows)


def smoothing(seen):
    # Average more slowly as more frames come in.
    return (seen / (seen + 4.0)).astype(jnp.float32)


def observe(energy, features):
    rate = smoothing(energy.seen)

    def blend(e, f):
        return @BLEND@

    rows = @MAP@
    return Energy(energy.seen + 1, rows)
''',
    "monitor.py": '''\
"""Watch the energy of a model's feature maps over a few frames."""

import jax
import jax.numpy as jnp

import energy


@jax.jit
def watch(state, features):
    return energy.observe(state, features)


def features_at(i):
    k1, k2 = jax.random.split(jax.random.PRNGKey(i))
    return {
        "conv": jax.random.normal(k1, (3, 8)).astype(jnp.@DTYPE@),
        "head": jax.random.normal(k2, (2, 5)).astype(jnp.@DTYPE@),
    }


def main(frames=4):
    state = energy.start(features_at(0))
    i = 0
    while i < frames:
        state = watch(state, features_at(i))
        i += 1
    return state


if __name__ == "__main__":
    main()
''',
}

# The same watch run by a method of a dashboard, its loop a for over a range.
DASHBOARD = {
    "dashboard.py": '''\
"""A dashboard that watches the feature energies of each frame it is given."""

import energy
from monitor import features_at, watch


class Dashboard:
    def __init__(self, frames):
        self.frames = frames

    def run(self):
        state = energy.start(features_at(0))
        for i in range(self.frames):
            state = watch(state, features_at(i))
        return state


if __name__ == "__main__":
    Dashboard(4).run()
''',
}

# The state kept on a board: set in __init__, stored back by a method called per frame.
BOARD = {
    "board.py": '''\
"""A board that keeps the feature energies and updates them with each frame shown."""

import energy
from monitor import features_at, watch


class Board:
    def __init__(self):
        self.state = energy.start(features_at(0))

    def show(self, i):
        self.state = watch(self.state, features_at(i))


if __name__ == "__main__":
    board = Board()
    for i in range(4):
        board.show(i)
''',
}

_BLEND = "rate * e + (1.0 - rate) * jnp.mean(f * f, axis=-1)"
_CAST = f"({_BLEND}).astype(e.dtype)"
_DEF_MAP = "jax.tree.map(blend, energy.rows, features)"
_LAMBDA_MAP = (
    "jax.tree_util.tree_map("
    "lambda e, f: rate * e + (1.0 - rate) * jnp.mean(f * f, axis=-1), energy.rows, features)"
)


def _projects(tmp_path: Path) -> dict[str, Path]:
    def energy(name: str, blend: str, mapped: str, dtype: str = "float16") -> Path:
        return _write(tmp_path / name, ENERGY, BLEND=blend, MAP=mapped, DTYPE=dtype)

    # The monitor's helpers without its own loop: the driver's loop is the only one.
    helpers = ENERGY["monitor.py"].split("\n\ndef main(")[0] + "\n"

    def driven(name: str, driver: dict[str, str], blend: str) -> Path:
        files = {**ENERGY, "monitor.py": helpers, **driver}
        return _write(tmp_path / name, files, BLEND=blend, MAP=_DEF_MAP, DTYPE="float16")

    return {
        "board_def": driven("board_def", BOARD, _BLEND),
        "board_cast_fixed": driven("board_cast_fixed", BOARD, _CAST),
        "dashboard_def": driven("dashboard_def", DASHBOARD, _BLEND),
        "dashboard_cast_fixed": driven("dashboard_cast_fixed", DASHBOARD, _CAST),
        "energy_def": energy("energy_def", _BLEND, _DEF_MAP),
        "energy_lambda": energy("energy_lambda", _BLEND, _LAMBDA_MAP),
        "energy_cast_fixed": energy("energy_cast_fixed", _CAST, _DEF_MAP),
        "energy_float32_fixed": energy("energy_float32_fixed", _BLEND, _DEF_MAP, "float32"),
    }


# Where each positive is told: the energies made in the features' dtype, float16.
EXPECTED = {
    "energy_def": [("energy.py", 15, "RTL402")],
    "energy_lambda": [("energy.py", 15, "RTL402")],
    "dashboard_def": [("energy.py", 15, "RTL402")],
    "board_def": [("energy.py", 15, "RTL402")],
}
# The script each project runs and the jitted function it calls, as jax names it.
RUNS = {
    "board": ("board.py", "watch"),
    "dashboard": ("dashboard.py", "watch"),
    "energy": ("monitor.py", "watch"),
}


def test_a_tree_map_over_several_trees_is_typed_leaf_by_leaf(tmp_path: Path) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    _traced_as_expected(_projects(tmp_path), EXPECTED, RUNS, tmp_path)
