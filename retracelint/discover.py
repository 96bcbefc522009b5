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
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

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
    listings: Listings | None = None,
) -> Discovery:
    """The files of ``paths`` (``selected``) and, with ``project`` (a folder above them), every other
    file of that project. ``stdin_name`` is a file given on standard input, analysed whether or not a
    file of that name exists. ``listings``: the folders as a long-lived caller's last discovery
    listed them, taken where their stat says nothing changed since."""
    found = Discovery()
    seen: set[str] = set()
    listings = listings or Listings(keep=False)
    listings.relisted = 0
    if listings.cwd != os.getcwd():  # a relative path names another file
        listings.cwd = os.getcwd()
        listings.named.clear()
    _collect(found, seen, paths, settings, listings)
    if stdin_name is not None:
        stdin_name = shown(stdin_name)
        found.files = [f for f in found.files if f.path != stdin_name]
        seen.discard(os.path.realpath(stdin_name))
        found.unreported.discard(stdin_name)  # named, as a file given is
        _add_file(found, seen, stdin_name, listings.named)
    found.selected = {f.path for f in found.files} - found.unreported
    if project is not None and os.path.abspath(project) not in map(os.path.abspath, paths):
        rest = Discovery()  # its errors are not in the paths asked about
        _collect(rest, seen, _project_sources(project), settings, listings)
        found.files += rest.files
        found.unreported |= rest.unreported
    if listings.keep and listings.relisted:
        found.files = _named_again(found.files, listings.named)
    folders = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths]
    found.root = os.path.abspath(project) if project is not None else _common(folders)
    found.files = listings.keyed(
        sorted(found.files, key=lambda f: f.path), found.root, found.unreported
    )
    return found


def _named_again(files: list[SourceFile], named: dict[str, SourceFile]) -> list[SourceFile]:
    """``files`` named again with what is on disk now, and ``named`` with them alone. A file's
    name comes from the ``__init__.py`` files of its folders, which the process remembers
    (``_package_of``, ``named``): after a folder changed (one may have been added or removed), a
    long-lived process must look again, as a new one would."""
    _package_of.cache_clear()
    _import_root.cache_clear()
    named.clear()
    for file in files:
        name, is_package, root = _import_name(file.path)
        named[file.path] = SourceFile(file.path, name, is_package, name, root)
    return [named[file.path] for file in files]


def _collect(
    found: Discovery, seen: set[str], paths: list[str], settings: Settings, listings: Listings
) -> None:
    patterns = settings.exclude + settings.extend_exclude
    skipped = tuple(p for p in patterns if p in DEFAULT_EXCLUDES)
    hidden = tuple(p for p in patterns if p not in DEFAULT_EXCLUDES)
    for given in paths:
        if os.path.isdir(given):
            walk = _Walk(given, (skipped, hidden), settings.respect_gitignore, settings.base)
            _walk(found, seen, walk, listings)
        elif os.path.isfile(given):
            _add_file(found, seen, given, listings.named)
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


def _add_file(
    found: Discovery, seen: set[str], path: str, named: dict[str, SourceFile], real: str = ""
) -> bool:
    """Add the file at ``path`` unless it was added under another name; whether it was added.
    ``named``: the files named before, by path (``Listings.named``)."""
    real = real or os.path.realpath(path)
    if real in seen:
        return False
    seen.add(real)
    file = named.get(path)
    if file is None:
        name, is_package, root = _import_name(path)
        file = named[path] = SourceFile(shown(path), name, is_package, name, root)
    found.files.append(file)
    return True


@lru_cache(maxsize=64)
def _exclusion(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a name or a relative path matches one of the glob ``patterns`` (one regex for all)."""
    if not patterns:
        return lambda _: False
    return re.compile("|".join(fnmatch.translate(p) for p in patterns)).match  # type: ignore[return-value]


# A folder or .gitignore changed less than this long before it was read is read again next time:
# a change within the same tick of the file system's clock could leave its stat as it was (git's
# "racy" entries; 2 s: the coarsest clock, FAT's).
_RACY_NS = 2_000_000_000
# Walks whose listings are kept (``Listings``): a project's, for each project open at once.
_WALKS_KEPT = 8


@dataclass(frozen=True)
class _Walk:
    """What a walk's every folder is listed with: its top, the patterns of what is skipped (not the
    project's code) and of what is analysed but not reported (``Discovery.unreported``), whether
    .gitignore is read, and the folder the patterns may be relative to."""

    root: str
    excludes: tuple[tuple[str, ...], tuple[str, ...]]
    gitignore: bool
    base: str


class _Entry(NamedTuple):
    """What the walk does with one entry of a folder, in the folder's order."""

    kind: str  # "dir" (visit it), "file" (add it) or "error" (report ``why``)
    path: str
    name: str
    shown: bool  # reported: not excluded by the user's patterns
    link: bool  # a symbolic link: its real path is resolved, not the folder's real path joined
    why: str = ""


@dataclass(frozen=True)
class _Listed:
    """One folder as listed: what its entries are to the walk, for the ``.gitignore`` files
    above it and whether it is reported, and what its subfolders are listed with. ``stat`` (of
    the folder and of its .gitignore) is what it is reused on while both are unchanged; None: not
    to be reused (a symbolic link in it, whose target may change with nothing in the folder
    changing, or changed too recently to trust the stat)."""

    stat: tuple[tuple[int, ...], tuple[int, ...]] | None
    ignores: tuple[_GitIgnore, ...]
    reported: bool
    entries: tuple[_Entry, ...]
    below: tuple[_GitIgnore, ...]  # for its subfolders: ``ignores`` and its own .gitignore
    environment: bool = False  # a virtual environment: nothing in it is walked


@dataclass
class Listings:
    """The folders a long-lived caller's discoveries listed (the language server: every edit
    discovers the project again), each reused while its stat (and its .gitignore's) is the same:
    an entry added, removed or renamed changes a folder's mtime and ctime, so what a listing
    reused finds is what listing the folder again would find. ``keep=False``: nothing kept (a
    command-line run lists each folder once)."""

    keep: bool = True
    relisted: int = 0  # folders the last discovery listed anew (the rest were reused)
    # Each file's name as the walk added it, by path as given; kept while no folder changed.
    named: dict[str, SourceFile] = field(default_factory=dict)
    cwd: str = ""  # the folder the paths of ``named`` are relative to
    # The files the last discovery found, and them keyed (``_keyed``).
    _keyed: tuple[tuple[object, ...], tuple[SourceFile, ...]] | None = None
    # By walk (its top and patterns): each folder's listing, by path.
    _walks: dict[_Walk, dict[str, _Listed]] = field(default_factory=dict)
    # Each .gitignore read, by path: its stat, and it.
    _ignores: dict[str, tuple[tuple[int, ...], _GitIgnore]] = field(default_factory=dict)

    def folders(self, walk: _Walk) -> tuple[dict[str, _Listed], dict[str, _Listed]]:
        """The listings the last walk like ``walk`` kept, and where this one keeps its own: a
        folder no longer walked is forgotten."""
        last = self._walks.pop(walk, {})
        now: dict[str, _Listed] = {}
        if self.keep:
            self._walks[walk] = now
            while len(self._walks) > _WALKS_KEPT:  # the oldest: a project closed, patterns changed
                del self._walks[next(iter(self._walks))]
        return last, now

    def keyed(self, files: list[SourceFile], root: str, unreported: set[str]) -> list[SourceFile]:
        """``_keyed``'s files, as the last discovery's when it keyed the same: the same file
        objects (``named``), project and files unreported."""
        facts = (tuple(files), root, frozenset(unreported))
        if self._keyed is not None and self._keyed[0] == facts:
            return list(self._keyed[1])
        out = _keyed(files, root, unreported)
        if self.keep:
            self._keyed = (facts, tuple(out))
        return out

    def gitignore(self, folder: Path) -> _GitIgnore:
        """``folder``'s .gitignore: the one read before while its stat is the same."""
        path = str(folder / ".gitignore")
        stat = _stat_key(path)
        kept = self._ignores.get(path)
        if kept is not None and stat is not None and kept[0] == stat:
            return kept[1]
        read = _read_gitignore(folder)
        if self.keep and stat is not None and _settled(stat):
            self._ignores[path] = (stat, read)
        return read


def _stat_key(path: str) -> tuple[int, ...] | None:
    """What changes when ``path`` (followed) is changed, replaced or its entries are: None when it
    cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _settled(stat: tuple[int, ...]) -> bool:
    """Whether a stat (``_stat_key``) was last changed long enough ago that the next change must
    change it: a change sets the mtime and ctime to the file system's clock, whose tick may be as
    coarse as ``_RACY_NS``."""
    return max(stat[3], stat[4]) < time.time_ns() - _RACY_NS


def _walk(found: Discovery, seen: set[str], walk: _Walk, listings: Listings) -> None:
    """Add the files under ``walk.root``."""
    visited_dirs: set[str] = set()
    ignores = tuple(_parent_gitignores(Path(walk.root), listings)) if walk.gitignore else ()
    ancestors: list[str] = []
    top = os.path.realpath(walk.root)
    last, now = listings.folders(walk)

    def visit(folder: str, ignores: tuple[_GitIgnore, ...], reported: bool, real: str) -> None:
        real = real or os.path.realpath(folder)
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
            listed = _reused(last.get(folder), folder, ignores, reported)
            if listed is None:
                listings.relisted += 1
                listed = _list(folder, ignores, reported, len(ancestors) > 1, walk, listings)
            if listed.stat is not None:
                now[folder] = listed
            for entry in () if listed.environment else listed.entries:
                if entry.kind == "dir":
                    visit(entry.path, listed.below, entry.shown, _real(real, entry))
                elif entry.kind == "error":
                    found.errors.append((entry.path, entry.why))
                elif (
                    _add_file(found, seen, entry.path, listings.named, _real(real, entry))
                    and not entry.shown
                ):
                    found.unreported.add(found.files[-1].path)
        finally:
            ancestors.pop()

    visit(walk.root, ignores, True, "")


def _real(folder_real: str, entry: _Entry) -> str:
    """The real path of ``entry`` in a folder whose real path is known: only a link needs
    resolving ("": resolve it)."""
    return "" if entry.link else os.path.join(folder_real, entry.name)


def _reused(
    listed: _Listed | None, folder: str, ignores: tuple[_GitIgnore, ...], reported: bool
) -> _Listed | None:
    """``listed`` when it is what listing ``folder`` again would give: the same .gitignore files
    above (the same objects: ``Listings.gitignore`` keeps each while unchanged), the same reporting,
    and the folder and its own .gitignore unchanged on disk."""
    if listed is None or listed.stat is None:
        return None
    if listed.reported != reported or listed.ignores != ignores:
        return None
    folder_stat, ignore_stat = listed.stat
    if _stat_key(folder) != folder_stat:
        return None
    if ignore_stat and _stat_key(os.path.join(folder, ".gitignore")) != ignore_stat:
        return None
    return listed


def _list(
    folder: str,
    ignores: tuple[_GitIgnore, ...],
    reported: bool,
    below_top: bool,
    walk: _Walk,
    listings: Listings,
) -> _Listed:
    """List ``folder``: what the walk does with each of its entries. Its stat is taken first, so
    that a change made while it is listed shows as a changed stat next time."""
    folder_stat = _stat_key(folder)
    ignore_stat: tuple[int, ...] = ()
    own = ignores
    if walk.gitignore and os.path.isfile(os.path.join(folder, ".gitignore")):
        ignore_stat = _stat_key(os.path.join(folder, ".gitignore")) or ()
        own = (*ignores, listings.gitignore(Path(folder).absolute()))
    try:
        found = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        why = f"cannot read directory: {exc.strerror or exc}"
        error = (_Entry("error", os.path.normpath(folder), "", True, False, why),)
        return _Listed(None, ignores, reported, error if reported else (), own)
    if below_top and any(e.name == _ENVIRONMENT_MARK for e in found):
        return _Listed(_trusted(folder_stat, ignore_stat), ignores, reported, (), own, True)
    entries = tuple(_entries(folder, found, own, reported, walk))
    stat = None if any(e.link for e in entries) else _trusted(folder_stat, ignore_stat)
    return _Listed(stat, ignores, reported, entries, own)


def _trusted(
    folder_stat: tuple[int, ...] | None, ignore_stat: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The stat a listing is reused on, or None when it is too recent to be trusted."""
    if folder_stat is None or not _settled(folder_stat):
        return None
    if ignore_stat and not _settled(ignore_stat):
        return None
    return folder_stat, ignore_stat


def _entries(
    folder: str,
    found: list[os.DirEntry[str]],
    ignores: tuple[_GitIgnore, ...],
    reported: bool,
    walk: _Walk,
) -> list[_Entry]:
    """What the walk does with each entry of ``folder`` (``found``, sorted by name)."""
    skipped, hidden = (_exclusion(patterns) for patterns in walk.excludes)
    # Patterns may be written relative to the walked folder or to the configuration's folder.
    rel_folder = _posix_relpath(folder, walk.root)
    base_folder = _posix_relpath(os.path.abspath(folder), walk.base)

    def matches(excluded: Callable[[str], bool], name: str) -> bool:
        return (
            excluded(name)
            or excluded(_joined(rel_folder, name))
            or excluded(_joined(base_folder, name))
        )

    out: list[_Entry] = []
    for entry in found:
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
        link = entry.is_symlink()
        if is_dir:
            out.append(_Entry("dir", path, name, shown_here, link))
        elif entry.name.endswith(".py"):
            if os.path.exists(path) and not entry.is_file():
                if shown_here:
                    why = "not a regular file; skipped"
                    out.append(_Entry("error", os.path.normpath(path), name, True, link, why))
                continue
            if link and not os.path.exists(path):
                if shown_here:
                    why = "broken symbolic link"
                    out.append(_Entry("error", os.path.normpath(path), name, True, link, why))
                continue
            out.append(_Entry("file", path, name, shown_here, link))
    return out


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


def _parent_gitignores(root: Path, listings: Listings) -> list[_GitIgnore]:
    """.gitignore files above the walked folder, up to the repository root."""
    out: list[_GitIgnore] = []
    folder = root.absolute().parent
    for current in (folder, *folder.parents):
        if (current / ".gitignore").is_file():
            out.insert(0, listings.gitignore(current))
        if (current / ".git").exists():
            break
    return out


def _is_ignored(ignores: tuple[_GitIgnore, ...], path: Path, is_dir: bool) -> bool:
    verdict = False
    absolute = path.absolute()
    for ignore in ignores:
        result = ignore.ignored(absolute, is_dir)
        if result is not None:
            verdict = result
    return verdict
