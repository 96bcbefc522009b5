"""The summary cache and parallel summarising: same findings whatever -j is, cache or no cache, and a
finding that depends on another module follows that module's edits."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from run_keys import finding_keys

from retracelint.cache import Entry, encode
from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.summarise import SummaryOptions, summarise
from retracelint.summary import fill_in, loaded

EXAMPLES = Path(__file__).parent.parent / "examples"

MODEL = """\
import jax


@jax.jit
def step(x):
    return x * 2
"""

HELPERS_SLICE = """\
def batch(data, n):
    return data[:n]
"""

HELPERS_PADDED = """\
def batch(data, n):
    return data[:64]
"""

MAIN = """\
from pkg.helpers import batch
from pkg.model import step


def main(data):
    for n in range(1, 10):
        step(batch(data, n))
"""


def _project(root: Path, helpers: str) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "model.py").write_text(MODEL, encoding="utf-8")
    (pkg / "helpers.py").write_text(helpers, encoding="utf-8")
    (pkg / "main.py").write_text(MAIN, encoding="utf-8")
    return pkg


def test_editing_a_callee_in_another_module_makes_the_finding_appear_and_go(tmp_path: Path) -> None:
    pkg = _project(tmp_path / "src", HELPERS_PADDED)
    settings = Settings(cache_dir=str(tmp_path / "cache"))
    assert analyse([str(pkg)], settings).findings == []
    (pkg / "helpers.py").write_text(HELPERS_SLICE, encoding="utf-8")
    run = analyse([str(pkg)], settings)
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in run.findings] == [
        ("helpers.py", 2, "RTL101")
    ]
    # Only the edited module was parsed again (the unchanged empty __init__, left out by the pre-scan,
    # is not even syntax-checked again: the last run's check is reused).
    assert run.cache_hits == 3
    (pkg / "helpers.py").write_text(HELPERS_PADDED, encoding="utf-8")
    assert analyse([str(pkg)], settings).findings == []


def test_warm_cache_gives_the_same_findings_as_no_cache(tmp_path: Path) -> None:
    project = tmp_path / "examples"
    shutil.copytree(EXAMPLES, project)
    cold = analyse([str(project)], Settings(cache=False))
    settings = Settings(cache_dir=str(tmp_path / "cache"))
    first = analyse([str(project)], settings)
    warm = analyse([str(project)], settings)
    assert finding_keys(cold) == finding_keys(first) == finding_keys(warm)
    assert warm.cache_hits == warm.files > 0
    assert len(cold.findings) >= 5


def test_output_order_does_not_depend_on_jobs(tmp_path: Path) -> None:
    # Enough files to use worker processes: copies of the example project under different names.
    for i in range(4):
        shutil.copytree(EXAMPLES, tmp_path / f"copy{i}")
    one = analyse([str(tmp_path)], Settings(cache=False, jobs=1))
    two = analyse([str(tmp_path)], Settings(cache=False, jobs=2))
    assert one.files >= 24
    assert finding_keys(one) == finding_keys(two)


def test_a_damaged_cache_entry_is_a_miss_not_an_error(tmp_path: Path) -> None:
    pkg = _project(tmp_path / "src", HELPERS_SLICE)
    cache = tmp_path / "cache"
    settings = Settings(cache_dir=str(cache))
    expected = finding_keys(analyse([str(pkg)], settings))
    entries = sorted(cache.rglob("*.pickle"))
    assert entries
    entries[0].write_bytes(entries[0].read_bytes()[:20])  # truncated
    entries[1].write_bytes(b"not a pickle at all")
    # So that the summaries are read, not the whole-run indexes.
    shutil.rmtree(cache / "v2" / "runs")
    shutil.rmtree(cache / "v2" / "projects")
    run = analyse([str(pkg)], settings)
    assert finding_keys(run) == expected
    assert run.cache_hits == len(entries) - 2
    assert (cache / ".gitignore").read_text(encoding="utf-8").strip().endswith("*")


def test_each_function_of_a_cached_head_is_filled_in_alone() -> None:
    """A head's functions are filled in one by one, each from a pickle of its own: one damaged
    function's rest is a miss for that function only."""
    summary = summarise(MAIN.encode(), "pkg/main.py", "pkg.main", False, SummaryOptions())
    head_bytes, rest_bytes = encode(summary)
    names = list(summary.functions)
    assert "pkg.main.main" in names and len(names) >= 2
    index = names.index("pkg.main.main")
    entry = Entry(head_bytes, rest_bytes)
    head = entry.head()
    assert head is not None and not any(loaded(fn) for fn in head.functions.values())
    rest = entry.rest(index)
    assert rest is not None
    fill_in(head.functions["pkg.main.main"], rest)
    assert head.functions["pkg.main.main"] == summary.functions["pkg.main.main"]
    assert [loaded(fn) for fn in head.functions.values()] == [n == index for n in range(len(names))]
    assert entry.whole() == summary
    count = len(names)
    start = int.from_bytes(rest_bytes[4 * index : 4 * index + 4], "little") if index else 0
    at = 4 + 4 * count + start
    damaged = Entry(head_bytes, rest_bytes[:at] + b"\xff" * 8 + rest_bytes[at + 8 :])
    assert damaged.rest(index) is None
    assert all(damaged.rest(i) is not None for i in range(count) if i != index)
    assert damaged.whole() is None
    assert damaged.rest(count) is None


def test_an_unchanged_run_reads_its_findings_back_and_any_edit_misses(tmp_path: Path) -> None:
    pkg = _project(tmp_path / "src", HELPERS_SLICE)
    cache = tmp_path / "cache"
    settings = Settings(cache_dir=str(cache))
    first = analyse([str(pkg)], settings)
    again = analyse([str(pkg)], settings)
    assert (
        finding_keys(again) == finding_keys(first)
        and again.summaries == []
        and again.cache_hits == again.files
    )
    (run_entry,) = (cache / "v2" / "runs").iterdir()
    run_entry.write_bytes(b"garbage")  # a damaged index entry is a miss: everything is linked again
    assert finding_keys(analyse([str(pkg)], settings)) == finding_keys(first)
    (pkg / "main.py").write_text(MAIN.replace("range(1, 10)", "range(1, 20)"), encoding="utf-8")
    edited = analyse([str(pkg)], settings)
    assert edited.summaries  # the edit was seen: linked again from the summaries
    assert finding_keys(edited) != finding_keys(first)  # the loop text in the message changed
    ignored = analyse([str(pkg)], Settings(cache_dir=str(cache), ignore=("RTL101",)))
    assert ignored.findings == []  # settings that decide findings are part of the key


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in (cache / "v2").glob("??/*.pickle"))


def _age(path: Path, days: float) -> None:
    then = time.time() - days * 86_400
    os.utime(path, (then, then))


def test_entries_unused_for_30_days_are_swept_once_a_day(tmp_path: Path) -> None:
    pkg = _project(tmp_path / "src", HELPERS_SLICE)
    cache = tmp_path / "cache"
    settings = Settings(cache_dir=str(cache), jobs=1)
    expected = finding_keys(analyse([str(pkg)], settings))
    entries = _entries(cache)
    assert len(entries) == 3  # main, model and helpers; __init__ is left out by the pre-scan
    # An entry of an older version of a file, and one of another version of retracelint.
    stale = [entries[0].with_name("0" * 40 + ".pickle"), entries[1].with_name("1" * 40 + ".pickle")]
    for path, source in zip(stale, entries, strict=False):
        shutil.copy(source, path)
        _age(path, 31)
    kept = next(path for path in entries if b"model.py" in path.read_bytes())
    _age(kept, 40)  # old, but the next relink reads it, which marks it used
    (pkg / "helpers.py").write_text(HELPERS_SLICE + "\n\ndef more():\n    return 1\n")

    _age(cache / "v2" / "last-sweep", 0.5)  # swept half a day ago: not again yet
    analyse([str(pkg)], settings)
    assert all(path.exists() for path in stale)

    _age(cache / "v2" / "last-sweep", 2)
    (pkg / "helpers.py").write_text(HELPERS_SLICE + "\n\ndef other():\n    return 2\n")
    run = analyse([str(pkg)], settings)
    assert not any(path.exists() for path in stale)
    assert kept.exists()
    assert finding_keys(run) == expected
    # What is left still serves a run: the same findings, no file summarised again.
    shutil.rmtree(cache / "v2" / "runs")
    shutil.rmtree(cache / "v2" / "projects")
    warm = analyse([str(pkg)], settings)
    assert finding_keys(warm) == expected
    assert warm.cache_hits == 3  # main, model, helpers; __init__ is only checked for syntax
