"""``-j N``: N processes in all, the same findings whatever N is, and a worker that dies costs time, not
findings."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from run_keys import finding_keys

from retracelint import workers
from retracelint.config import Settings
from retracelint.engine import analyse

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture()
def copies(tmp_path: Path) -> Path:
    """Enough files for worker processes: copies of the example project under different names."""
    for i in range(4):
        shutil.copytree(EXAMPLES, tmp_path / "tree" / f"copy{i}")
    return tmp_path / "tree"


def _dies(*args: object) -> list[bytes]:
    os._exit(3)  # as if killed for memory


# CPython 3.11's executor thread then also fails on the chunks this process had cancelled (taken
# over), an InvalidStateError in that thread that changes nothing for the run.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_dying_worker_costs_time_not_findings(
    copies: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = finding_keys(analyse([str(copies)], Settings(cache=False, jobs=1)))
    assert len(expected) >= 10
    monkeypatch.setattr(workers, "summarise_chunk", _dies)  # inherited by forked workers
    run = analyse([str(copies)], Settings(cache=False, jobs=3))
    assert finding_keys(run) == expected


@pytest.mark.parametrize("jobs", [2, 3, 5])
def test_any_number_of_processes_gives_the_same_findings_and_cache(
    copies: Path, tmp_path: Path, jobs: int
) -> None:
    expected = finding_keys(analyse([str(copies)], Settings(cache=False, jobs=1)))
    cache = tmp_path / f"cache{jobs}"
    # Without the pre-scan every file is summarised, so every file has a cache entry.
    settings = Settings(cache_dir=str(cache), jobs=jobs, prescan=False)
    cold = analyse([str(copies)], settings)
    assert finding_keys(cold) == expected
    shutil.rmtree(cache / "v1" / "runs")
    shutil.rmtree(cache / "v1" / "projects")
    # Every summary, made here or in a worker, was cached under its file's key.
    warm = analyse([str(copies)], settings)
    assert finding_keys(warm) == expected
    assert warm.cache_hits == warm.files


def test_chunks_hand_out_the_largest_files_first() -> None:
    tasks = [
        workers.Task(i, f"f{i}.py", f"f{i}", False, b"x" * size, "")
        for i, size in enumerate([10, 500, 40, 300, 20, 1000])
    ]
    chunks = workers._chunks(tasks, limit=100)
    sizes = [[len(t.source) for t in chunk] for chunk in chunks]
    assert sizes == [[1000], [500], [300], [40, 20, 10]]
