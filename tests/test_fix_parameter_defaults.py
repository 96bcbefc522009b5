"""RTL401/RTL402's fixes where the value that flips the jitted function's key is a parameter's default
(issue 41): the finding is at the def (``def fit(w, g, lr=0.1)``), and the default is made
like the other value: a typed array for a weakly typed float (unsafe), a float literal for an int
against a float (safe). Idempotent; a default the fix cannot tell the kind of is left alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix_closures import codes, fixed_once, lint, project, proved_by_jax

OPTIM = '''\
"""Gradient descent whose learning rate decays after each block of steps."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def block(w, g, steps, lr):
    for _ in range(steps):
        w = sgd_step(w, g, lr)
    return w, lr * jnp.exp(jnp.float32(-0.5))
'''

FIT = """\
import json
from pathlib import Path

import jax.numpy as jnp
from optim import block


def fit(w, g, lr=0.1):  # the rate before any decay
    w, lr = block(w, g, 2, lr)
    w, lr = block(w, g, 2, lr)
    return w


lowest = fit(jnp.ones(3), jnp.array([0.5, -1.0, 2.0])).tolist()
Path(__file__).with_name("out.json").write_text(json.dumps(lowest), encoding="utf-8")
"""

RELAX = """\
import jax
import jax.numpy as jnp


@jax.jit
def advance(state, t):
    return state * jnp.exp(-0.1 * t)


def relax(state, t0=0):
    return advance(state, t0)


def settle(state):
    return advance(state, 0.5)


print(relax(jnp.ones(2)), settle(jnp.ones(2)))
"""


def test_a_weakly_typed_default_becomes_a_typed_array(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"optim.py": OPTIM, "fit.py": FIT})
    assert codes(".") == [("fit.py", "RTL401")]
    text = fixed_once(root, "fit.py")
    assert text == FIT.replace(
        "def fit(w, g, lr=0.1):", "def fit(w, g, lr=jnp.asarray(0.1, jnp.float32)):"
    )  # the comment kept


def test_the_typed_default_traces_once_and_descends_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"optim.py": OPTIM, "fit.py": FIT}
    proved_by_jax(tmp_path, monkeypatch, {"fit": (files, "fit.py", "sgd_step", 1)})


def test_an_int_default_against_a_float_becomes_a_float_literal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"relax.py": RELAX})
    assert codes(".") == [("relax.py", "RTL402")]
    assert lint("--fix", ".").exit_code == 0  # safe: --fix alone makes it
    assert (root / "relax.py").read_text(encoding="utf-8") == RELAX.replace("t0=0)", "t0=0.0)")
    assert lint("--fix", ".").stdout == ""


def test_a_default_the_finding_does_not_name_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the int start time is carried by the loop: the finding is at the def, about the loop's t,
    # which starts as what max makes of the default, not as the default itself (``t = t0`` is
    # fixed: tests/test_fix_casts.py)
    relax = RELAX.replace(
        "def relax(state, t0=0):\n    return advance(state, t0)\n",
        "def relax(state, dt, t0=0):\n    t = max(t0, 0)\n    for _ in range(3):\n"
        "        state = advance(state, t)\n        t += dt\n    return state\n",
    ).replace("relax(jnp.ones(2))", "relax(jnp.ones(2), 0.1)")
    root = project(tmp_path, monkeypatch, {"relax.py": relax})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "RTL402 not fixed: t does not start as an int literal here" in result.stderr, (
        result.stderr
    )
    assert (root / "relax.py").read_text(encoding="utf-8") == relax
