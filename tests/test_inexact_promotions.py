"""Where integers become floats, in the float jax or NumPy computes them in (issue 39): jax's true
division makes an integer array the float of its width (``jnp.arange(n) / n`` is float64 under x64,
an int32 array's float32 even there), and NumPy's float functions of Python numbers alone make a
NumPy float64 scalar (``np.sqrt(n)`` of an int), a strongly typed operand that widens a float32 state
under x64. Each positive widens a carried float32 state to float64 in its jitted step and is found
(where the float64 is made, or, its exact dtype known, where the state starts); its twin, one change away, stays float32 and is not flagged, and so is
the positive run without x64 (every 64-bit dtype is its 32-bit kin there). Checked under jax 0.10.2:
each positive traces its step twice, each twin once."""

from __future__ import annotations

from pathlib import Path

import pytest

# The same project writer and finder as the first projects of issue 39's flips.
from test_promoted_results import _found, _write

X64 = 'jax.config.update("jax_enable_x64", True)'

# A damped wave on a string, its state a NamedTuple advanced in a while loop; the damping profile, in
# a module of profiles, ramps over the string's points: ``jnp.arange(n) / n`` of their count.
STRING = {
    "profiles.py": '''\
"""Damping profiles along the string."""

import jax.numpy as jnp


def damping(points):
    n = points.shape[0]
    return 1.0 - 0.1 * (@RAMP@)
''',
    "wave.py": '''\
"""The string's state and its jitted step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

from profiles import damping


class WaveState(NamedTuple):
    height: jax.Array
    speed: jax.Array


@jax.jit
def advance(state, dt):
    speed = damping(state.height) * (state.speed - dt * state.height)
    return WaveState(state.height + dt * speed, speed)
''',
    "main.py": '''\
"""Pluck the string and let it ring for a few steps."""

import jax

@X64@

import jax.numpy as jnp  # noqa: E402

from wave import WaveState, advance  # noqa: E402


def pluck(n=16):
    height = jnp.sin(jnp.linspace(0.0, 3.14, n, dtype=jnp.float32))
    return WaveState(height, jnp.zeros(n, jnp.float32))


def main(steps=4):
    state = pluck()
    t = 0
    while t < steps:
        state = advance(state, jnp.float32(0.01))
        t += 1
    return state


if __name__ == "__main__":
    main()
''',
}

# Stochastic reconfiguration of a small wave function: a solver object in its own module scales the
# update by the number of samples it averages over, ``np.sqrt(n)`` of the batch's length.
VMC = {
    "reconfigure.py": '''\
"""A stochastic-reconfiguration solver."""

import jax
import jax.numpy as jnp
import numpy as np


class Reconfiguration:
    def __init__(self, rate):
        self.rate = rate

    def update(self, params, grads):
        n = grads.shape[0]
        step = jnp.mean(grads, axis=0) / @SQRT@
        return params - self.rate * step
''',
    "main.py": '''\
"""Optimise the wave function's parameters for a few sweeps."""

import jax

@X64@

import jax.numpy as jnp  # noqa: E402

from reconfigure import Reconfiguration  # noqa: E402

solver = Reconfiguration(0.05)
sweep = jax.jit(solver.update)


def samples(params, n=32):
    return jnp.ones((n, params.shape[0]), jnp.float32) * params


def main(sweeps=3):
    params = jnp.full(8, 0.5, jnp.float32)
    for _ in range(sweeps):
        params = sweep(params, samples(params))
    return params


if __name__ == "__main__":
    main()
''',
}


@pytest.mark.parametrize(
    ("files", "holes", "found"),
    [
        # Its exact dtype known (float64), the flip is told where the state starts as float32.
        (STRING, {"RAMP": "jnp.arange(n) / n", "X64": X64}, [("main.py", 13, "RTL402")]),
        (VMC, {"SQRT": "np.sqrt(n)", "X64": X64}, [("reconfigure.py", 14, "RTL402")]),
    ],
    ids=["divided-default-int", "numpy-sqrt-of-an-int"],
)
def test_a_float64_made_of_integers_under_x64_is_found_where_it_is_made(
    tmp_path: Path, files: dict[str, str], holes: dict[str, str], found: list
) -> None:
    assert _found(_write(tmp_path, files, **holes)) == found


@pytest.mark.parametrize(
    ("files", "holes"),
    [
        # An int32 array divided is float32 even under x64.
        (STRING, {"RAMP": "jnp.arange(n, dtype=jnp.int32) / n", "X64": X64}),
        # Without x64 the default int's float is float32.
        (STRING, {"RAMP": "jnp.arange(n) / n", "X64": ""}),
        # jax's sqrt of a Python int is a weakly typed float: it takes the state's float32.
        (VMC, {"SQRT": "jnp.sqrt(n)", "X64": X64}),
        # Without x64 a NumPy float64 scalar is float32 in jax.
        (VMC, {"SQRT": "np.sqrt(n)", "X64": ""}),
    ],
    ids=["int32-divided", "divided-without-x64", "jnp-sqrt", "numpy-sqrt-without-x64"],
)
def test_a_float_of_the_state_s_width_is_not_flagged(
    tmp_path: Path, files: dict[str, str], holes: dict[str, str]
) -> None:
    assert _found(_write(tmp_path, files, **holes)) == []
