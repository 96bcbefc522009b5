"""A long-lived process's discoveries (``discover.Listings``): each folder whose stat says nothing
changed is taken as last listed, and what discovery finds is always what a fresh walk finds."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from retracelint import config, discover

PROJECT = {
    "pyproject.toml": '[project]\nname = "proj"\n\n[tool.retracelint]\nextend-exclude = ["bench"]\n',
    ".gitignore": "logs/\nout/\n",
    "pkg/__init__.py": "",
    "pkg/train.py": "from pkg.models import mlp\n\n\ndef step(x):\n    return mlp.apply(x)\n",
    "pkg/models/__init__.py": "",
    "pkg/models/mlp.py": "import jax\n\n\n@jax.jit\ndef apply(x):\n    return x * 2\n",
    "scripts/run.py": "from pkg import train\n\ntrain.step(1.0)\n",
    "bench/timing.py": "from pkg import train\n",
    "logs/run_copy.py": "from pkg import train\n",
}


def make(root: Path) -> Path:
    for name, text in PROJECT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    os.symlink("pkg/models", root / "vendored")  # a folder reached through a link
    return root


def age(root: Path) -> None:
    """Everything under ``root`` last changed an hour ago (as a checkout an editor opens)."""
    old = time.time() - 3600
    for path in [root, *root.rglob("*")]:
        os.utime(path, (old, old), follow_symlinks=False)


def found(root: Path, listings: discover.Listings | None = None) -> discover.Discovery:
    settings = config.load_file(root / "pyproject.toml")
    return discover.discover([str(root / "pkg" / "train.py")], settings, str(root), None, listings)


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stats trusted however recent: the test stands for a discovery made long after the changes
    (each change below is made to a tree aged an hour, so that it changes the stat it is made to)."""
    monkeypatch.setattr(discover, "_RACY_NS", -(10**12))


def test_nothing_changed_lists_again_only_the_folders_that_hold_a_link(
    tmp_path: Path, trusted: None
) -> None:
    root = make(tmp_path / "proj")
    age(root)
    listings = discover.Listings()
    first = found(root, listings)
    assert listings.relisted == 5  # proj, pkg, pkg/models, scripts, bench (vendored: models)
    again = found(root, listings)
    assert again == first == found(root)
    # The top folder holds the link, whose target may change with no folder changing.
    assert listings.relisted == 1
    assert {f.path for f in again.files} == {
        str(root / name) for name in PROJECT if name.endswith(".py") and "logs" not in name
    }
    assert str(root / "bench" / "timing.py") in again.unreported


def _rename(root: Path) -> None:
    (root / "scripts").rename(root / "tools")


def _package(root: Path) -> None:
    (root / "scripts" / "__init__.py").write_text("", encoding="utf-8")


def _retarget(root: Path) -> None:
    (root / "vendored").unlink()
    os.symlink("logs", root / "vendored")  # git-ignored by its own name, not by the link's


def _gitignore(root: Path) -> None:
    with open(root / ".gitignore", "r+", encoding="utf-8") as file:  # in place, the same size
        file.write("scripts/\nx\n")


def _nested_gitignore(root: Path) -> None:
    (root / "pkg" / "models" / ".gitignore").write_text("mlp.py\n", encoding="utf-8")


# Each change, and the folders the discovery after it lists again: the top folder (it holds a link)
# and those it changed, or every folder when what they are listed with changed.
CHANGES: dict[str, tuple[Callable[[Path], None], int]] = {
    "module added": (lambda root: (root / "pkg/models/conv.py").write_text("x = 1\n"), 2),
    "module deleted": (lambda root: (root / "pkg/models/mlp.py").unlink(), 2),
    "folder renamed": (_rename, 2),
    "folder made a package": (_package, 2),
    "link retargeted": (_retarget, 2),
    ".gitignore edited in place": (_gitignore, 5),
    ".gitignore added below": (_nested_gitignore, 2),
    "configuration edited": (
        lambda root: (root / "pyproject.toml").write_text("[tool.retracelint]\n"),
        5,
    ),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_after_a_change_on_disk_discovery_finds_what_a_fresh_walk_finds(
    tmp_path: Path, trusted: None, change: str
) -> None:
    root = make(tmp_path / "proj")
    age(root)
    listings = discover.Listings()
    before = found(root, listings)
    make_change, relisted = CHANGES[change]
    make_change(root)
    after = found(root, listings)
    assert after == found(root)
    assert after != before
    assert listings.relisted == relisted
    assert found(root, listings) == after
    assert listings.relisted == 1


def test_a_folder_changed_within_the_clock_tick_is_listed_again_each_time(tmp_path: Path) -> None:
    root = make(tmp_path / "proj")
    age(root)
    listings = discover.Listings()
    first = found(root, listings)
    # Aged just now: every folder's ctime is within the tick, and a change within it might not
    # change the stat.
    assert found(root, listings) == first
    assert listings.relisted == 5
