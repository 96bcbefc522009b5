"""The summary cache and parallel summarising: same findings whatever -j is, cache or no cache, and a
finding that depends on another module follows that module's edits."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from cache_files import entry_keys, forget_runs, pack_files, pack_of, packs_folder, replace
from run_keys import finding_keys

import retracelint.cache as cache_module
from retracelint.cache import Entry, SummaryCache, encode
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
    keys = entry_keys(cache)
    assert keys
    replace(cache, keys[0], pack_of(cache, keys[0]).read_bytes()[:20])  # truncated
    replace(cache, keys[1], b"not a pickle at all")
    forget_runs(cache)  # so that the summaries are read, not the whole-run indexes
    run = analyse([str(pkg)], settings)
    assert finding_keys(run) == expected
    assert run.cache_hits == len(keys) - 2
    # A damaged index: each pack's own index says what it holds.
    (packs_folder(cache) / "index").write_bytes(b"garbage")
    forget_runs(cache)
    run = analyse([str(pkg)], settings)
    assert finding_keys(run) == expected and run.cache_hits == len(keys)
    # Kept out of version control and of backups, as ruff's and pytest's caches are.
    assert (cache / ".gitignore").read_text(encoding="utf-8").strip().endswith("*")
    tag = (cache / "CACHEDIR.TAG").read_text(encoding="utf-8")
    assert tag.startswith("Signature: 8a477f597d28d172789f06886806bc55")


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
    (run_entry,) = (cache / "v3" / "runs").iterdir()
    run_entry.write_bytes(b"garbage")  # a damaged index entry is a miss: everything is linked again
    assert finding_keys(analyse([str(pkg)], settings)) == finding_keys(first)
    (pkg / "main.py").write_text(MAIN.replace("range(1, 10)", "range(1, 20)"), encoding="utf-8")
    edited = analyse([str(pkg)], settings)
    assert edited.summaries  # the edit was seen: linked again from the summaries
    assert finding_keys(edited) != finding_keys(first)  # the loop text in the details changed
    ignored = analyse([str(pkg)], Settings(cache_dir=str(cache), ignore=("RTL101",)))
    assert ignored.findings == []  # settings that decide findings are part of the key


def _age(path: Path, days: float) -> None:
    then = time.time() - days * 86_400
    os.utime(path, (then, then))


def test_packs_unused_for_30_days_are_swept_once_a_day(tmp_path: Path) -> None:
    pkg = _project(tmp_path / "src", HELPERS_SLICE)
    cache = tmp_path / "cache"
    settings = Settings(cache_dir=str(cache), jobs=1)
    expected = finding_keys(analyse([str(pkg)], settings))
    assert (
        len(entry_keys(cache)) == 3
    )  # main, model and helpers; __init__ is left out by the pre-scan
    (kept,) = pack_files(cache)  # this process summarised them: one batch, one pack
    # A pack of an entry no file has now (an older version of a file, another retracelint).
    SummaryCache(cache, "").put_many([("0" * 40, (b"an old head", b""))])
    (stale,) = set(pack_files(cache)) - {kept}
    _age(stale, 31)
    _age(kept, 40)  # old, but the next relink reads it, which marks it used
    (pkg / "helpers.py").write_text(HELPERS_SLICE + "\n\ndef more():\n    return 1\n")

    _age(cache / "v3" / "last-sweep", 0.5)  # swept half a day ago: not again yet
    analyse([str(pkg)], settings)
    assert stale.exists()

    _age(cache / "v3" / "last-sweep", 2)
    (pkg / "helpers.py").write_text(HELPERS_SLICE + "\n\ndef other():\n    return 2\n")
    run = analyse([str(pkg)], settings)
    assert not stale.exists()
    assert kept.exists()
    assert finding_keys(run) == expected
    # What is left still serves a run: the same findings, no file summarised again.
    forget_runs(cache)
    warm = analyse([str(pkg)], settings)
    assert finding_keys(warm) == expected
    assert warm.cache_hits == 3  # main, model, helpers; __init__ is only checked for syntax


def test_a_cold_run_writes_a_file_per_pack_of_entries_and_each_entry_is_its_own(
    tmp_path: Path,
) -> None:
    # Enough modules for a worker: it caches each chunk of files as one pack, as this process
    # caches what it summarises.
    src = tmp_path / "src"
    pkg = _project(src, HELPERS_SLICE)
    for i in range(30):
        (pkg / f"model{i}.py").write_text(MODEL.replace("step", f"step{i}"), encoding="utf-8")
    cache = tmp_path / "cache"
    settings = Settings(cache_dir=str(cache), jobs=2, prescan=False)
    expected = finding_keys(analyse([str(pkg)], settings))
    assert expected
    keys = entry_keys(cache)
    assert len(keys) == 34  # every module, __init__ too without the pre-scan
    assert len(pack_files(cache)) < len(keys) / 4
    assert not list(packs_folder(cache).glob(".tmp*"))  # the packs' temporary names are gone
    forget_runs(cache)
    warm = analyse([str(pkg)], settings)
    assert finding_keys(warm) == expected and warm.cache_hits == warm.files
    # One entry damaged: that file alone is summarised again, the rest of its pack still serves.
    replace(cache, keys[0], b"garbage")
    forget_runs(cache)
    again = analyse([str(pkg)], settings)
    assert finding_keys(again) == expected and again.cache_hits == again.files - 1


def _encoded(i: int) -> tuple[bytes, bytes]:
    """Distinct head and rest bytes, of many sizes."""
    return f"head {i} ".encode() * (i % 7 + 1), f"rest {i} ".encode() * (i * 97 % 5000)


def test_a_pack_serves_each_of_its_entries_and_no_other_key(tmp_path: Path) -> None:
    cache = SummaryCache(tmp_path, "salt")
    keys = [cache.key(bytes([i % 256, i // 256]), f"m{i}.py", f"m{i}", False) for i in range(300)]
    cache.put_many([(key, _encoded(i)) for i, key in enumerate(keys)])
    (pack,) = pack_files(tmp_path)
    for i, key in enumerate(keys):
        entry = cache.entry(key)
        assert entry is not None and (entry.head_bytes, entry.rest_bytes) == _encoded(i)
    replace(tmp_path, "f" * 40, pack.read_bytes())  # the index names a pack without the key
    assert SummaryCache(tmp_path, "salt").entry("f" * 40) is None
    # Written again (a concurrent run): the later pack serves those keys, whole.
    cache.put_many([(key, (b"new", b"")) for key in keys[:3]])
    entry = cache.entry(keys[1])
    assert entry is not None and entry.head_bytes == b"new"
    assert cache.entry(keys[4]) is not None
    assert not list(packs_folder(tmp_path).glob(".tmp*"))


def test_a_run_reading_while_another_merges_reads_whole_entries_or_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs write the same entries at once; the later one merges the index as a third reads."""
    monkeypatch.setattr(cache_module, "_UNINDEXED_MOST", 0)  # every run that writes merges
    first, second, reader = (SummaryCache(tmp_path, "salt") for _ in range(3))
    keys = [first.key(bytes([i]), f"m{i}.py", f"m{i}", False) for i in range(20)]
    first.put_many([(key, _encoded(i)) for i, key in enumerate(keys)])
    assert reader.entry(keys[0]) is not None  # it now knows which pack serves each key
    second.put_many([(key, _encoded(i)) for i, key in enumerate(keys)])
    second.tidy()  # the first pack serves nothing the second does not: deleted
    assert len(pack_files(tmp_path)) == 1
    assert reader.entries(keys) == [None] * len(keys)  # gone under it: misses, not errors
    again = SummaryCache(tmp_path, "salt").entries(keys)
    assert [(e.head_bytes, e.rest_bytes) for e in again if e is not None] == [
        _encoded(i) for i in range(len(keys))
    ]


def test_retracelints_whose_facts_differ_share_a_cache_and_keep_their_own_packs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two versions (or branches) of retracelint run on one project's cache: each merges its own
    packs and never deletes the other's, which it cannot read."""
    monkeypatch.setattr(cache_module, "_UNINDEXED_MOST", 0)  # every run that writes merges
    ours = SummaryCache(tmp_path, "salt")
    keys = [ours.key(bytes([i]), f"m{i}.py", f"m{i}", False) for i in range(20)]
    ours.put_many([(key, _encoded(i)) for i, key in enumerate(keys)])
    ours.tidy()
    with monkeypatch.context() as other:
        other.setattr(cache_module, "_LAYOUT", b"0" * 12)
        other.setattr(cache_module, "_MAGIC", b"RTLC" + b"0" * 12)
        theirs = SummaryCache(tmp_path, "salt")
        their_keys = [theirs.key(bytes([i]), f"m{i}.py", f"m{i}", False) for i in range(20)]
        theirs.put_many([(key, (b"theirs", b"")) for key in their_keys])
        theirs.tidy()
        assert theirs.entries(keys) == [None] * len(keys)
        assert all(e is not None and e.head_bytes == b"theirs" for e in theirs.entries(their_keys))
    ours = SummaryCache(tmp_path, "salt")
    ours.put_many([(keys[0], _encoded(0))])
    ours.tidy()
    assert [(e.head_bytes, e.rest_bytes) for e in ours.entries(keys) if e is not None] == [
        _encoded(i) for i in range(len(keys))
    ]


def _size(folder: Path) -> int:
    """The bytes the files under ``folder`` take, a file with several names once."""
    files = {(p.stat().st_dev, p.stat().st_ino): p.stat().st_size for p in folder.rglob("*")}
    return sum(files.values())


def test_a_copied_project_keeps_its_cache_small_and_its_copy_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project copied with its cache, as ``cp -r``, a CI cache or ``shutil.copytree`` copy it
    (hard links, if any, become copies): the copy's cache is the size of the original's and serves
    the copy."""
    root = tmp_path / "project"
    pkg = _project(root, HELPERS_SLICE)
    for i in range(30):
        (pkg / f"model{i}.py").write_text(MODEL.replace("step", f"step{i}"), encoding="utf-8")
    monkeypatch.chdir(root)
    settings = Settings(cache_dir=".retracelint_cache", jobs=2, prescan=False)
    expected = finding_keys(analyse(["."], settings))
    assert expected
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    original = _size(root / ".retracelint_cache")
    assert _size(copy / ".retracelint_cache") <= 1.1 * original
    monkeypatch.chdir(copy)
    forget_runs(copy / ".retracelint_cache")
    run = analyse(["."], settings)
    assert finding_keys(run) == expected and run.cache_hits == run.files == 34


def test_a_cache_of_the_layout_before_is_ignored_and_swept_a_month_later(tmp_path: Path) -> None:
    pkg = _project(tmp_path / "src", HELPERS_SLICE)
    cache = tmp_path / "cache"
    settings = Settings(cache_dir=str(cache), jobs=1)
    expected = finding_keys(analyse([str(pkg)], settings))
    # This project's whole cache, entries and whole-run indexes, as it would be in an older layout.
    (cache / "v3").rename(cache / "v2")
    run = analyse([str(pkg)], settings)
    assert finding_keys(run) == expected and run.cache_hits == 0
    for path in (cache / "v2").rglob("*"):
        _age(path, 31)
    _age(cache / "v3" / "last-sweep", 2)
    (pkg / "helpers.py").write_text(HELPERS_SLICE + "\n\ndef more():\n    return 1\n")
    analyse([str(pkg)], settings)
    assert not (cache / "v2").exists()
    assert (cache / "v3").exists()
