"""The flake8 plugin: ``flake8 --select RTL`` reports retracelint's findings for each file it checks.

flake8 hands a plugin one file at a time, often in worker processes, and has no end-of-run hook, while a
retracelint finding in one file can depend on a loop in another. So the plugin analyses the whole project
the file belongs to (the same analysis as ``retracelint ROOT``) and reports the findings located in that
file. The project analysis is done once per project root per flake8 run in each process, and stored in a
small on-disk index keyed by the content of every file of the project, so that parallel workers (``-j``)
and later runs on an unchanged tree only read it. While one process computes an entry, the others wait
for it instead of repeating the work.

The project of a file is found as the command line finds it (``config.project_of``): the nearest folder
with a retracelint configuration, else with a pyproject.toml, setup.cfg, setup.py or .git, else the folder
above the file's package chain; its files are named as the command line names them, so that
``flake8 --select RTL FILE`` and ``retracelint FILE`` print the same findings.

flake8 applies ``# noqa`` itself (and ``--disable-noqa`` turns that off), so the plugin asks the engine
for the findings before noqa filtering. The project's retracelint selection (``select``/``ignore``) is
respected; codes that flake8 names explicitly (``--select RTL201``, ``--extend-select RTL105``) are
reported on top of it, and flake8 then applies its own selection.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import multiprocessing
import os
import tokenize
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from retracelint import __version__, config, filters
from retracelint.config import Settings
from retracelint.discover import SourceFile, discover, shown, shown_like
from retracelint.model import Finding, PathStep

# flake8 names a stdin buffer "stdin" unless --stdin-display-name says otherwise.
_STDIN_NAMES = ("stdin", "-")

# flake8's own codes for a file it cannot tokenize (E902) or parse (E999). flake8 runs no plugin on
# such a file, so the plugin cannot say RTL000 there as `retracelint` does.
_UNCHECKED = ("E902", "E999")

Result = tuple[int, int, str, type]


@dataclass(frozen=True)
class _Project:
    root: str  # as passed to the engine: relative to the current folder when under it
    settings: Settings  # what the engine runs with (every code selected; noqa left to flake8)
    chosen: filters.Selection  # the project's own selection, applied by the plugin
    files: dict[str, SourceFile]  # reported ones, by absolute path; .path: as the engine names it


@dataclass(frozen=True)
class _Checked:
    """Which files this flake8 run checks, as flake8 finds them: its paths, ``exclude`` and
    ``filename`` patterns. Asked only when a finding made in another file could be shown in the
    file being checked (a call on its path is there), so as to show it once, in the first file on
    its path that flake8 checks."""

    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    stdin_name: str = "stdin"

    @cached_property
    def files(self) -> frozenset[str]:
        try:
            from flake8.discover_files import expand_paths

            found = expand_paths(
                paths=self.paths,
                stdin_display_name=self.stdin_name,
                filename_patterns=self.patterns,
                exclude=self.exclude,
            )
            return frozenset(os.path.normpath(os.path.abspath(path)) for path in found)
        except Exception:  # another flake8: the file being checked only
            return frozenset()


# Per process, for one flake8 run (parse_options clears them): roots and project analyses.
_FOLDERS: dict[str, tuple[str, Path | None]] = {}
_ROOTS: dict[str, _Project] = {}
_ANALYSES: dict[tuple[str, str], dict[str, list[Finding]]] = {}


class RetracelintChecker:
    """flake8 AST plugin; flake8 finds it through the ``flake8.extension`` entry point ``RTL``."""

    name = "retracelint"
    version = __version__

    # RTL codes that flake8's own --select / --extend-select (flags or config) name explicitly.
    flake8_codes: tuple[str, ...] = ()
    checked = _Checked()

    def __init__(self, tree: Any, filename: str, lines: Sequence[str]) -> None:
        # The tree is flake8's ast; retracelint parses the text itself (its own positions).
        self.filename = filename
        self.lines = lines

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """Called once per flake8 run (and in each worker under spawn): each run starts afresh."""
        cls.flake8_codes = explicit_codes(options)
        cls.checked = _Checked(
            tuple(getattr(options, "filenames", None) or (".",)),
            (
                *(getattr(options, "exclude", None) or ()),
                *(getattr(options, "extend_exclude", None) or ()),
            ),
            tuple(getattr(options, "filename", None) or ("*.py",)),
            getattr(options, "stdin_display_name", None) or "stdin",
        )
        options.extend_select = [*(options.extend_select or ()), *unchecked_codes(options)]
        _FOLDERS.clear()
        _ROOTS.clear()
        _ANALYSES.clear()

    def run(self) -> Iterator[Result]:
        try:
            text = "".join(self.lines)
            findings = findings_for(self.filename, text, self.flake8_codes, self.checked)
        except Exception as exc:
            # Never crash flake8: one RTL000 for this file says what went wrong.
            if os.environ.get("RETRACELINT_DEBUG"):
                traceback.print_exc()
            why = " ".join(f"{type(exc).__name__}: {exc}".split())
            findings = [_error_finding(f"retracelint failed on this file: {why}")]
        for finding in findings:
            loc = finding.location
            # flake8 columns are 0-based in the tuple and printed 1-based; ours are 1-based.
            yield loc.line, max(loc.col - 1, 0), f"{finding.code} {finding.headline()}", type(self)


def explicit_codes(options: Any) -> tuple[str, ...]:
    """RTL selectors more specific than the bare prefix in flake8's --select / --extend-select."""
    out: list[str] = []
    for name in ("select", "extend_select"):
        for code in getattr(options, name, None) or ():
            code = str(code).strip().upper()
            if code.startswith("RTL") and len(code) > len("RTL"):
                out.append(code)
    return tuple(out)


def unchecked_codes(options: Any) -> tuple[str, ...]:
    """flake8's codes for a file nothing could check, when an explicit ``--select RTL...`` leaves them
    out: without them ``flake8 --select RTL`` says nothing (exit 0) about a file that does not parse,
    where ``retracelint`` reports RTL000. A code the user selects or ignores by name stays theirs."""
    select = [str(code).strip().upper() for code in getattr(options, "select", None) or ()]
    if not any(code.startswith("RTL") for code in select):
        return ()
    named = [
        str(code).strip().upper()
        for key in ("select", "extend_select", "ignore", "extend_ignore")
        for code in getattr(options, key, None) or ()
    ]
    return tuple(c for c in _UNCHECKED if not any(c.startswith(n) for n in named if n))


def findings_for(
    filename: str, text: str, flake8_codes: tuple[str, ...] = (), checked: _Checked | None = None
) -> list[Finding]:
    """The findings to report for one file whose current content (buffer, stdin) is ``text``:
    those made in it, and those made in a file that ``checked`` (this flake8 run) does not report
    whose first call in a file it does is here (``filters.reported_in``)."""
    if filename in _STDIN_NAMES:
        filename = "stdin.py"  # the name the CLI gives standard input
    path = os.path.normpath(os.path.abspath(filename))
    project = _project(path, filename)
    if path not in project.files and os.path.exists(path):
        return []  # excluded by the project's configuration or .gitignore, as `retracelint` does
    override = buffer_bytes(path, text)
    known = project.files.get(path)
    report_as = known.path if known else shown(shown_like(path, project.root))
    by_path = _analysis(project, report_as, override)
    found = by_path.get(report_as, []) + _brought_here(project, by_path, report_as, checked)
    return [
        f
        for f in found
        if project.chosen.enabled(f.code) or any(f.code.startswith(c) for c in flake8_codes)
    ]


def _brought_here(
    project: _Project,
    by_path: dict[str, list[Finding]],
    report_as: str,
    checked: _Checked | None,
) -> list[Finding]:
    """The findings made in other files that this run shows at a call in ``report_as``."""
    passing = [
        f
        for path, found in by_path.items()
        if path != report_as
        for f in found
        if any(step.location.path == report_as for step in _steps(f))
    ]
    if not passing:
        return []
    files = checked.files if checked is not None else frozenset()

    def reported(path: str) -> bool:
        where = os.path.normpath(os.path.abspath(path))
        return path == report_as or (where in project.files and where in files)

    moved = filters.reported_in(passing, reported, project.settings, lambda _: [])
    return sorted((f for f in moved if f.location.path == report_as), key=lambda f: f.sort_key)


def _steps(finding: Finding) -> Iterator[PathStep]:
    yield from finding.call_path
    for route in finding.other_routes:
        yield from route.call_path


def project_root(path: str) -> tuple[str, Path | None]:
    """The folder to analyse for ``path``, and the configuration file found for it."""
    folder = os.path.dirname(path)
    if folder not in _FOLDERS:
        root, found = config.project_of(path)
        _FOLDERS[folder] = (str(root), found)
    return _FOLDERS[folder]


def _project(path: str, filename: str) -> _Project:
    root, config_file = project_root(path)
    if root in _ROOTS:
        return _ROOTS[root]
    base = config.load_file(config_file) if config_file else Settings()
    settings = replace(base, select=("RTL",), extend_select=(), ignore=())
    if multiprocessing.current_process().daemon:
        settings = replace(settings, jobs=1)  # a flake8 worker may not start processes of its own
    settings = replace(settings, disable_noqa=True)  # flake8 applies
    engine_root = shown_like(root, filename)  # relative when flake8 was given relative names
    found = discover([engine_root], settings, engine_root)
    # The files it reports: an excluded file takes part in the analysis, but shows nothing.
    files = {os.path.normpath(os.path.abspath(f.path)): f for f in found.files if f.reported}
    project = _Project(engine_root, settings, filters.selection(base), files)
    _ROOTS[root] = project
    return project


def _read_text(path: str) -> str | None:
    """The file's text as flake8 reads it: by its encoding declaration, else as Latin-1 (where
    retracelint, as Python, stops: RTL000, which the plugin must then report, not analyse the text
    flake8 made of it)."""
    try:
        with tokenize.open(path) as handle:
            return handle.read()
    except (SyntaxError, UnicodeDecodeError, LookupError):
        pass
    except OSError:
        return None
    try:
        with open(path, encoding="latin-1") as handle:
            return handle.read()
    except OSError:
        return None


def _normal(text: str) -> str:
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def buffer_bytes(path: str, text: str) -> bytes | None:
    """The buffer's bytes when flake8's text is not what is on disk (stdin, unsaved buffer)."""
    on_disk = _read_text(path)
    if on_disk is not None and _normal(on_disk) == _normal(text):
        return None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(text.encode("utf-8")).readline)
        return text.encode(encoding)
    except (SyntaxError, LookupError, UnicodeEncodeError):
        return text.encode("utf-8")


def _analysis(
    project: _Project, report_as: str, override: bytes | None
) -> dict[str, list[Finding]]:
    root = os.path.abspath(project.root)
    memo_key = (root, "" if override is None else report_as + "\0" + _digest(override))
    if memo_key not in _ANALYSES:
        _ANALYSES[memo_key] = _indexed_analysis(project, report_as, override)
    return _ANALYSES[memo_key]


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _indexed_analysis(
    project: _Project, report_as: str, override: bytes | None
) -> dict[str, list[Finding]]:
    """The project's findings. flake8's workers take turns: the first analyses, and the engine's
    whole-run index (keyed by every file's content) serves the same findings to the others."""
    from retracelint.engine import cache_folder

    folder = cache_folder(project.settings)
    if folder is None:
        return _analyse(project, report_as, override)
    with _locked(folder / "flake8.lock"):
        return _analyse(project, report_as, override)


def _analyse(project: _Project, report_as: str, override: bytes | None) -> dict[str, list[Finding]]:
    from retracelint.engine import analyse

    run = analyse([project.root], project.settings, override, report_as, project.root)
    by_path: dict[str, list[Finding]] = {}
    for finding in run.findings:
        by_path.setdefault(os.path.normpath(finding.location.path), []).append(finding)
    for found in by_path.values():
        found.sort(key=lambda f: f.sort_key)
    return by_path


@contextlib.contextmanager
def _locked(lock: Path) -> Iterator[None]:
    """An exclusive lock between processes (POSIX); elsewhere, or when it fails, no lock."""
    try:
        import fcntl

        lock.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock, "a+b")  # noqa: SIM115 - held for the whole block
    except (ImportError, OSError):
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


def _error_finding(message: str) -> Finding:
    from retracelint.model import Location

    return Finding(code="RTL000", message=message, location=Location("", 1, 1, 1, 1))
