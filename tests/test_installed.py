"""The rule pages ship inside the package: `retracelint rule` and `rules` work from a plain (non-editable)
install, run from a folder that is not the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(ROOT),
        ],
        check=True,
        cwd=build,
        env={**os.environ, "PIP_NO_INPUT": "1"},
    )
    return target


def _run(installed: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    return subprocess.run(
        [sys.executable, "-m", "retracelint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )


def test_rule_pages_ship_in_the_package(installed: Path, tmp_path: Path) -> None:
    assert (installed / "retracelint" / "catalog" / "RTL101.md").is_file()
    result = _run(installed, "rule", "RTL101", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# RTL101: loop-varying-slice")
    assert "## Flagged example" in result.stdout


def test_rules_table_from_the_installed_package(installed: Path, tmp_path: Path) -> None:
    result = _run(installed, "rules", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["code", "name", "default", "summary"]
    assert any(line.startswith("RTL203  unhashable-static-arg") for line in lines)


def test_the_installed_linter_finds_the_examples(installed: Path, tmp_path: Path) -> None:
    result = _run(installed, "--no-cache", str(ROOT / "examples"), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert len(result.stdout.splitlines()) >= 5
