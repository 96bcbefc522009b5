"""The pipeline, top to bottom: discover → summarise (parallel, cached) → link → propagate → rules → filter.

``analyse`` is what the CLI, the flake8 plugin and ``confirm`` call. It never imports the analysed code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from retracelint.cache import SummaryCache, ensure_gitignore
from retracelint.callgraph import Project
from retracelint.checks import run_checks
from retracelint.config import Settings
from retracelint.discover import SourceFile, discover, module_name
from retracelint.filters import apply_filters, with_source_lines
from retracelint.jitspec import BUILTIN_WRAPPERS, parse_wrapper_config
from retracelint.model import Finding, Location
from retracelint.propagate import Propagation
from retracelint.summarise import SummaryOptions, summarise
from retracelint.summary import ModuleSummary

_PARALLEL_MIN_FILES = 24  # below this, starting worker processes costs more than it saves


@dataclass
class Run:
    findings: list[Finding]  # what the user sees, after selection, noqa and per-file ignores
    files: int = 0
    lines: int = 0
    summaries: list[ModuleSummary] = field(default_factory=list)
    cache_hits: int = 0


@dataclass(frozen=True)
class _Job:
    file: SourceFile
    max_size: int
    options: SummaryOptions
    source: bytes | None = None  # given for stdin


def summary_options(settings: Settings) -> SummaryOptions:
    wrappers = dict(BUILTIN_WRAPPERS)
    wrappers.update(parse_wrapper_config(list(settings.jit_wrappers)))
    return SummaryOptions(wrappers=wrappers)


def _read(job: _Job) -> tuple[bytes | None, str | None]:
    if job.source is not None:
        return job.source, None
    path = job.file.path
    try:
        size = os.path.getsize(path)
        if size > job.max_size:
            mb = job.max_size / 1024 / 1024
            return None, f"file too large ({size / 1024 / 1024:.1f} MB > {mb:g} MB limit); skipped"
        with open(path, "rb") as handle:
            return handle.read(), None
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"


def _summarise_job(job: _Job, cache: SummaryCache | None = None) -> tuple[ModuleSummary, bool]:
    """The summary of one file, and whether it came from the cache."""
    source, error = _read(job)
    file = job.file
    if source is None:
        failed = ModuleSummary(
            path=file.path, module=file.module, is_package=file.is_package, error=error
        )
        return failed, False
    key = cache.key(source, file.path, file.module, file.is_package) if cache else ""
    if cache is not None:
        cached = cache.get(key)
        if cached is not None:
            return cached, True
    summary = summarise(source, file.path, file.module, file.is_package, job.options)
    summary.lines = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
    if cache is not None:
        cache.put(key, summary)
    return summary, False


def _worker(args: tuple[_Job, Path | None, str]) -> tuple[ModuleSummary, bool]:
    job, folder, salt = args
    cache = SummaryCache(folder, salt) if folder is not None else None
    return _summarise_job(job, cache)


def _cache_salt(settings: Settings) -> str:
    return repr(sorted(settings.jit_wrappers)) + f"|{sys.version_info[:2]}"


def cache_folder(settings: Settings, paths: list[str]) -> Path | None:
    if not settings.cache:
        return None
    if settings.cache_dir:
        return Path(settings.cache_dir)
    if settings.config_file:
        return Path(settings.config_file).parent / ".retracelint_cache"
    return Path.cwd() / ".retracelint_cache"


def summarise_all(
    jobs: list[_Job], settings: Settings, paths: list[str]
) -> tuple[list[ModuleSummary], int]:
    folder = cache_folder(settings, paths)
    salt = _cache_salt(settings)
    if folder is not None:
        ensure_gitignore(folder)
    workers = settings.jobs or os.cpu_count() or 1
    if workers > 1 and len(jobs) >= _PARALLEL_MIN_FILES:
        try:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                chunk = max(1, len(jobs) // (workers * 8))
                results = list(
                    pool.map(_worker, [(j, folder, salt) for j in jobs], chunksize=chunk)
                )
        except (OSError, RuntimeError):
            results = []  # no processes available here (sandbox, frozen app): use this one
        if results:
            return [s for s, _ in results], sum(hit for _, hit in results)
    cache = SummaryCache(folder, salt) if folder is not None else None
    results = [_summarise_job(job, cache) for job in jobs]
    return [s for s, _ in results], sum(hit for _, hit in results)


def analyse(
    paths: list[str],
    settings: Settings,
    stdin: bytes | None = None,
    stdin_filename: str = "stdin.py",
) -> Run:
    files, errors = _inputs(paths, settings, stdin is not None, stdin_filename)
    options = summary_options(settings)
    jobs = [
        _Job(
            f,
            settings.max_file_size,
            options,
            stdin if f.path == stdin_filename and stdin is not None else None,
        )
        for f in files
    ]
    summaries, hits = summarise_all(jobs, settings, paths)
    project = Project(summaries)
    findings = run_checks(project, Propagation(project))
    findings += [_error(path, why) for path, why in errors]
    findings += [_error(s.path, s.error) for s in summaries if s.error]
    findings = with_source_lines(findings, _line_reader(stdin, stdin_filename))
    return Run(
        findings=apply_filters(findings, settings),
        files=len(files),
        lines=sum(s.lines for s in summaries),
        summaries=summaries,
        cache_hits=hits,
    )


def analyse_paths(paths: list[str], settings: Settings | None = None) -> list[Finding]:
    """The findings for ``paths`` with the configuration found for them (used by ``confirm``)."""
    from retracelint import config

    return analyse(paths, settings or config.load(paths)).findings


def _inputs(
    paths: list[str], settings: Settings, has_stdin: bool, stdin_filename: str
) -> tuple[list[SourceFile], list[tuple[str, str]]]:
    on_disk = [p for p in paths if p != "-"]
    found = discover(on_disk, settings) if on_disk else None
    files = list(found.files) if found else []
    errors = list(found.errors) if found else []
    if has_stdin:
        name = os.path.normpath(stdin_filename)
        files = [f for f in files if f.path != name]
        module, is_package = module_name(name)
        files.append(SourceFile(name, module, is_package))
    return files, errors


def _error(path: str, why: str | None) -> Finding:
    return Finding(code="RTL000", message=f"{why}", location=Location(path, 1, 1, 1, 1))


def _line_reader(stdin: bytes | None, stdin_filename: str) -> Callable[[str], list[str]]:
    from retracelint.summarise import module_text, source_lines

    @lru_cache(maxsize=256)
    def read(path: str) -> list[str]:
        try:
            if stdin is not None and os.path.normpath(path) == os.path.normpath(stdin_filename):
                data = stdin
            else:
                with open(path, "rb") as handle:
                    data = handle.read()
            return source_lines(module_text(data))
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            return []

    return read
