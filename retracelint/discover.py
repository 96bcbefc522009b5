"""Find the Python files to analyse and name their modules.

Directories are walked with symlinks followed once (a loop is reported, not followed forever). What is not
the project's code is left out of the walk: the default excludes (``.venv``, ``build``...), wherever a
pattern lists them, a folder holding an installed environment (``site-packages``, a ``pyvenv.cfg``), and
what ``.gitignore`` ignores (downloaded libraries, build outputs, run logs with copies of the code: linked,
a git-ignored copy of equinox turned ``eqx.apply_updates`` into library code and made a false finding).
What the user's own ``exclude``/``extend-exclude`` patterns match is the project's code not reported, as
pyright's ``exclude`` is: its files still take part in the analysis (``Discovery.unreported``), so a loop
in an excluded script still makes the findings it makes in the files reported. Files named explicitly are
always analysed and reported, as flake8 and ruff do.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from retracelint.config import DEFAULT_EXCLUDES, Settings, is_marked, project_of

# Folders of installed packages (a virtual environment under another name than the default
# excludes know): never the project's code, whatever the patterns say.
_INSTALLED = ("site-packages", "dist-packages")
_ENVIRONMENT_MARK = "pyvenv.cfg"


@dataclass(frozen=True)
class SourceFile:
    path: str  # as it will be reported
    module: str  # the module's key, unique in its project (see ``_keyed``)
    is_package: bool
    name: str = ""  # the dotted name Python imports it by: its package chain and stem
    root: str = ""  # the folder that name starts from (absolute): the top package's parent
    reported: bool = True  # False: excluded by the user's patterns or .gitignore, analysed only


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    selected: set[str] = field(default_factory=set)  # the paths of the files the paths given name
    root: str = ""  # the project's folder (absolute): where its source roots are
    # Files the user's patterns or .gitignore exclude: analysed with the others, never reported.
    unreported: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Scope:
    """One project, and the paths inside it that the user gave: the project is analysed whole, and the
    paths select which findings are reported."""

    root: str | None  # the project's folder, relative when the paths are; None: only the paths
    config: Path | None  # its retracelint configuration file
    paths: tuple[str, ...]


def scopes(paths: list[str], stdin_filename: str | None, isolated: bool) -> list[Scope]:
    """The projects of ``paths`` (``-`` stands for ``stdin_filename``), in the order first given. With
    ``isolated``, the paths are the project, with no configuration."""
    if isolated:
        return [Scope(None, None, tuple(paths))]
    out: dict[Path, tuple[Path | None, list[str]]] = {}
    known: dict[str, tuple[Path, Path | None]] = {}  # by folder: a hook passes many files of one
    for given in paths:
        where = (stdin_filename or "stdin.py") if given == "-" else given
        start = os.path.abspath(where)
        if not os.path.isdir(start):
            start = os.path.dirname(start)
        if start not in known:
            known[start] = project_of(where)
        root, found = known[start]
        out.setdefault(root, (found, []))[1].append(given)
    return [
        Scope(shown_like(str(root), given[0] if given[0] != "-" else "."), found, tuple(given))
        for root, (found, given) in out.items()
    ]


# Files named on the command line that are not Python source, each with what to do instead. Any
# other file named is read as Python, as ruff and flake8 read it (one that is not is an RTL000). A
# notebook's code is in JSON strings: read as Python, it is one dict display, silently clean.
NOT_SOURCE = {".ipynb": "a Jupyter notebook (export it: jupyter nbconvert --to script)"}


def not_source(paths: list[str]) -> dict[str, str]:
    """The files among ``paths`` (as given) that are not Python source, each with why it is
    skipped."""
    return {
        path: why
        for path in paths
        if (why := NOT_SOURCE.get(os.path.splitext(path)[1].lower())) and os.path.isfile(path)
    }


def shown(path: str) -> str:
    """How a file is named in findings: as given, normalised, and a relative path that leaves the
    current folder only when it must (``model.py`` beside the ``run.py`` given, not
    ``../exp1/model.py`` when the project is analysed from ``..``)."""
    path = os.path.normpath(path)  # which leaves ".." only in front
    if path.partition(os.sep)[0] != os.pardir:
        return path
    return os.path.relpath(os.path.abspath(path))


def shown_like(folder: str, given: str) -> str:
    """``folder`` written as ``given`` is: absolute, or relative to the current folder, so that every
    file of the project is named the way the files given are."""
    return folder if os.path.isabs(given) else os.path.relpath(folder)


def module_name(path: str) -> tuple[str, bool]:
    """The dotted module name of a file: its package chain (folders with __init__.py) plus its stem."""
    name, is_package, _ = _import_name(path)
    return name, is_package


def _import_name(path: str) -> tuple[str, bool, str]:
    """The dotted name of a file, whether it is a package's ``__init__``, and the folder that name is
    imported from (above the top of its package chain)."""
    folder, name = os.path.split(os.path.abspath(path))
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name  # as pathlib's stem
    is_package = stem == "__init__"
    package = _package_of(folder)
    parts = [*package, *([] if is_package else [stem])]
    name = ".".join(parts) if parts else stem
    return _sanitise(name), is_package, _import_root(folder)


@lru_cache(maxsize=4096)
def _import_root(folder: str) -> str:
    """The folder above the top of ``folder``'s package chain (``folder`` itself outside a package)."""
    return _import_root(os.path.dirname(folder)) if _package_of(folder) else folder


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


def discover(
    paths: list[str],
    settings: Settings,
    project: str | None = None,
    stdin_name: str | None = None,
) -> Discovery:
    """The files of ``paths`` (``selected``) and, with ``project`` (a folder above them), every other
    file of that project. ``stdin_name`` is a file given on standard input, analysed whether or not a
    file of that name exists."""
    found = Discovery()
    seen: set[str] = set()
    _collect(found, seen, paths, settings)
    if stdin_name is not None:
        stdin_name = shown(stdin_name)
        found.files = [f for f in found.files if f.path != stdin_name]
        seen.discard(os.path.realpath(stdin_name))
        found.unreported.discard(stdin_name)  # named, as a file given is
        _add_file(found, seen, stdin_name)
    found.selected = {f.path for f in found.files} - found.unreported
    if project is not None and os.path.abspath(project) not in map(os.path.abspath, paths):
        rest = Discovery()  # its errors are not in the paths asked about
        _collect(rest, seen, _project_sources(project), settings)
        found.files += rest.files
        found.unreported |= rest.unreported
    folders = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths]
    found.root = os.path.abspath(project) if project is not None else _common(folders)
    found.files = _keyed(sorted(found.files, key=lambda f: f.path), found.root, found.unreported)
    return found


def _collect(found: Discovery, seen: set[str], paths: list[str], settings: Settings) -> None:
    patterns = settings.exclude + settings.extend_exclude
    skipped = tuple(p for p in patterns if p in DEFAULT_EXCLUDES)
    hidden = tuple(p for p in patterns if p not in DEFAULT_EXCLUDES)
    for given in paths:
        if os.path.isdir(given):
            _walk(found, seen, given, (skipped, hidden), settings.respect_gitignore, settings.base)
        elif os.path.isfile(given):
            _add_file(found, seen, given)
            found.unreported.discard(shown(given))  # named: reported, even when excluded
        elif os.path.exists(given):
            found.errors.append((os.path.normpath(given), "not a regular file; skipped"))
        elif os.path.islink(given):
            found.errors.append((os.path.normpath(given), "broken symbolic link"))
        else:
            found.errors.append((os.path.normpath(given), "no such file or directory"))


def _project_sources(project: str) -> list[str]:
    """What to analyse of the project around the paths given: all of it when the folder says it is a
    project; else only what a script there can import, its modules and packages. A loose script in
    /tmp or a home folder must not make the run walk everything below it (``retracelint
    /tmp/train.py`` read 40,000 files for minutes)."""
    if is_marked(Path(project)):
        return [project]
    try:
        entries = sorted(os.scandir(project), key=lambda e: e.name)
    except OSError:
        return [project]
    return [
        entry.path
        for entry in entries
        if (entry.name.endswith(".py") and entry.is_file())
        or (entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")))
    ]


def _common(folders: list[str]) -> str:
    try:
        return os.path.commonpath(folders) if folders else os.getcwd()
    except ValueError:  # Windows: folders on different drives
        return os.getcwd()


def _keyed(files: list[SourceFile], project: str, unreported: set[str]) -> list[SourceFile]:
    """Each file with a module key unique in the project, and reported unless its path is among
    ``unreported`` (each made once: a server's edit discovers every file again). A module keeps its
    import name unless a module of the same top-level name is imported from another folder
    (``exp1/model.py`` and ``exp2/model.py``; ``examples/trainer`` and ``examples_fixed/trainer``):
    then each of those not at the project's top is keyed by its folder too (``exp1.model``), as a
    namespace package would name it, and never merged with the other. Imports still name modules by import name;
    ``ImportLayout`` resolves them per importing file."""
    folders: dict[str, set[str]] = {}
    for file in files:
        folders.setdefault(file.name.partition(".")[0], set()).add(file.root)
    names = {file.name for file in files}
    taken: set[str] = set()
    out = []
    for file in files:
        key = file.name
        if len(folders[file.name.partition(".")[0]]) > 1 and file.root != project:
            relative = os.path.relpath(file.root, project)
            if relative.startswith(os.pardir):
                relative = os.path.basename(file.root) or "root"
            key = _sanitise(".".join([*Path(relative).parts, file.name]))
        unique, count = key, 1
        while unique in taken or (unique != file.name and unique in names):
            count += 1
            unique = f"{key}~{count}"  # not an identifier: no import name can be the same
        taken.add(unique)
        reported = file.path not in unreported
        out.append(SourceFile(file.path, unique, file.is_package, file.name, file.root, reported))
    return out


class ImportLayout:
    """Which module a dotted name imports, from a given file, as Python would find it: the folder the
    importing file's own name starts from (a script's folder) first, then the project's source roots
    (its top folder and ``src/``). A name that only one module of the project has is that module;
    one that several have and none of them on that path is left unresolved, never guessed."""

    def __init__(self, files: list[SourceFile], project: str) -> None:
        by_name: dict[str, list[SourceFile]] = {}
        for file in files:
            by_name.setdefault(file.name, []).append(file)
        # Only the names that are not simply their module's key need a lookup.
        self._named = {
            name: found
            for name, found in by_name.items()
            if len(found) > 1 or found[0].module != name
        }
        self._root = {file.module: file.root for file in files}
        # The import name of each module keyed by its folder too (``exp_a.train``: ``train``).
        self._names = {f.module: f.name for f in files if f.name and f.name != f.module}
        self._search = (project, os.path.join(project, "src"))
        self._found: dict[tuple[str, str], str] = {}
        # Implicit namespace packages (PEP 420): a module under folders without __init__.py is also
        # imported by its path from a folder on sys.path (the project's top, src/), as the scripts
        # of research repositories import their helpers. Only names no module has otherwise, and
        # that only one module has.
        # So is a module of a project whose top folder is a package itself (an ``__init__.py``
        # beside ``pyproject.toml``): its scripts run from the top import ``algoperf.spec``, not
        # ``<repository>.algoperf.spec``.
        keys = {file.module for file in files}
        aliases: dict[str, list[SourceFile]] = {}
        for file in files:
            for alias in (
                *(_namespace_name(file, base) for base in self._search),
                _below(file, project),
            ):
                if alias and alias not in by_name and alias not in keys:
                    aliases.setdefault(alias, []).append(file)
        self._named.update((alias, found) for alias, found in aliases.items() if len(found) == 1)

    def name(self, key: str) -> str:
        """The dotted name Python imports the module of key ``key`` by."""
        return self._names.get(key, key)

    def module(self, importer: str, dotted: str) -> str:
        """The key of the module that ``dotted`` names in module ``importer`` ("" when that is not
        knowable); a name no module has is returned as it is (a key, or nothing in the project)."""
        found = self._named.get(dotted)
        if found is None:
            return dotted
        if len(found) == 1:
            return found[0].module
        root = self._root.get(importer, "")
        key = (root, dotted)
        if key not in self._found:
            by_root = {file.root: file.module for file in found}
            self._found[key] = next(
                (by_root[folder] for folder in (root, *self._search) if folder in by_root), ""
            )
        return self._found[key]


def _below(file: SourceFile, project: str) -> str | None:
    """The dotted name ``file`` has from the project's top folder when that folder is one of the
    packages of its chain (the name then starts with the top folder's); None otherwise."""
    if not project.startswith(file.root + os.sep) or not file.name:
        return None
    top = _sanitise(".".join(Path(os.path.relpath(project, file.root)).parts))
    return file.name[len(top) + 1 :] if file.name.startswith(top + ".") else None


def _namespace_name(file: SourceFile, base: str) -> str | None:
    """The dotted name ``file`` has from folder ``base`` through folders without __init__.py, when
    its package chain starts below ``base``; None otherwise."""
    if not file.root.startswith(base + os.sep):
        return None
    parts = os.path.relpath(file.root, base).split(os.sep)
    if not all(part.isidentifier() for part in parts):
        return None
    return ".".join((*parts, file.name)) if file.name else None


def _add_file(found: Discovery, seen: set[str], path: str, real: str | None = None) -> bool:
    """Add the file at ``path`` unless it was added under another name; whether it was added."""
    real = real or os.path.realpath(path)
    if real in seen:
        return False
    seen.add(real)
    name, is_package, root = _import_name(path)
    found.files.append(SourceFile(shown(path), name, is_package, name, root))
    return True


def _exclusion(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a name or a relative path matches one of the glob ``patterns`` (one regex for all)."""
    if not patterns:
        return lambda _: False
    return re.compile("|".join(fnmatch.translate(p) for p in patterns)).match  # type: ignore[return-value]


def _walk(
    found: Discovery,
    seen: set[str],
    root: str,
    excludes: tuple[tuple[str, ...], tuple[str, ...]],
    gitignore: bool,
    base: str,
) -> None:
    """Add the files under ``root``; ``excludes``: the patterns of what is skipped (not the
    project's code) and of what is analysed but not reported (``Discovery.unreported``)."""
    visited_dirs: set[str] = set()
    ignores: list[_GitIgnore] = _parent_gitignores(Path(root)) if gitignore else []
    ancestors: list[str] = []
    top = os.path.realpath(root)
    skipped, hidden = (_exclusion(patterns) for patterns in excludes)

    def visit(folder: str, ignores: list[_GitIgnore], reported: bool) -> None:
        real = os.path.realpath(folder)
        if ancestors and os.path.commonpath([real, top]) != top:
            return  # a link out of the tree (to /, to another checkout): not this project's code
        if real in ancestors:
            where = os.path.normpath(folder)
            if reported:
                found.errors.append(
                    (where, "symlink loop (links back to a folder above it); skipped")
                )
            return
        if real in visited_dirs:
            return  # another name for a folder already analysed
        visited_dirs.add(real)
        ancestors.append(real)
        try:
            visit_entries(folder, real, ignores, reported)
        finally:
            ancestors.pop()

    def visit_entries(folder: str, real: str, ignores: list[_GitIgnore], reported: bool) -> None:
        if gitignore and os.path.isfile(os.path.join(folder, ".gitignore")):
            ignores = [*ignores, _read_gitignore(Path(folder).absolute())]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            if reported:
                reason = f"cannot read directory: {exc.strerror or exc}"
                found.errors.append((os.path.normpath(folder), reason))
            return
        if ancestors[1:] and any(e.name == _ENVIRONMENT_MARK for e in entries):
            return  # a virtual environment
        # Patterns may be written relative to the walked folder or to the configuration's folder.
        rel_folder = _posix_relpath(folder, root)
        base_folder = _posix_relpath(os.path.abspath(folder), base)

        def matches(excluded: Callable[[str], bool], name: str) -> bool:
            return (
                excluded(name)
                or excluded(_joined(rel_folder, name))
                or excluded(_joined(base_folder, name))
            )

        for entry in entries:
            name = entry.name
            path = os.path.join(folder, name)
            if name in _INSTALLED or matches(skipped, name):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if ignores and _is_ignored(ignores, Path(path), is_dir):
                continue
            shown_here = reported and not matches(hidden, name)
            if is_dir:
                visit(path, ignores, shown_here)
            elif entry.name.endswith(".py"):
                if os.path.exists(path) and not entry.is_file():
                    if shown_here:
                        found.errors.append((os.path.normpath(path), "not a regular file; skipped"))
                    continue
                link = entry.is_symlink()
                if link and not os.path.exists(path):
                    if shown_here:
                        found.errors.append((os.path.normpath(path), "broken symbolic link"))
                    continue
                # In a folder whose real path is known, only a link needs resolving.
                added = _add_file(found, seen, path, None if link else os.path.join(real, name))
                if added and not shown_here:
                    found.unreported.add(found.files[-1].path)

    visit(root, ignores, True)


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
