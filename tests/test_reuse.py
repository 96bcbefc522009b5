"""Early cutoff: an edit that changes no fact reuses the last run's findings without linking again, and
any edit that could change a finding is linked again. Every run here is compared with a run without
any cache, so reuse can never show what a fresh analysis would not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cache_files import entry_keys, forget_runs, pack_files, store, stored
from fixture_runs import cached_settings, fixture_projects, fresh_run
from run_keys import finding_keys

from retracelint.config import Settings
from retracelint.engine import Run, analyse

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "examples"
    shutil.copytree(EXAMPLES, root)
    return root


def _runs(root: Path, cache: Path) -> tuple[Run, Run]:
    """The run with the cache (after the edit), and a fresh run without any cache."""
    cached = analyse([str(root)], Settings(cache_dir=str(cache), jobs=1))
    fresh = analyse([str(root)], Settings(cache=False, jobs=1))
    assert finding_keys(cached) == finding_keys(fresh)
    return cached, fresh


def test_a_comment_reuses_the_findings_without_linking(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    assert first.summaries and len(first.findings) >= 10
    data = project / "trainer" / "data.py"
    data.write_text(data.read_text(encoding="utf-8") + "# a note for later\n", encoding="utf-8")
    again, _ = _runs(project, cache)
    assert again.summaries == []  # nothing linked: the last run's findings were reused
    assert again.files - again.cache_hits == 1  # only the edited file was parsed
    assert again.lines == first.lines + 1


def test_a_new_noqa_comment_counts_when_findings_are_reused(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    decode = project / "trainer" / "decode.py"
    (finding,) = [f for f in first.findings if f.location.path == str(decode)][:1]
    lines = decode.read_text(encoding="utf-8").splitlines(keepends=True)
    index = finding.location.line - 1
    lines[index] = lines[index].rstrip("\n") + f"  # noqa: {finding.code}\n"
    decode.write_text("".join(lines), encoding="utf-8")
    again, _ = _runs(project, cache)
    assert again.summaries == []
    assert len(again.findings) == len(first.findings) - 1


def test_an_edit_that_changes_a_fact_is_linked_again(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    train = project / "trainer" / "train.py"
    text = train.read_text(encoding="utf-8")
    # One blank line moves every finding below it: positions are facts.
    train.write_text("\n" + text, encoding="utf-8")
    moved, _ = _runs(project, cache)
    assert moved.summaries
    assert finding_keys(moved) != finding_keys(first)
    train.write_text(text, encoding="utf-8")  # undone: equal to the summaries of the first run
    back, _ = _runs(project, cache)
    assert finding_keys(back) == finding_keys(first)


def test_a_new_file_or_a_removed_file_is_linked_again(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _runs(project, cache)
    extra = project / "trainer" / "extra.py"
    extra.write_text(
        "from .model import accuracy_on\n\n\ndef sweep(x, y):\n"
        "    for n in range(1, 9):\n        accuracy_on(None, x[:n], y)\n",
        encoding="utf-8",
    )
    added, _ = _runs(project, cache)
    assert added.summaries
    assert any(f.location.path == str(extra) for f in added.findings)
    extra.unlink()  # back to the first run's files: its stored findings are read back
    removed, _ = _runs(project, cache)
    assert not any(f.location.path == str(extra) for f in removed.findings)


def test_a_file_that_starts_to_import_a_jit_module_is_analysed(tmp_path: Path) -> None:
    root, cache = tmp_path / "src", tmp_path / "cache"
    root.mkdir()
    (root / "model.py").write_text(
        "import jax\n\n\n@jax.jit\ndef step(x):\n    return x\n", encoding="utf-8"
    )
    tool = root / "tool.py"
    tool.write_text("def main(x):\n    pass\n", encoding="utf-8")
    first, _ = _runs(root, cache)
    assert first.findings == []
    tool.write_text(
        "from model import step\n\n\ndef main(x):\n    for n in range(9):\n        step(x[:n])\n",
        encoding="utf-8",
    )
    second, _ = _runs(root, cache)
    assert [(Path(f.location.path).name, f.code) for f in second.findings] == [
        ("tool.py", "RTL101")
    ]


def test_a_syntax_error_in_a_file_the_prescan_leaves_out_is_reported(tmp_path: Path) -> None:
    root, cache = tmp_path / "src", tmp_path / "cache"
    root.mkdir()
    (root / "model.py").write_text("import jax\n\nstep = jax.jit(abs)\n", encoding="utf-8")
    notes = root / "notes.py"
    notes.write_text("VALUE = 1\n", encoding="utf-8")
    assert _runs(root, cache)[0].findings == []
    notes.write_text("VALUE = (1\n", encoding="utf-8")
    broken, _ = _runs(root, cache)
    assert [(Path(f.location.path).name, f.code) for f in broken.findings] == [
        ("notes.py", "RTL000")
    ]
    notes.write_text("VALUE = 1\n", encoding="utf-8")
    assert _runs(root, cache)[0].findings == []


def test_a_summary_gone_from_the_cache_means_linking_again(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    for pack in pack_files(cache):
        pack.unlink()  # the edited file's old summary is needed to compare
    data = project / "trainer" / "data.py"
    data.write_text(data.read_text(encoding="utf-8") + "# note\n", encoding="utf-8")
    again, _ = _runs(project, cache)
    assert again.summaries and finding_keys(again) == finding_keys(first)
    assert again.cache_hits < again.files  # the modules the propagation needed were parsed again


@pytest.mark.parametrize("damage", [b"", b"garbage", b"RTLC" + b"\x80\x05N."])
def test_a_damaged_manifest_is_ignored(project: Path, tmp_path: Path, damage: bytes) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    for entry in (cache / "v3" / "projects").iterdir():
        entry.write_bytes(damage)
    data = project / "trainer" / "data.py"
    data.write_text(data.read_text(encoding="utf-8") + "# note\n", encoding="utf-8")
    again, _ = _runs(project, cache)
    assert again.summaries and finding_keys(again) == finding_keys(first)
    assert again.cache_hits < again.files  # the modules the propagation needed were parsed again


@pytest.mark.parametrize("fixture", fixture_projects()[:-1], ids=lambda path: path.name)
def test_linking_from_cached_heads_finds_what_a_fresh_run_finds(
    fixture: Path, tmp_path: Path
) -> None:
    """With the whole-run indexes gone, every module is read back as a head (calls without their
    arguments) and loaded whole only where the propagation asks: the findings must not change."""
    fresh = fresh_run(fixture)  # shared with tests/test_prescan.py
    cache = fresh.cache_copy(tmp_path / "cache")
    forget_runs(cache)
    from_heads = analyse([str(fixture)], cached_settings(cache))
    # Files the pre-scan leaves out are only syntax-checked: they have no head.
    assert all(s.head for s in from_heads.summaries if s.functions)
    assert finding_keys(from_heads) == finding_keys(fresh.run)


def test_a_damaged_whole_summary_behind_a_sound_head_is_made_again(
    project: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    forget_runs(cache)
    for key in entry_keys(cache):
        found = stored(cache, key)
        # All of the rest damaged: each function's part is a pickle of its own, and the propagation
        # asks for only some of them.
        store(cache, key, found.head_bytes, b"\xff" * len(found.rest_bytes))
    again, _ = _runs(project, cache)
    assert again.summaries and finding_keys(again) == finding_keys(first)
    assert again.cache_hits < again.files  # the modules the propagation needed were parsed again


def test_a_comment_after_an_undone_edit_reuses_the_findings(project: Path, tmp_path: Path) -> None:
    """Edit, undo (the undone state is read back from the index of whole runs), then a comment: the
    comment is compared with the file as it is, not with the edit that was undone."""
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    data = project / "trainer" / "data.py"
    original = data.read_text(encoding="utf-8")
    data.write_text(original + "\n\ndef extra(xs):\n    return xs\n", encoding="utf-8")
    edited, _ = _runs(project, cache)
    assert edited.summaries
    data.write_text(original, encoding="utf-8")
    undone, _ = _runs(project, cache)
    assert undone.cache_hits == undone.files  # read back from the index of whole runs
    data.write_text(original + "# a note for later\n", encoding="utf-8")
    commented, _ = _runs(project, cache)
    assert commented.summaries == []  # the findings of the undone state were reused
    assert finding_keys(commented) == finding_keys(first)
