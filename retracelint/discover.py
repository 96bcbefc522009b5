"""Find the Python files to analyse and name their modules.

Directories are walked with symlinks followed once (a loop is reported, not followed forever); default
excludes, ``exclude``/``extend-exclude`` and ``.gitignore`` files prune the walk. Files named explicitly
are always analysed, as flake8 and ruff do.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from retracelint.config import Settings


@dataclass(frozen=True)
class SourceFile:
    path: str  # as it will be reported
    module: str
    is_package: bool


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (path, why)


def module_name(path: str) -> tuple[str, bool]:
    """The dotted module name of a file: its package chain (folders with __init__.py) plus its stem."""
    folder, name = os.path.split(os.path.abspath(path))
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name  # as pathlib's stem
    is_package = stem == "__init__"
    package = _package_of(folder)
    parts = [*package, *([] if is_package else [stem])]
    name = ".".join(parts) if parts else stem
    return _sanitise(name), is_package


@lru_cache(maxsize=4096)
def _package_of(folder: str) -> tuple[str, ...]:
    """The package chain of a folder: its name and its parents' while each holds an __init__.py."""
    if not os.path.isfile(os.path.join(folder, "__init__.py")):
        return ()
    parent = os.path.dirname(folder)
    if parent == folder:
        return ()
    return (*_package_of(parent), os.path.basename(folder))


def _sanitise(name: str) -> str:
    return ".".join(
        part if part.isidentifier() else re.sub(r"\W", "_", part) for part in name.split(".")
    )


class _GitIgnore:
    """The subset of gitignore that matters for source trees: globs, ``/`` anchoring, ``!`` and dirs."""

    def __init__(self, base: Path, lines: list[str]) -> None:
        self.base = base
        self.rules: list[tuple[bool, bool, bool, str]] = []  # (negate, dir_only, anchored, glob)
        for raw in lines:
            line = raw.rstrip("\n").rstrip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            if negate:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            self.rules.append((negate, dir_only, anchored, line.lstrip("/")))

    def ignored(self, path: Path, is_dir: bool) -> bool | None:
        try:
            rel = path.relative_to(self.base).as_posix()
        except ValueError:
            return None
        verdict: bool | None = None
        for negate, dir_only, anchored, glob in self.rules:
            if dir_only and not is_dir:
                continue
            target = rel if anchored else rel.rsplit("/", 1)[-1]
            if fnmatch.fnmatchcase(target, glob) or (
                anchored and glob.endswith("/**") and rel.startswith(glob[:-3])
            ):
                verdict = not negate
        return verdict


def discover(paths: list[str], settings: Settings) -> Discovery:
    found = Discovery()
    seen_files: set[str] = set()
    excludes = settings.exclude + settings.extend_exclude
    for given in paths:
        if os.path.isdir(given):
            _walk(found, seen_files, given, excludes, settings.respect_gitignore, settings.base)
        elif os.path.isfile(given):
            _add_file(found, seen_files, given)
        elif os.path.exists(given):
            found.errors.append((os.path.normpath(given), "not a regular file; skipped"))
        elif os.path.islink(given):
            found.errors.append((os.path.normpath(given), "broken symbolic link"))
        else:
            found.errors.append((os.path.normpath(given), "no such file or directory"))
    found.files = _unique_modules(sorted(found.files, key=lambda f: f.path))
    return found


def _unique_modules(files: list[SourceFile]) -> list[SourceFile]:
    """Top-level scripts of the same name in different folders (scripts/train.py, tools/train.py):
    name each after its folder too, so both are analysed and neither is mistaken for the other."""
    by_name: dict[str, list[SourceFile]] = {}
    for file in files:
        by_name.setdefault(file.module, []).append(file)
    out = []
    for file in files:
        if len(by_name[file.module]) > 1:
            folder = os.path.dirname(os.path.abspath(file.path))
            parts = [_sanitise(os.path.basename(folder) or "root"), file.module]
            file = SourceFile(file.path, ".".join(parts), file.is_package)
        out.append(file)
    return out


def _add_file(found: Discovery, seen: set[str], path: str, real: str | None = None) -> None:
    real = real or os.path.realpath(path)
    if real in seen:
        return
    seen.add(real)
    module, is_package = module_name(path)
    found.files.append(SourceFile(os.path.normpath(path), module, is_package))


def _exclusion(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a name or a relative path matches one of the glob ``patterns`` (one regex for all)."""
    if not patterns:
        return lambda _: False
    return re.compile("|".join(fnmatch.translate(p) for p in patterns)).match  # type: ignore[return-value]


def _walk(
    found: Discovery,
    seen: set[str],
    root: str,
    excludes: tuple[str, ...],
    gitignore: bool,
    base: str,
) -> None:
    visited_dirs: set[str] = set()
    ignores: list[_GitIgnore] = _parent_gitignores(Path(root)) if gitignore else []
    ancestors: list[str] = []
    top = os.path.realpath(root)
    excluded = _exclusion(excludes)

    def visit(folder: str, ignores: list[_GitIgnore]) -> None:
        real = os.path.realpath(folder)
        if ancestors and os.path.commonpath([real, top]) != top:
            return  # a link out of the tree (to /, to another checkout): not this project's code
        if real in ancestors:
            where = os.path.normpath(folder)
            found.errors.append((where, "symlink loop (links back to a folder above it); skipped"))
            return
        if real in visited_dirs:
            return  # another name for a folder already analysed
        visited_dirs.add(real)
        ancestors.append(real)
        try:
            visit_entries(folder, real, ignores)
        finally:
            ancestors.pop()

    def visit_entries(folder: str, real: str, ignores: list[_GitIgnore]) -> None:
        if gitignore and os.path.isfile(os.path.join(folder, ".gitignore")):
            ignores = [*ignores, _read_gitignore(Path(folder).absolute())]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            reason = f"cannot read directory: {exc.strerror or exc}"
            found.errors.append((os.path.normpath(folder), reason))
            return
        # Patterns may be written relative to the walked folder or to the configuration's folder.
        rel_folder = _posix_relpath(folder, root)
        base_folder = _posix_relpath(os.path.abspath(folder), base)
        for entry in entries:
            name = entry.name
            path = os.path.join(folder, name)
            if (
                excluded(name)
                or excluded(_joined(rel_folder, name))
                or excluded(_joined(base_folder, name))
            ):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if ignores and _is_ignored(ignores, Path(path), is_dir):
                continue
            if is_dir:
                visit(path, ignores)
            elif entry.name.endswith(".py"):
                if os.path.exists(path) and not entry.is_file():
                    found.errors.append((os.path.normpath(path), "not a regular file; skipped"))
                    continue
                link = entry.is_symlink()
                if link and not os.path.exists(path):
                    found.errors.append((os.path.normpath(path), "broken symbolic link"))
                    continue
                # In a folder whose real path is known, only a link needs resolving.
                _add_file(found, seen, path, None if link else os.path.join(real, name))

    visit(root, ignores)


def _posix_relpath(path: str, start: str) -> str:
    rel = os.path.relpath(path, start).replace(os.sep, "/")
    return "" if rel == "." else rel


def _joined(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _read_gitignore(folder: Path) -> _GitIgnore:
    try:
        lines = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    return _GitIgnore(folder, lines)


def _parent_gitignores(root: Path) -> list[_GitIgnore]:
    """.gitignore files above the walked folder, up to the repository root."""
    out: list[_GitIgnore] = []
    folder = root.absolute().parent
    for current in (folder, *folder.parents):
        if (current / ".gitignore").is_file():
            out.insert(0, _read_gitignore(current))
        if (current / ".git").exists():
            break
    return out


def _is_ignored(ignores: list[_GitIgnore], path: Path, is_dir: bool) -> bool:
    verdict = False
    absolute = path.absolute()
    for ignore in ignores:
        result = ignore.ignored(absolute, is_dir)
        if result is not None:
            verdict = result
    return verdict
