"""pytest-xdist's units of work for this suite (``--dist loadfile`` in pyproject.toml; the scheduler is
tests/conftest.py's).

A test file's tests run on one worker, so that a module fixture that runs programs under jax is made
once. A file whose module fixture would be one worker's long serial tail (the dynamic fixtures: about
two minutes) cuts that fixture into batches instead: each batch is a value of an indirectly
parametrised module fixture, and the ids of the tests that use it end in ``@unit-BATCH``
(``unit_id``). All the tests of one batch form a unit of their own, which xdist hands to whichever
worker is free, as it does a file.

The units that run programs under jax for tens of seconds go out first (``first_of``): handed out
last, one of them would be one worker's tail while the other has nothing left to do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_UNIT = re.compile(r"@(unit-[\w-]+)\]$")
# The files whose module fixtures run programs under jax longest (pytest --durations: 20 to 40 s each
# on a quiet machine), besides the batches; and the other files of about 20 CPU s or more
# (tests/cpu_profile.py at ea1d933: fuzzing, language servers started per test, programs run to
# prove fixes, pathological inputs), which handed out last left one worker alone for their length.
SLOW_FILES = (
    "tests/test_confirm_pytest_plugin.py",
    "tests/test_accuracy_benchmark.py",
    "tests/test_confirm_programs.py",
    "tests/test_fuzz.py",
    "tests/test_server.py",
    "tests/test_fix_shapes.py",
    "tests/test_robustness.py",
)


def unit_id(name: str, batch: str) -> str:
    """The id of a test parametrised by ``name`` whose module fixture's batch is ``batch``."""
    return f"{name}@unit-{batch}"


# Files that use each other's runs of the example projects (made once per session): one unit, so that
# no worker waits on a lock for runs the other worker is making.
SHARED_RUNS = {
    "tests/test_examples_dynamic.py": "examples",
    "tests/test_confirm_examples.py": "examples",
    "tests/test_confirm_identical.py": "examples",
    # Each fixture's fresh run (tests/fixture_runs.py).
    "tests/test_prescan.py": "fresh-runs",
    "tests/test_reuse.py": "fresh-runs",
}


def work_unit(nodeid: str) -> str:
    """The unit a test runs in: its file, or its file's batch where its id names one, or the unit of
    the files whose runs it shares."""
    file = nodeid.split("::", 1)[0]
    batch = _UNIT.search(nodeid)
    if batch:
        return f"{file}::{batch.group(1)}"
    return f"tests/::unit-{SHARED_RUNS[file]}" if file in SHARED_RUNS else file


def first_of(units: Iterable[str]) -> str | None:
    """Which of the units waiting (in xdist's order) to hand out next: the first slow one, if any."""
    return next((unit for unit in units if "::unit-" in unit or unit in SLOW_FILES), None)
