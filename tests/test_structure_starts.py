"""A carried state whose first pytree structure is made somewhere else than the loop that carries it
(issue 39, structure families), each found with RTL403 at the place that makes the odd structure:

- a state that starts as an instance of a class (a NamedTuple, a registered dataclass) that a helper
  or a method of another object constructs (``cell.zero_state(batch)`` returning ``State(c, h)``)
  and that the jitted step gives back as one array (``jnp.concatenate([c, h], axis=1)``) or as a
  plain tuple: told where the class's instance is constructed, not at the call that hands it on;
- an attribute of an object reached from a parameter (``self.eq.spline``, ``eq.spline``) that its
  class's ``__init__`` sets to ``None`` and a loop stores back from a jitted fit that never gives
  None: told at the ``None``.

Their twins trace once and stay clean: a step that gives the class back (in one branch of a flag or
always), an attribute the holder's own method fits before any loop runs, a placeholder array.
Each positive re-traces under jax 0.10.2 and each twin traces once (checked when written, with
``retracelint confirm``-style counting; not run in this suite, which is at its time budget)."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _write

# A recurrent cell whose zero state is a class's instance made by the cell; a runner in another
# module carries the state through a jitted step (a method bound in __init__) in a @LOOP@ loop; the
# cell gives back @BACK@.
CELL = {
    "cell.py": '''\
"""A gated recurrent cell that keeps a cell and a hidden state."""

import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Carry(NamedTuple):
    c: jax.Array
    h: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Memory:
    c: jax.Array
    h: jax.Array


class Cell:
    def __init__(self, units, packed=True):
        self.units = units
        self.packed = packed

    def zero_state(self, batch):
        c = jnp.zeros((batch, self.units))
        h = jnp.zeros((batch, self.units))
        return @START@(c, h)

    def __call__(self, state, x):
        c, h = state.c, state.h
        new_c = 0.5 * c + jnp.tanh(x)
        new_h = jnp.tanh(new_c) * h
        return new_h, @BACK@
''',
    "runner.py": '''\
"""Run the cell over a sequence, one jitted step per frame."""

import jax


class Runner:
    def __init__(self, cell):
        self.cell = cell
        self._step = jax.jit(self.step)

    def step(self, state, x):
        return self.cell(state, x)

    def last_output(self, frames):
        state = self.cell.zero_state(frames.shape[1])
        out = None
@LOOP@
        return out
''',
    "main.py": '''\
"""Run a cell over random frames."""

import jax

from cell import Cell
from runner import Runner


def main():
    frames = jax.random.normal(jax.random.PRNGKey(0), (5, 2, 4))
    print(Runner(Cell(4)).last_output(frames))


if __name__ == "__main__":
    main()
''',
}

FOR = """\
        for x in frames:
            out, state = self._step(state, x)"""
WHILE = """\
        t = 0
        while t < frames.shape[0]:
            out, state = self._step(state, frames[t])
            t += 1"""

CONCAT = "jnp.concatenate([new_c, new_h], axis=1)"
BY_FLAG = f"Carry(new_c, new_h) if self.packed else {CONCAT}"


def _cells(tmp_path: Path) -> dict[str, Path]:
    made = {
        "carry_concat": ("Carry", CONCAT, FOR),
        "memory_concat_while": ("Memory", CONCAT, WHILE),
        "carry_tuple_while": ("Carry", "(new_c, new_h)", WHILE),
        "carry_kept": ("Carry", "Carry(new_c, new_h)", FOR),
        "memory_kept_while": ("Memory", "Memory(new_c, new_h)", WHILE),
        "carry_by_flag": ("Carry", BY_FLAG, FOR),
    }
    return {
        name: _write(tmp_path / name, CELL, START=start, BACK=back, LOOP=loop)
        for name, (start, back, loop) in made.items()
    }


# The line of ``return @START@(c, h)`` in cell.py.
_CONSTRUCTED = ("cell.py", 30, "RTL403")
CELL_EXPECTED = {
    "carry_concat": [_CONSTRUCTED],
    "memory_concat_while": [_CONSTRUCTED],
    "carry_tuple_while": [_CONSTRUCTED],
}


def test_a_class_start_given_back_as_an_array_or_tuple_is_told_where_it_is_constructed(
    tmp_path: Path,
) -> None:
    for name, root in _cells(tmp_path).items():
        assert _found(root) == CELL_EXPECTED.get(name, []), name


def test_the_message_names_the_class_and_the_array(tmp_path: Path) -> None:
    from retracelint.config import Settings
    from retracelint.engine import analyse

    root = _write(tmp_path / "cell", CELL, START="Carry", BACK=CONCAT, LOOP=FOR)
    (finding,) = analyse([str(root)], Settings(cache=False, select=("RTL",))).findings
    assert "state starts as a Carry here and is an array once self._step() returns it" in (
        finding.message
    )


# A profile fit kept on an equilibrium object, None until the first fit; a scan (another module)
# refits it per pressure step through a jitted fit that warm-starts from it.
SCAN = {
    "fit.py": '''\
"""Least-squares fit of a polynomial profile, warm-started from earlier coefficients."""

import jax
import jax.numpy as jnp


@jax.jit
def refit(grid, samples, coef):
    basis = jnp.stack([grid**k for k in range(4)], axis=-1)
    if coef is None:
        coef = jnp.linalg.lstsq(basis, samples)[0]
    return jax.lax.fori_loop(0, 10, lambda _, c: c - 0.01 * basis.T @ (basis @ c - samples), coef)


def first_fit(grid, samples):
    return jnp.linalg.lstsq(jnp.stack([grid**k for k in range(4)], axis=-1), samples)[0]
''',
    "equilibrium.py": '''\
"""A toy equilibrium: a grid and a profile on it, with its fit left unset until asked."""

import jax.numpy as jnp

from fit import first_fit


class Equilibrium:
    def __init__(self, n=16):
        self.grid = jnp.linspace(0.0, 1.0, n)
        self.scale = 1.0
        self.coef = None

    def profile(self):
        return 1.0 + self.scale * self.grid**2
@SETUP@
''',
    "scan.py": '''\
"""Raise the scale step by step and refit the profile each time."""

from fit import refit


class Scan:
    def __init__(self, eq):
        self.eq = eq

    def run(self, scales):
        for scale in scales:
            self.eq.scale = scale
            self.eq.coef = refit(self.eq.grid, self.eq.profile(), self.eq.coef)
        return self.eq.coef


def sweep(eq, scales):
    for scale in scales:
        eq.scale = scale
        eq.coef = refit(eq.grid, eq.profile(), eq.coef)
    return eq.coef
''',
    "main.py": '''\
"""Scan a toy equilibrium @HOW@."""

from equilibrium import Equilibrium
from scan import Scan, sweep


def main():
    eq = Equilibrium()
@PREPARE@
    print(@RUN@)


if __name__ == "__main__":
    main()
''',
}

FITTED = """
    def fit(self):
        self.coef = first_fit(self.grid, self.profile())
"""


def _scans(tmp_path: Path) -> dict[str, Path]:
    made = {
        "scan_method": ("", "", "Scan(eq).run([0.5, 1.0, 1.5])"),
        "scan_function": ("", "", "sweep(eq, [0.5, 1.0, 1.5])"),
        "scan_fitted_first": (FITTED, "    eq.fit()", "Scan(eq).run([0.5, 1.0, 1.5])"),
        "scan_function_fitted_first": (FITTED, "    eq.fit()", "sweep(eq, [0.5, 1.0])"),
    }
    return {
        name: _write(tmp_path / name, SCAN, SETUP=setup, PREPARE=prepare, RUN=run, HOW="scan")
        for name, (setup, prepare, run) in made.items()
    }


# The line of ``self.coef = None`` in equilibrium.py.
_NONE = ("equilibrium.py", 12, "RTL403")
SCAN_EXPECTED = {"scan_method": [_NONE], "scan_function": [_NONE]}


def test_a_none_field_of_another_object_refitted_by_a_jitted_fit_is_told_at_the_none(
    tmp_path: Path,
) -> None:
    for name, root in _scans(tmp_path).items():
        assert _found(root) == SCAN_EXPECTED.get(name, []), name
