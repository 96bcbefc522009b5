"""GitHub Actions output: workflow-command annotations and the job summary.

Annotation syntax and escaping follow actions/toolkit (``packages/core/src/command.ts``): the message escapes
``%``, CR and LF; property values also escape ``:`` and ``,``. ``col``/``endColumn`` are sent only for a
single-line range, because the runner rejects them otherwise. GitHub shows at most 10 annotations of each level
per step and 50 per job and drops the rest silently, so a summary line says when that happened, and the job
summary (``$GITHUB_STEP_SUMMARY``) lists every finding.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from retracelint.graphviz import mermaid
from retracelint.model import Finding
from retracelint.rules import RULES_BY_CODE, page_url

PER_STEP_LIMIT = 10  # annotations of each level shown per step
PER_JOB_LIMIT = 50  # annotations shown per job, all levels together
MAX_DIAGRAMS = 50  # Mermaid diagrams in the job summary; it is capped at 1 MiB per step

_LEVELS = ("error", "warning", "notice")


def github_level(severity: str) -> str:
    """The workflow-command level for a finding severity."""
    severity = severity.lower()
    if severity in ("error", "warning"):
        return severity
    return "notice"  # "notice", "info", "note", anything milder


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _relpath(path: str, cwd: str | os.PathLike[str] | None) -> str:
    # Annotations attach to a file only when its path is relative to the repository (the job's cwd).
    base = os.getcwd() if cwd is None else cwd
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(base))).as_posix()


def _rule_name(code: str) -> str:
    rule = RULES_BY_CODE.get(code)
    return rule.name if rule is not None else ""


def _title(finding: Finding) -> str:
    return f"{finding.code} {_rule_name(finding.code)}".rstrip()


def message_text(finding: Finding, cwd: str | os.PathLike[str] | None = None) -> str:
    """For the job summary: the headline, its details, the whole fix and the call path, one line
    each (an annotation shows the headline alone, as ruff's do)."""
    lines = [finding.headline() + finding.unproven, *finding.details]
    if finding.fix:
        lines.append(f"fix: {finding.fix}")
    path = call_path_text(finding, cwd)
    if path:
        lines.append(f"path: {path}")
    return "\n".join(lines)


def call_path_text(finding: Finding, cwd: str | os.PathLike[str] | None = None) -> str:
    """``f (a.py:3) → g (b.py:9) → jit step (c.py:1)``, or empty when there is no path to show."""
    parts = [
        f"{step.function} ({_relpath(step.location.path, cwd)}:{step.location.line})"
        for step in finding.call_path
    ]
    site = finding.jit_site
    if site is not None and parts:
        parts.append(f"{site.function} ({_relpath(site.location.path, cwd)}:{site.location.line})")
    return " → ".join(parts)


def annotation(finding: Finding, *, cwd: str | os.PathLike[str] | None = None) -> str:
    """One ``::error file=…,line=…::message`` workflow command."""
    loc = finding.location
    end_line = loc.end_line or loc.line
    props = [
        f"file={escape_property(_relpath(loc.path, cwd))}",
        f"line={loc.line}",
        f"endLine={end_line}",
    ]
    if end_line == loc.line and loc.col > 0:
        props.append(f"col={loc.col}")
        if loc.end_col >= loc.col:
            props.append(f"endColumn={loc.end_col}")
    props.append(f"title={escape_property(_title(finding))}")
    level = github_level(finding.severity)
    return f"::{level} {','.join(props)}::{escape_data(finding.headline())}"


def _counts_text(findings: Sequence[Finding]) -> str:
    counts = Counter(github_level(f.severity) for f in findings)
    names = {"error": "error", "warning": "warning", "notice": "notice"}
    parts = [
        f"{counts[lvl]} {names[lvl]}{'s' if counts[lvl] != 1 else ''}"
        for lvl in _LEVELS
        if counts[lvl]
    ]
    total = len(findings)
    return f"{total} finding{'s' if total != 1 else ''} ({', '.join(parts)})"


def over_limit(findings: Sequence[Finding]) -> bool:
    """Whether GitHub will drop some of these annotations."""
    counts = Counter(github_level(f.severity) for f in findings)
    return len(findings) > PER_JOB_LIMIT or any(n > PER_STEP_LIMIT for n in counts.values())


def summary_line(findings: Sequence[Finding]) -> str:
    if not findings:
        return "retracelint: no findings."
    line = f"retracelint: {_counts_text(findings)}."
    if over_limit(findings):
        line += (
            f" GitHub shows at most {PER_STEP_LIMIT} annotations of each level per step and"
            f" {PER_JOB_LIMIT} per job, so some are not annotated: the job summary lists them all, and"
            " `retracelint --format sarif --output-file retracelint.sarif` uploaded with"
            " github/codeql-action/upload-sarif shows every finding in code scanning."
        )
    return line


def render_github(findings: Iterable[Finding], *, cwd: str | os.PathLike[str] | None = None) -> str:
    """All annotations, one per line, then the one-line summary."""
    ordered = sorted(findings, key=lambda f: f.sort_key)
    lines = [annotation(f, cwd=cwd) for f in ordered]
    lines.append(summary_line(ordered))
    return "\n".join(lines) + "\n"


# --- job summary -------------------------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    """Text safe inside a Markdown table cell: GitHub renders HTML there, so ``<locals>`` must be escaped."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("|", "\\|")
    return "<br>".join(line for line in text.splitlines() if line.strip()) or " "


def step_summary(findings: Iterable[Finding], *, cwd: str | os.PathLike[str] | None = None) -> str:
    """The Markdown written to the job summary: a table of every finding, then each call-path diagram."""
    ordered = sorted(findings, key=lambda f: f.sort_key)
    out = ["## retracelint", ""]
    if not ordered:
        out += ["No findings.", ""]
        return "\n".join(out) + "\n"
    out += [f"{_counts_text(ordered)}.", ""]
    out += ["| # | Level | Rule | Location | Message |", "|---:|---|---|---|---|"]
    for number, f in enumerate(ordered, start=1):
        loc = f.location
        where = f"{_relpath(loc.path, cwd)}:{loc.line}:{loc.col}"
        rule = f"[{f.code}]({page_url(f.code)}) {_md_cell(_rule_name(f.code))}".rstrip()
        out.append(
            f"| {number} | {github_level(f.severity)} | {rule} | {_md_cell(where)} | "
            f"{_md_cell(message_text(f, cwd))} |"
        )
    out.append("")
    with_paths = [(n, f) for n, f in enumerate(ordered, start=1) if f.call_path or f.jit_site]
    if with_paths:
        out += ["### Call paths", ""]
        for number, f in with_paths[:MAX_DIAGRAMS]:
            loc = f.location
            heading = f"{number}. {f.code} at {_relpath(loc.path, cwd)}:{loc.line}"
            out += [
                f"#### {_md_cell(heading)}",
                "",
                "```mermaid",
                mermaid(f, root=cwd).rstrip("\n"),
                "```",
                "",
            ]
        if len(with_paths) > MAX_DIAGRAMS:
            out += [
                f"{len(with_paths) - MAX_DIAGRAMS} more call paths not drawn (see `retracelint graph`).",
                "",
            ]
    return "\n".join(out) + "\n"


def write_step_summary(
    findings: Iterable[Finding],
    path: str | os.PathLike[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
) -> None:
    """Append the job-summary Markdown to ``path`` (the file named by ``GITHUB_STEP_SUMMARY``)."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(step_summary(findings, cwd=cwd))
