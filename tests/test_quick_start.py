"""README's Quick start as a new user meets it: `retracelint examples/` in a checkout of the repository
analyses the example project alone (not the 1,500 files of the checkout around it), keeps its small cache
in that project, and prints what README says it prints."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_fixtures import expectations

from retracelint.cli import main
from retracelint.config import Settings, load, project_of
from retracelint.engine import analyse

REPO = Path(__file__).parent.parent
EXAMPLES = ("examples", "examples_fixed")


def _as_found(folder: Path) -> Settings:
    """The settings `retracelint FOLDER` finds for it, without a cache written into the checkout."""
    return replace(load([str(folder)]), cache=False)


@pytest.mark.parametrize("folder", EXAMPLES)
def test_each_example_is_a_project_of_its_own_inside_the_checkout(folder: str) -> None:
    root, config = project_of(str(REPO / folder / "trainer" / "train.py"))
    assert (root, config) == (REPO / folder, REPO / folder / "pyproject.toml")
    run = analyse([str(REPO / folder)], _as_found(REPO / folder))
    assert run.files == len(list((REPO / folder).rglob("*.py")))


def test_the_example_keeps_its_small_cache_in_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ruff keeps .ruff_cache in the project's folder: run from the top of a checkout (a project
    itself), the example's cache is written beside the example's pyproject.toml, not at the top."""
    checkout = tmp_path / "checkout"
    # Without the cache a run in this checkout may have left (this test is about what one run writes).
    ignored = shutil.ignore_patterns(".retracelint_cache")
    shutil.copytree(REPO / "examples", checkout / "examples", ignore=ignored)
    (checkout / "pyproject.toml").write_text('[project]\nname = "retracelint"\n', encoding="utf-8")
    (checkout / "big.py").write_text("import jax\n", encoding="utf-8")
    monkeypatch.chdir(checkout)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(main, ["examples/"])
    assert result.exit_code == 1, result.output
    cache = checkout / "examples" / ".retracelint_cache"
    assert not (checkout / ".retracelint_cache").exists()
    size = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file())
    assert 0 < size < 3 * 1024 * 1024, size  # the whole checkout's was 15 MB
    assert (cache / ".gitignore").is_file()


def test_readme_counts_the_findings_the_quick_start_prints() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "pip install . && retracelint examples/" in quick_start
    claimed = re.search(r"It prints (\d+) findings", quick_start)
    assert claimed is not None
    found = analyse([str(REPO / "examples")], _as_found(REPO / "examples")).findings
    assert len(found) == int(claimed[1])
    marked = {(f.location.path, f.location.line, f.code) for f in found}
    assert marked == expectations(REPO / "examples")
    assert analyse([str(REPO / "examples_fixed")], Settings(cache=False)).findings == []
