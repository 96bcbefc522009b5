"""``-j N``: N processes in all, the same findings whatever N is, and a worker that dies costs time, not
findings."""

from __future__ import annotations

import concurrent.futures
import os
import shutil
from pathlib import Path

import pytest
from cache_files import forget_runs
from run_keys import finding_keys

from retracelint import workers
from retracelint.cache import Encoded, Entry, encode
from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.summarise import SummaryOptions, summarise
from retracelint.summary import ModuleSummary

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture()
def copies(tmp_path: Path) -> Path:
    """Enough files for worker processes: copies of the example project under different names."""
    for i in range(4):
        shutil.copytree(EXAMPLES, tmp_path / "tree" / f"copy{i}")
    return tmp_path / "tree"


def _dies(*args: object) -> list[bytes]:
    os._exit(3)  # as if killed for memory


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
    forget_runs(cache)
    # Every summary, made here or in a worker, was cached under its file's key.
    warm = analyse([str(copies)], settings)
    assert finding_keys(warm) == expected
    assert warm.cache_hits == warm.files


def test_chunks_hand_out_the_largest_files_first_and_shrink_as_the_queue_drains() -> None:
    sizes = [40_000, 900_000, 70_000, 300_000, 20_000, 1_000_000, 500_000] + [5_000] * 100
    tasks = [
        workers.Task(i, f"f{i}.py", f"f{i}", False, b"x" * size, "") for i, size in enumerate(sizes)
    ]
    # Sized for 2 processes; min_tasks keeps the worker from starting, so no chunk is given out.
    pool = workers.Pool(2, SummaryOptions(), cache=None, min_tasks=len(tasks) + 1)
    pool.add(tasks)
    chunks = []
    while pool._queue:
        chunks.append([len(t.source) for t in pool._take_chunk()])
    assert chunks[0] == [1_000_000]
    assert [size for chunk in chunks for size in chunk] == sorted(sizes, reverse=True)
    totals = [sum(chunk) for chunk in chunks]
    assert totals[1:] == sorted(totals[1:], reverse=True)
    assert totals[-1] <= workers._MIN_CHUNK_BYTES


class _NoProcesses:
    """An executor in a sandbox that allows no new processes."""

    tried = 0

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def submit(self, *args: object) -> None:
        _NoProcesses.tried += 1
        raise OSError("fork: Resource temporarily unavailable")

    def shutdown(self, *args: object, **kwargs: object) -> None:
        pass


def test_workers_that_cannot_start_leave_the_work_to_this_process(
    copies: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = finding_keys(analyse([str(copies)], Settings(cache=False, jobs=1)))
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _NoProcesses)
    run = analyse([str(copies)], Settings(cache=False, jobs=4))
    assert finding_keys(run) == expected
    assert _NoProcesses.tried == 1  # then this process did everything, without trying again


class _FinishesWhileAsked:
    """A worker's chunk that finishes just after it was first asked whether it had."""

    def __init__(self, encoded: list[Encoded]) -> None:
        self.encoded = encoded
        self.asked = 0

    def done(self) -> bool:
        self.asked += 1
        return self.asked > 1

    def result(self) -> list[Encoded]:
        return self.encoded


def test_a_chunk_finishing_while_results_are_collected_is_not_lost() -> None:
    summary = summarise(b"def f():\n    return 1\n", "m.py", "m", False, SummaryOptions())
    task = workers.Task(0, "m.py", "m", False, b"", "")
    pool = workers.Pool(2, SummaryOptions(), cache=None)
    pool._given = [((task,), _FinishesWhileAsked([encode(summary)]))]  # type: ignore[list-item]
    out: dict[int, ModuleSummary] = {}

    def redone(task: workers.Task) -> ModuleSummary:
        raise AssertionError("the worker's summary was lost and made again here")

    def arrived(task: workers.Task, entry: Entry) -> ModuleSummary:
        assert entry.whole() == summary
        return summary

    pool._collect(redone, arrived, out, wait=False)
    pool._collect(redone, arrived, out, wait=True)
    assert out == {0: summary}


def test_the_process_switch_interval_is_restored_after_the_workers(
    copies: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool shortens the interval while its threads move chunks; the flake8 plugin runs in
    flake8's own process, which must get its own setting back."""
    monkeypatch.setattr(workers, "_MIN_CHUNK_BYTES", 1)  # several chunks even for a small tree
    own = 0.0123
    monkeypatch.setattr("sys.getswitchinterval", lambda: own)
    seen: list[float] = []
    monkeypatch.setattr("sys.setswitchinterval", seen.append)
    run = analyse([str(copies)], Settings(cache=False, jobs=2, prescan=False))
    assert run.files > 4
    assert seen == [workers._SWITCH_INTERVAL, own]
