"""A file whose size, times and inode are those the last run kept is not read again: its digest is the
last run's. Files written moments before a run are read anyway (their times cannot tell the next
edit apart), so these tests turn that margin off to see stamps at work."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from cache_files import packs_folder
from run_keys import finding_keys

from retracelint import engine
from retracelint.config import Settings
from retracelint.engine import Run, analyse

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "examples"
    shutil.copytree(EXAMPLES, root)
    monkeypatch.setattr(engine, "_RACY_NS", -(10**18))  # every stamp is old enough to keep
    return root


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files read from now on."""
    seen: list[str] = []
    real = engine._read

    def counted(path: str, *args: int | None) -> tuple[bytes | None, str | None]:
        seen.append(path)
        return real(path, *args)

    monkeypatch.setattr(engine, "_read", counted)
    return seen


def _cached_and_fresh(root: Path, cache: Path) -> Run:
    cached = analyse([str(root)], Settings(cache_dir=str(cache), jobs=1))
    fresh = analyse([str(root)], Settings(cache=False, jobs=1))
    assert finding_keys(cached) == finding_keys(fresh)
    return cached


def test_only_the_edited_file_is_read_again(
    project: Path, tmp_path: Path, reads: list[str]
) -> None:
    cache = tmp_path / "cache"
    first = analyse([str(project)], Settings(cache_dir=str(cache), jobs=1))
    assert len(set(reads)) == first.files  # a first run reads every file
    train = project / "trainer" / "train.py"
    train.write_text("\n" + train.read_text(encoding="utf-8"), encoding="utf-8")
    reads.clear()
    moved = analyse([str(project)], Settings(cache_dir=str(cache), jobs=1))
    assert reads == [str(train)]
    assert finding_keys(moved) != finding_keys(first)
    reads.clear()
    assert finding_keys(_cached_and_fresh(project, cache)) == finding_keys(moved)


def test_a_file_that_kept_its_stamp_but_not_its_bytes_is_analysed_as_it_is(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should a file change without a new stamp, and its bytes then be needed (another file changed,
    and its summary is no longer cached), the bytes read do not match the digest taken from the last
    run: the run starts again and reads every file."""
    cache = tmp_path / "cache"
    first = analyse([str(project)], Settings(cache_dir=str(cache), jobs=1))
    train = project / "trainer" / "train.py"
    kept = os.stat(train)
    train.write_text("\n" + train.read_text(encoding="utf-8"), encoding="utf-8")
    real_stat = os.stat

    def stat(path: str | os.PathLike[str], *args: object, **kwargs: object) -> os.stat_result:
        return kept if os.fspath(path) == str(train) else real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    data = project / "trainer" / "data.py"
    data.write_text(data.read_text(encoding="utf-8") + "\n\ndef unused():\n    return 1\n")
    shutil.rmtree(packs_folder(cache))  # every summary gone: the bytes must be read to make them
    trusted: list[bool] = []
    real_run = engine._project_run_reading

    def run(*args: object, trust: bool) -> Run:
        trusted.append(trust)
        return real_run(*args, trust=trust)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_project_run_reading", run)
    again = analyse([str(project)], Settings(cache_dir=str(cache), jobs=1))
    assert trusted == [True, False]  # started again, reading every file
    monkeypatch.setattr(os, "stat", real_stat)
    fresh = analyse([str(project)], Settings(cache=False, jobs=1))
    assert finding_keys(again) == finding_keys(fresh) != finding_keys(first)
