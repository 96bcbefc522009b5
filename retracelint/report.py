"""Render findings: text (``concise``, one flake8-style line each, or ``full``, with the call path and the
details under each), JSON, GitHub annotations, SARIF; and the statistics footer."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence

from retracelint import __version__
from retracelint.model import Finding, JitSite, Location
from retracelint.rules import RULES, RULES_BY_CODE


def render(
    findings: Sequence[Finding],
    output_format: str,
    root: str | None = None,
    fixable: frozenset[int] | None = None,
) -> str:
    """``fixable``: ids of the findings text output marks ``[*]``."""
    ordered = sorted(findings, key=lambda f: f.sort_key)
    if output_format == "json":
        return json.dumps([f.to_dict() for f in ordered], indent=2, ensure_ascii=False) + "\n"
    if output_format == "github":
        from retracelint.formats.github import render_github

        return render_github(ordered)
    if output_format == "sarif":
        from retracelint.formats.sarif import render_sarif

        return render_sarif(
            ordered, rules=RULES, tool_version=__version__, root=root or os.getcwd()
        )
    if output_format == "full":
        return "".join(full_text(f, id(f) in (fixable or ())) for f in ordered)
    return "".join(text_line(f, id(f) in (fixable or ())) + "\n" for f in ordered)


def text_line(finding: Finding, fixable: bool = False) -> str:
    """``path:line:col: CODE message``, as flake8 prints; a milder finding than an error says so at the
    start of its message, ``CODE [warning] message``, where ruff marks a fixable one ``CODE [*] message``:
    parsers of flake8's format take everything after the code as the message, and an error, the usual
    level, prints exactly as the flake8 plugin prints it. A finding resting on an assumption (shown
    with ``--confidence all``) ends with it: ``[low confidence: ...]``."""
    loc = finding.location
    level = "" if finding.severity == "error" else f"[{finding.severity}] "
    mark = "[*] " if fixable else ""
    return (
        f"{loc.path}:{loc.line}:{loc.col}: {finding.code} {mark}{level}{finding.headline()}"
        f"{finding.unproven}"
    )


def full_text(finding: Finding, fixable: bool = False) -> str:
    """The headline line, then, indented as ruff's ``--output-format full`` prints context: the call
    path from the loop to the jit (``path:line: call``), the jit site, the details (the loop, what
    the value is), the fix, and how many other call paths lead to the same line; a blank line ends it."""
    lines = [text_line(finding, fixable)]
    if finding.call_path:
        lines.append("  call path:")
        lines += [f"    {_where(step.location)}: {step.call}(...)" for step in finding.call_path]
    if finding.jit_site is not None:
        lines.append(f"  jit site: {_site(finding.jit_site, finding.parameter)}")
    lines += [f"  {detail}" for detail in finding.details]
    if finding.fix:
        lines.append(f"  fix: {finding.fix}")
    more = len(finding.other_routes)
    if more:
        lines.append(f"  and {more} more call path{'s' if more > 1 else ''} (JSON lists them)")
    return "\n".join(lines) + "\n\n"


def _where(location: Location) -> str:
    return f"{location.path}:{location.line}"


def _site(site: JitSite, parameter: str | None) -> str:
    """``model.py:48: train_step (jax.jit), parameter 'x'`` (the headline says whether it is static)."""
    text = f"{_where(site.location)}: {site.name or site.function} ({site.wrapper})"
    return f"{text}, parameter '{parameter}'" if parameter is not None else text


def statistics(findings: Sequence[Finding]) -> str:
    """Like flake8 --statistics: a count per code, most frequent first."""
    counts = Counter(f.code for f in findings)
    lines = []
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = RULES_BY_CODE.get(code)
        lines.append(f"{count:<5} {code} {rule.name if rule else ''}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")
