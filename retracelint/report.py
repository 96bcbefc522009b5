"""Render findings: flake8-style text, JSON, GitHub annotations, SARIF; and the statistics footer."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence

from retracelint import __version__
from retracelint.model import Finding
from retracelint.rules import RULES, RULES_BY_CODE


def render(findings: Sequence[Finding], output_format: str, root: str | None = None) -> str:
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
    return "".join(text_line(f) + "\n" for f in ordered)


def text_line(finding: Finding) -> str:
    """``path:line:col: CODE message``, as flake8 prints; a milder finding than an error says so at the
    start of its message, ``CODE [warning] message``, where ruff marks a fixable one ``CODE [*] message``:
    parsers of flake8's format take everything after the code as the message, and an error, the usual
    level, prints exactly as the flake8 plugin prints it. A finding resting on an assumption (shown
    with ``--confidence all``) ends with it: ``[low confidence: ...]``."""
    loc = finding.location
    level = "" if finding.severity == "error" else f"[{finding.severity}] "
    return f"{loc.path}:{loc.line}:{loc.col}: {finding.code} {level}{finding.message}{finding.unproven}"


def statistics(findings: Sequence[Finding]) -> str:
    """Like flake8 --statistics: a count per code, most frequent first."""
    counts = Counter(f.code for f in findings)
    lines = []
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = RULES_BY_CODE.get(code)
        lines.append(f"{count:<5} {code} {rule.name if rule else ''}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")
