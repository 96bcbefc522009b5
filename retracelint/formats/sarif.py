"""SARIF 2.1.0 output, shaped for GitHub code scanning.

GitHub reads: ``tool.driver.rules`` (id, name, descriptions, help, helpUri, default level), and per result the
rule, level, message, first location with a region, ``relatedLocations``, ``codeFlows`` and
``partialFingerprints``. Paths are relative to the repository root with ``uriBaseId`` ``%SRCROOT%``; columns are
1-based characters with an exclusive end column, as retracelint counts them.

The partial fingerprint ``retracelint/v1`` is the one from :mod:`retracelint.baseline`, so code scanning and
``--baseline`` agree on which findings are the same. ``primaryLocationLineHash`` is left to upload-sarif, which
computes it from the checked-out source.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from retracelint.baseline import FINGERPRINT_KEY, fingerprint, relative_path
from retracelint.model import Finding, Location, Route
from retracelint.rules import Rule, page, page_url

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/retracelint/retracelint"
SRCROOT = "%SRCROOT%"
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


def sarif_level(severity: str) -> str:
    severity = severity.lower()
    if severity in ("error", "warning"):
        return severity
    if severity in ("none", "off"):
        return "none"
    return "note"  # "notice", "info", "note"


def _first_paragraph(markdown: str, heading: str) -> str:
    """The first paragraph under ``## heading``, joined into one line; empty when the page has none."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line.strip().lower() == f"## {heading}".lower():
            para: list[str] = []
            for text in lines[i + 1 :]:
                if not text.strip():
                    if para:
                        break
                    continue
                if text.startswith("#"):
                    break
                para.append(text.strip())
            return " ".join(para)
    return ""


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def rule_descriptor(rule: Rule) -> dict[str, Any]:
    """A ``reportingDescriptor`` for one rule, its help taken from the rule page when there is one."""
    summary = _sentence(rule.summary)
    fix = _sentence(rule.fix) if rule.fix else ""
    doc = page(rule.code)
    full = _first_paragraph(doc, "What it detects") if doc else ""
    help_text = doc if doc else f"{summary}\n\nHow to fix: {fix}".strip()
    level = sarif_level(rule.severity)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": full or f"{summary} {fix}".strip()},
        "help": {"text": help_text, "markdown": help_text},
        "helpUri": page_url(rule.code),
        "defaultConfiguration": {"level": level, "enabled": rule.default},
        "properties": {"tags": ["jax", "performance", "retrace"], "problem.severity": level},
    }


def _unknown_rule(code: str) -> dict[str, Any]:
    # A finding whose code is missing from the catalogue still needs a descriptor: GitHub requires help text.
    text = f"retracelint rule {code}."
    return {
        "id": code,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "help": {"text": text},
        "helpUri": page_url(code),
    }


def _uri(path: str, root: str | os.PathLike[str]) -> str:
    return quote(relative_path(path, root), safe="/")


def _physical(loc: Location, root: str | os.PathLike[str]) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(loc.line, 1)}
    if loc.col > 0:
        region["startColumn"] = loc.col
    end_line = loc.end_line or loc.line
    if end_line >= loc.line:
        region["endLine"] = end_line
        # An end column only means something with a start column on the same line, or any multi-line range.
        if loc.end_col > 0 and (end_line > loc.line or loc.end_col >= loc.col):
            region["endColumn"] = loc.end_col
    return {
        "artifactLocation": {"uri": _uri(loc.path, root), "uriBaseId": SRCROOT},
        "region": region,
    }


def _location(
    loc: Location, root: str | os.PathLike[str], message: str, ident: int | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if ident is not None:
        out["id"] = ident
    out["physicalLocation"] = _physical(loc, root)
    out["message"] = {"text": message}
    return out


def flow_steps(finding: Finding, route: Route) -> list[tuple[Location, str, str]]:
    """(location, message, kind) from the origin through every call of ``route`` to its jit site."""
    steps: list[tuple[Location, str, str]] = [
        (finding.made_at, "the varying value is made here", "source")
    ]
    for step in route.call_path:
        if step.location == finding.made_at and len(steps) == 1:
            # The origin is the argument of the first call: one location, described as both.
            steps[0] = (
                step.location,
                f"the varying value is passed to {step.call}() here",
                "source",
            )
            continue
        steps.append((step.location, f"{step.function} calls {step.call}()", "call"))
    site = route.jit_site
    if site is not None:
        where = f"{site.name}, made by {site.wrapper}"
        what = f"parameter {route.parameter!r} of {where}" if route.parameter else where
        steps.append((site.location, f"jit site: {what}", "sink"))
    return steps


def told_steps(finding: Finding) -> list[tuple[Location, str, str]]:
    """(location, message, kind) of each finding ``finding`` tells of its re-trace (``related``)."""
    return [
        (r.location, f"{finding.sameness(r)}: {r.code} {r.message}", "related")
        for r in finding.related
    ]


def _code_flow(steps: list[tuple[Location, str, str]], root: str | os.PathLike[str]) -> dict:
    return {
        "threadFlows": [
            {
                "locations": [
                    {
                        "location": _location(loc, root, message),
                        "kinds": [kind],
                        "nestingLevel": depth,
                        "executionOrder": depth + 1,
                    }
                    for depth, (loc, message, kind) in enumerate(steps)
                ]
            }
        ]
    }


def result(
    finding: Finding, rule_index: dict[str, int], root: str | os.PathLike[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index[finding.code],
        "level": sarif_level(finding.severity),
        "message": {"text": finding.headline()},  # the headline; the path is the code flow
        "locations": [{"physicalLocation": _physical(finding.location, root)}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(finding, root=root)},
    }
    main = Route(finding.call_path, finding.jit_site, finding.parameter)
    steps = flow_steps(finding, main)
    told = told_steps(finding)
    if len(steps) > 1 or told:
        # Every place on the way but the one reported: the origin too, for a finding reported at a
        # call on its path.
        related = [step for step in steps if step[0] != finding.location] + told
        out["relatedLocations"] = [
            _location(loc, root, message, ident)
            for ident, (loc, message, _kind) in enumerate(related, start=1)
        ]
    if len(steps) > 1:
        # One code flow per call path: the one the message describes first, then the others.
        flows = [steps] + [flow_steps(finding, route) for route in finding.other_routes]
        out["codeFlows"] = [_code_flow(flow, root) for flow in flows]
    # SARIF's rank (0.0-100.0, higher first) orders the results by how sure the evidence is.
    out["rank"] = _RANKS[finding.confidence]
    props: dict[str, Any] = {"confidence": finding.confidence}
    if finding.assumptions:
        props["assumptions"] = [a.to_dict() for a in finding.assumptions]
    if finding.parameter:
        props["parameter"] = finding.parameter
    if finding.jit_site is not None:
        props["jitFunction"] = finding.jit_site.function
    if finding.details:
        props["details"] = list(finding.details)
    if finding.fix:
        props["fix"] = finding.fix
    out["properties"] = props
    return out


_RANKS = {"high": 90.0, "medium": 50.0, "low": 20.0}


def sarif_log(
    findings: Iterable[Finding],
    *,
    rules: Sequence[Rule],
    tool_version: str,
    root: str | os.PathLike[str],
) -> dict[str, Any]:
    """The SARIF log as a dict (see :func:`render_sarif`)."""
    ordered = sorted(findings, key=lambda f: f.sort_key)
    descriptors = [rule_descriptor(r) for r in rules]
    rule_index = {r.code: i for i, r in enumerate(rules)}
    for f in ordered:
        if f.code not in rule_index:
            rule_index[f.code] = len(descriptors)
            descriptors.append(_unknown_rule(f.code))
    root_uri = Path(os.path.abspath(root)).as_uri().rstrip("/") + "/"
    driver: dict[str, Any] = {"name": "retracelint", "version": tool_version}
    if _SEMVER.match(tool_version):
        driver["semanticVersion"] = tool_version
    driver["informationUri"] = INFORMATION_URI
    driver["rules"] = descriptors
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SRCROOT: {"uri": root_uri}},
        "columnKind": "unicodeCodePoints",
        "results": [result(f, rule_index, root) for f in ordered],
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render_sarif(
    findings: Iterable[Finding],
    *,
    rules: Sequence[Rule],
    tool_version: str,
    root: str | os.PathLike[str],
) -> str:
    """SARIF 2.1.0 JSON for GitHub code scanning; ``root`` is the repository root that paths are relative to."""
    log = sarif_log(findings, rules=rules, tool_version=tool_version, root=root)
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
