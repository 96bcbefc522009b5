"""A script's own folder is the first place its imports are found, as Python puts it first on sys.path.

Research repositories hold several example folders, each a script beside a helper package named as the
others' are (``examples/search/bo``, ``examples/refit/bo``, and a ``bo`` at the top). Analysed as one
project, each script's ``from bo.model import Surrogate`` is its own folder's package, never another's
nor none, and a package two scripts import from two folders is two modules: the findings of the whole
project are those of each folder analysed alone, whatever the hash seed and the number of processes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from limits import HANG_S
from test_cli import write

from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse

FIXTURES = Path(__file__).parent / "fixtures"
CLI = [sys.executable, "-I", "-m", "retracelint", "--no-cache", "--confidence", "all"]

RUN = """\
import jax.numpy as jnp

from bo.model import Acquisition, Surrogate


def main(rounds=20, batch=4):
    surrogate = Surrogate(jnp.zeros((4, 2)))
    acquisition = Acquisition()
    for r in range(rounds):
        starts = jnp.linspace(0.0, 1.0, 10).reshape(5, 2) * (r + 1)
        acquisition.next_batch(surrogate, starts, {size})


if __name__ == "__main__":
    main()
"""

# A Gaussian process whose training set grows by a row per point proposed: its jitted kernel
# re-traces on every update.
SEARCH_MODEL = """\
import jax
import jax.numpy as jnp


@jax.jit
def kernel(xa, xb, lengthscale):
    return jnp.exp(-0.5 * jnp.sum((xa[:, None] - xb[None, :]) ** 2, -1) / lengthscale**2)


class Surrogate:
    def __init__(self, train_x):
        self.train_x = train_x

    def update(self, x):
        self.train_x = jnp.concatenate([self.train_x, x[None, :]])

    def predict(self, x):
        return kernel(x[None, :], self.train_x, 0.3).sum()


class Acquisition:
    def next_batch(self, surrogate, x0, size):
        batch = []
        for i in range(size):
            x = x0[i % x0.shape[0]]
            print(surrogate.predict(x))
            surrogate.update(x)
            batch.append(x)
        return batch
"""

# The same classes over a preallocated buffer, with the batch size a static argument: only a
# script that changes the size re-traces.
REFIT_MODEL = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def spread(x0, size):
    return jnp.tile(x0.mean(0), (size, 1))


class Surrogate:
    def __init__(self, train_x):
        self.train_x = jnp.zeros((64, 2))
        self.count = 0

    def update(self, x):
        self.train_x = self.train_x.at[self.count % 64].set(x)
        self.count += 1


class Acquisition:
    def next_batch(self, surrogate, x0, size):
        batch = spread(x0, size)
        for x in batch:
            surrogate.update(x)
        return batch
"""

# A sweep that builds its solver anew per point, the solver a static argument: a new instance of a
# class hashed by identity per call (the class known only through the import of the package beside).
SWEEP_RUN = """\
import jax.numpy as jnp

from bo.model import Solver

for order in range(1, 6):
    solver = Solver(order)
    print(solver.integrate(jnp.ones(3)))
"""

SWEEP_MODEL = """\
from functools import partial

import jax


class Solver:
    def __init__(self, order):
        self.order = order

    @partial(jax.jit, static_argnums=0)
    def integrate(self, q0):
        return q0 * self.order
"""

# The project's own `bo` at the top, where an installed package would be: nothing jitted.
TOP_MODEL = """\
class Surrogate:
    def __init__(self, train_x):
        self.train_x = train_x

    def update(self, x):
        pass


class Acquisition:
    def next_batch(self, surrogate, x0, size):
        return [x0] * size
"""

EXAMPLES = ("examples/search", "examples/refit", "examples/sweep")
# Other projects of this shape, each a script (`run_bo.py`, `main.py`: names they share) beside a
# package (`bo`, `gp`, `trainer`: two of each), copied in as more example folders.
COPIED = (
    "optimiser_bests_made_arrays",
    "surrogates_refitted_on_growing_data",
    "methods_hidden_by_instance_attributes",
    "jits_from_two_calls_of_a_factory_negative",
    "branches_on_fields_fixed_for_the_run_negative",
)


def _lab(root: Path, copied: tuple[str, ...] = ()) -> Path:
    write(
        root,
        {
            "pyproject.toml": "[project]\nname = 'lab'\n",
            "bo/__init__.py": "",
            "bo/model.py": TOP_MODEL,
            "examples/search/run.py": RUN.format(size="batch"),
            "examples/search/bo/__init__.py": "",
            "examples/search/bo/model.py": SEARCH_MODEL,
            "examples/refit/run.py": RUN.format(size="batch + r"),
            "examples/refit/bo/__init__.py": "",
            "examples/refit/bo/model.py": REFIT_MODEL,
            "examples/sweep/run.py": SWEEP_RUN,
            "examples/sweep/bo/__init__.py": "",
            "examples/sweep/bo/model.py": SWEEP_MODEL,
        },
    )
    for name in copied:
        shutil.copytree(
            FIXTURES / name, root / "examples" / name, ignore=shutil.ignore_patterns("__pycache__")
        )
    return root


Key = tuple[str, int, int, str, str]


def _alone(folder: str) -> list[Key]:
    """The findings of ``folder`` analysed as a project of its own (run from the lab's top)."""
    run = analyse([folder], Settings(cache=False, confidence="all"))
    return sorted(
        (f.location.path, f.location.line, f.location.col, f.code, f.message) for f in run.findings
    )


def _under(found: list[Key], folder: str) -> list[Key]:
    return sorted(key for key in found if key[0].startswith(folder + os.sep))


@pytest.fixture
def lab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = _lab(tmp_path / "lab")
    monkeypatch.chdir(root)
    return root


def test_each_example_script_imports_the_package_beside_it(lab: Path) -> None:
    result = CliRunner().invoke(
        main, ["--no-cache", "--confidence", "all", "--format", "json", "."]
    )
    assert result.exit_code == 1, result.output
    found = [
        (f["path"], f["line"], f["col"], f["code"], f["message"]) for f in json.loads(result.stdout)
    ]
    # The growing training set of search's package, the size only refit's script changes, and the
    # solver sweep's new instance per point (not a value that "changes": its class is known).
    assert [(path, line, code) for path, line, _, code, _ in sorted(found)] == [
        (os.path.join("examples", "refit", "run.py"), 11, "RTL201"),
        (os.path.join("examples", "search", "bo", "model.py"), 15, "RTL102"),
        (os.path.join("examples", "sweep", "run.py"), 7, "RTL204"),
    ]
    for folder in EXAMPLES:
        assert _under(found, folder) == _alone(folder), folder
    # One example given: the same findings, its project being the whole lab.
    search = CliRunner().invoke(main, ["--no-cache", "--format", "json", EXAMPLES[0]])
    assert [(f["path"], f["line"], f["code"]) for f in json.loads(search.stdout)] == [
        (os.path.join("examples", "search", "bo", "model.py"), 15, "RTL102")
    ]


def _cli(project: Path, seed: str, jobs: str) -> str:
    proc = subprocess.run(
        [*CLI, "--format", "json", "-j", jobs, "."],
        cwd=project,
        env={**os.environ, "PYTHONHASHSEED": seed},
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    return proc.stdout


def test_many_examples_find_what_each_finds_alone_under_any_seed_and_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enough files that -j2 summarises some in worker processes."""
    root = _lab(tmp_path / "lab", COPIED)
    assert len(list(root.rglob("*.py"))) >= 24
    outputs = {run: _cli(root, *run) for run in [("0", "1"), ("1", "2"), ("2", "1"), ("3", "2")]}
    first = next(iter(outputs.values()))
    assert all(out == first for out in outputs.values()), list(outputs)
    found = [(f["path"], f["line"], f["col"], f["code"], f["message"]) for f in json.loads(first)]
    monkeypatch.chdir(root)
    for folder in (*EXAMPLES, *(os.path.join("examples", name) for name in COPIED)):
        assert _under(found, folder) == _alone(folder), folder
    # The RTL102 that was lost inside a larger project (the package's `bo.gp` keyed by its folder).
    assert (os.path.join("examples", COPIED[0], "bo", "gp.py"), 21, "RTL102") in {
        (path, line, code) for path, line, _, code, _ in found
    }
