"""A dtype handed in as a parameter, and the kind of what a jitted call gives back, read where the
value is used (issue 39). Three shapes, on projects split over modules, each under x64: a factory
``init_state(n, dtype=jnp.float32)`` whose default makes a float32 preconditioner that the jitted
refresh promotes with a float64 ``jnp.eye`` (carried by a ``for`` loop); the same start as an item of
a dict an object stores in ``__init__`` (``Moments(n, dtype=jnp.float32)``), updated by a method in a
``while`` loop; and a score jitted once and called with a float32 array and with what another jitted
function, reached through a method, gives back in float64 (``astype`` inside it). Each positive
re-traces under jax and is found where the wider dtype is made; its twin (the caller passes
float64, or the featurizer casts back to its input's dtype) traces once and is clean, and so does the
factory without x64."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _traced_as_expected, _write, needs_jax

_X64 = 'jax.config.update("jax_enable_x64", True)\n'

PRECOND = {
    "precond.py": '''\
"""A diagonal-loaded second-moment preconditioner."""

import jax
import jax.numpy as jnp


def init_state(n, dtype=jnp.float32):
    return jnp.zeros((n, n), dtype)


@jax.jit
def refresh(stat, grad):
    return 0.9 * stat + 0.1 * grad @ grad.T + 1e-6 * jnp.eye(stat.shape[0])
''',
    "main.py": '''\
"""Refresh the preconditioner over a few gradients."""

import jax
@X64@
import jax.numpy as jnp  # noqa: E402

from precond import init_state, refresh  # noqa: E402


def main():
    state = init_state(@INIT@)
    grad = jnp.ones((4, 4), jnp.float32)
    for _ in range(3):
        state = refresh(state, grad)
    print(state.dtype)


if __name__ == "__main__":
    main()
''',
}

MOMENTS = {
    "moments.py": '''\
"""Running second moments of gradients, kept on an object."""

import jax
import jax.numpy as jnp


def step(stats, grad):
    loaded = grad @ grad.T + 1e-6 * jnp.eye(grad.shape[0])
    return {"m": 0.9 * stats["m"] + 0.1 * loaded, "n": stats["n"] + 1}


class Moments:
    def __init__(self, n, dtype=jnp.float32):
        self.stats = {"m": jnp.zeros((n, n), dtype), "n": jnp.zeros((), jnp.int32)}
        self._step = jax.jit(step)

    def update(self, grad):
        self.stats = self._step(self.stats, grad)
''',
    "main.py": '''\
"""Accumulate the moments of a few gradients."""

import jax
@X64@
import jax.numpy as jnp  # noqa: E402

from moments import Moments  # noqa: E402


def main(steps=3):
    moments = Moments(@INIT@)
    k = 0
    while k < steps:
        moments.update(jnp.full((4, 4), float(k), jnp.float32))
        k += 1
    print(moments.stats["m"].dtype)


if __name__ == "__main__":
    main()
''',
}

SCORE = {
    "features.py": '''\
"""Features computed in double precision by a jitted function behind a method."""

import jax
import jax.numpy as jnp


def featurize(x):
    return jnp.tanh(x.astype(jnp.float64))@BACK@


class Featurizer:
    def __init__(self):
        self._f = jax.jit(featurize)

    def compute(self, x):
        return self._f(x)
''',
    "main.py": '''\
"""Score raw inputs and their features with one jitted score."""

import jax
@X64@
import jax.numpy as jnp  # noqa: E402

from features import Featurizer  # noqa: E402


@jax.jit
def score(f):
    return jnp.mean(f**2)


def main():
    feat = Featurizer()
    for i in range(3):
        raw = jnp.full((5, 4), float(i), jnp.float32)
        print(score(raw), score(feat.compute(raw)))


if __name__ == "__main__":
    main()
''',
}


def _projects(tmp_path: Path) -> dict[str, Path]:
    return {
        "precond": _write(tmp_path / "precond", PRECOND, X64=_X64, INIT="4"),
        "precond_fixed": _write(
            tmp_path / "precond_fixed", PRECOND, X64=_X64, INIT="4, jnp.float64"
        ),
        "moments": _write(tmp_path / "moments", MOMENTS, X64=_X64, INIT="4"),
        "moments_fixed": _write(
            tmp_path / "moments_fixed", MOMENTS, X64=_X64, INIT="4, dtype=jnp.float64"
        ),
        "score": _write(tmp_path / "score", SCORE, X64=_X64, BACK=""),
        "score_fixed": _write(tmp_path / "score_fixed", SCORE, X64=_X64, BACK=".astype(x.dtype)"),
    }


# Where each positive is reported: the float64 operand the step adds, the cast inside the featurizer.
EXPECTED = {
    "precond": [("precond.py", 13, "RTL402")],
    "moments": [("moments.py", 8, "RTL402")],
    "score": [("features.py", 8, "RTL402")],
}


def test_dtypes_from_parameters_and_jitted_results_are_found_where_they_widen(
    tmp_path: Path,
) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


def test_without_x64_the_factory_default_is_what_the_step_gives_back(tmp_path: Path) -> None:
    assert _found(_write(tmp_path, PRECOND, X64="", INIT="4")) == []


# The script each project runs and the jitted function it calls again, as jax names it.
RUNS = {
    "precond": ("main.py", "refresh"),
    "moments": ("main.py", "step"),
    "score": ("main.py", "score"),
}


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    _traced_as_expected(_projects(tmp_path), EXPECTED, RUNS, tmp_path)
