"""The negative fixtures about sizes and values that do not vary are true negatives: run under jax,
every function they jit traces exactly once.

These are the near misses the static pass must leave clean (padding back to a fixed size, fixed
windows of signals of several lengths, ranges whose bounds move together, lists refilled to one
length, equal literal items, index dtypes). ``test_fixtures.py`` checks that the analysis reports
nothing there; this file checks, with jax itself, that nothing should be reported. All programs run
in one subprocess (one jax import), from a copy of the fixtures, so no cache files land in the tree.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from dynamic_support import RetraceReport, count_retraces_many

FIXTURES = Path(__file__).parent / "fixtures"
# Each fixture (a file, or a folder and the module to run) whose every jitted function traces once.
TRACE_ONCE = (
    ("rtl101_negative_windows_of_variable_signals.py", None),
    ("rtl102_negative_lists_refilled_per_iteration.py", None),
    ("rtl103_negative_padded_last_batch.py", None),
    ("rtl105_negative_arange_pages.py", None),
    ("rtl201_negative_values_that_do_not_vary.py", None),
    ("rtl402_negative_index_dtypes.py", None),
    ("padded_clips_across_modules", "train.py"),
)

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[RetraceReport, Path]]:
    folder: Path = tmp_path_factory.mktemp("negative_fixtures")
    scripts: list[Path] = []
    for name, main in TRACE_ONCE:
        source = FIXTURES / name
        if main is None:
            shutil.copy(source, folder / name)
            scripts.append(folder / name)
        else:
            shutil.copytree(source, folder / name)
            scripts.append(folder / name / main)
    reports = count_retraces_many(scripts, cwd=folder, timeout=240)
    return {
        name: (report, script.parent)
        for (name, _), report, script in zip(TRACE_ONCE, reports, scripts, strict=True)
    }


@pytest.mark.parametrize("name", [name for name, _ in TRACE_ONCE])
def test_negative_fixture_traces_each_function_once(
    name: str, runs: dict[str, tuple[RetraceReport, Path]]
) -> None:
    report, folder = runs[name]
    assert not report.raised, report.summary()
    # jax's own helpers (no file) are not the program's functions: argmax traces one per call site.
    own = {f: n for f, n in report.traces.items() if f.file and Path(f.file).parent == folder}
    assert own, "the fixture must call its jitted functions\n" + report.summary()
    assert all(n == 1 for n in own.values()), report.summary()
