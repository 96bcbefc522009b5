"""A small project written from texts and checked from the command line, as a user runs it."""

from __future__ import annotations

import json
import os
from pathlib import Path

from bench_scripts import write_tree
from click.testing import CliRunner

from retracelint.cli import main


def written(root: Path, files: dict[str, str]) -> Path:
    """``root`` holding each relative path of ``files`` with its text (packages need their
    ``__init__.py`` listed)."""
    return write_tree(root, files)


def checked(folder: Path, *flags: str) -> tuple[int, str]:
    """The exit code and output of ``retracelint check`` on ``folder``, alone and uncached."""
    args = ["check", str(folder), "--no-cache", "--isolated", *flags]
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


def findings_in(root: Path, files: dict[str, str], *flags: str) -> list[dict]:
    """The JSON findings of ``retracelint .`` run in ``root`` (paths relative to it, as a user in
    that folder sees them), uncached, once ``files`` are written there."""
    written(root, files)
    before = Path.cwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *flags, "."])
    finally:
        os.chdir(before)
    return json.loads(result.stdout)
