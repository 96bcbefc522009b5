"""What a closure reads from around it, as the analysis (``closures.settings_read``) and the fixes
(``closure_args``) both see it through one ``free_names``: a class defined inside the closure is the
closure's own, and what that class's methods read from the factory is closed over (issue 41)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_fix_closures import codes, fixed_once, project

from retracelint.summarise.closures import settings_read
from retracelint.summarise.syntax import free_names

TRACKER = '''\
"""A tracking controller rebuilt for every waypoint."""

import jax
import jax.numpy as jnp


def make_tracker(goal, gain):
    """Build the controller for the current waypoint."""

    def control(state):
        class Error:
            # the error to the goal, split in position and heading
            def __init__(self, state):
                self.state = state

            def position(self):
                return goal[:2] - self.state[:2]

            def heading(self):
                return goal[2:] - self.state[2:]

        error = Error(state)
        return gain * jnp.concatenate([error.position(), error.heading()])

    return jax.jit(control)
'''

SIM = """\
import jax.numpy as jnp

from controllers import make_tracker


def run(ticks):
    state = jnp.zeros(3)
    for tick in range(ticks):
        controller = make_tracker(jnp.full(3, 0.5 * tick), 0.8)
        state = state + controller(state)
    return state


print(run(3))
"""

TRACKER_FIXED = '''\
"""A tracking controller rebuilt for every waypoint."""
from functools import partial

import jax
import jax.numpy as jnp


def control(state, *, gain, goal):
    class Error:
        # the error to the goal, split in position and heading
        def __init__(self, state):
            self.state = state

        def position(self):
            return goal[:2] - self.state[:2]

        def heading(self):
            return goal[2:] - self.state[2:]

    error = Error(state)
    return gain * jnp.concatenate([error.position(), error.heading()])


control_jit = jax.jit(control)


def make_tracker(goal, gain):
    """Build the controller for the current waypoint."""

    return partial(control_jit, gain=gain, goal=goal)
'''


def _control() -> ast.FunctionDef:
    return next(
        n
        for n in ast.walk(ast.parse(TRACKER))
        if isinstance(n, ast.FunctionDef) and n.name == "control"
    )


def test_a_class_made_inside_a_closure_is_its_own_and_its_methods_reads_are_closed_over() -> None:
    control = _control()
    # Error is bound in control's own scope: calling it is not calling a function from outside
    assert free_names(control) == {"gain", "goal", "jnp"}
    assert "Error" not in settings_read(control, lambda dotted: dotted)


def test_a_closure_with_a_nested_class_gets_what_the_class_reads_as_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"controllers.py": TRACKER, "sim.py": SIM})
    assert codes(".") == [("controllers.py", "RTL301")]
    # goal is read only by the nested class's methods: the jit built once is given it too
    assert fixed_once(root, "controllers.py") == TRACKER_FIXED
    assert (root / "sim.py").read_text() == SIM
