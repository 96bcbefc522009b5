"""One fresh analysis of each fixture, made with an empty summary cache, shared by the tests that
compare other ways of analysing it with a fresh one (tests/test_prescan.py: without the pre-scan;
tests/test_reuse.py: from the cache's heads). Both files are one unit of work (tests/work_units.py),
so that each fixture is analysed fresh once per test process, not once per file.

The fresh run is one that writes a cache: that it finds what a run without any cache finds is
tests/test_reuse.py's ``_runs``, asserted at every run there.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import Run, analyse

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = FIXTURES.parent.parent


def fixture_projects() -> list[Path]:
    """Each project of tests/fixtures/ (a file or a folder), and the example project."""
    return [
        *sorted(p for p in FIXTURES.iterdir() if p.suffix == ".py" or p.is_dir()),
        ROOT / "examples",
    ]


@dataclass(frozen=True)
class FreshRun:
    run: Run
    cache: Path  # the summary cache it wrote: copy it before changing it (``cache_copy``)

    def cache_copy(self, folder: Path) -> Path:
        """A cache of ``folder`` of one's own, as the fresh run left it."""
        shutil.copytree(self.cache, folder)
        return folder


def cached_settings(cache_dir: Path) -> Settings:
    return Settings(cache_dir=str(cache_dir), jobs=1)


@cache
def fresh_run(project: Path) -> FreshRun:
    """``project`` analysed with the default settings and a cache of its own, empty at first."""
    folder = Path(tempfile.mkdtemp(dir=_caches())) / "cache"
    return FreshRun(analyse([str(project)], cached_settings(folder)), folder)


@cache
def _caches() -> Path:
    """Where this process keeps the fresh runs' caches, removed when it ends."""
    folder = Path(tempfile.mkdtemp(prefix="retracelint-fresh-runs-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder
