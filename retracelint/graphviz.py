"""Pictures of call paths: where the varying value is made, each call it passes through, the jit site.

Mermaid for GitHub (job summaries, issues and Markdown files render it) and Graphviz DOT for everything else.
Both are built from the same small graph so that they always show the same thing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from retracelint.model import Finding, Location

if TYPE_CHECKING:
    from retracelint.callgraph import Project

ORIGIN, CALL, JIT = "origin", "call", "jit"


@dataclass(frozen=True)
class Node:
    function: str
    path: str
    line: int
    kind: str  # ORIGIN, CALL or JIT

    @property
    def label(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{self.function} ({where})" if self.function else where


@dataclass
class CallGraph:
    """Nodes in first-seen order, and labelled edges between node indices."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[tuple[int, int, str]] = field(default_factory=list)
    _index: dict[tuple[str, str, int], int] = field(default_factory=dict)

    def add_node(self, function: str, loc: Location, kind: str, root: str | None) -> int:
        path = _display_path(loc.path, root)
        key = (function, path, loc.line)
        if key in self._index:
            # The same place reached as origin in one finding and as a call in another: keep the first kind,
            # except that a jit site always shows as one.
            idx = self._index[key]
            if kind == JIT and self.nodes[idx].kind != JIT:
                self.nodes[idx] = Node(function, path, loc.line, JIT)
            return idx
        self._index[key] = len(self.nodes)
        self.nodes.append(Node(function, path, loc.line, kind))
        return self._index[key]

    def add_edge(self, src: int, dst: int, label: str) -> None:
        edge = (src, dst, label)
        if src != dst and edge not in self.edges:
            self.edges.append(edge)


def _display_path(path: str, root: str | os.PathLike[str] | None) -> str:
    if root is None:
        return Path(path).as_posix()
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(root))).as_posix()


def build_graph(
    findings: Iterable[Finding], *, root: str | os.PathLike[str] | None = None
) -> CallGraph:
    """One graph for all the findings; places shared by several paths (a jit site) become one node.

    Each node is a place in its own file: a function at the line where it makes the next call, the
    jit site at its def, and the origin (where the varying value is made) at its line, named after
    the function only where that is known (the origin is the call a path starts with). The rule's
    code labels the edge that leaves the origin."""
    graph = CallGraph()
    for finding in findings:
        steps = finding.call_path
        site = finding.jit_site
        origin = finding.made_at
        at_site = site is not None and _same_line(site.location, origin)  # RTL301: the jit itself
        starts_at_origin = bool(steps) and (at_site or _same_line(steps[0].location, origin))
        if starts_at_origin:
            prev = graph.add_node(steps[0].function, steps[0].location, ORIGIN, root)
        elif site is not None and at_site:
            prev = graph.add_node(site.function, site.location, ORIGIN, root)
        else:
            prev = graph.add_node("", origin, ORIGIN, root)
        rule = finding.code
        # call_path[i] is a call made by function i (at its location) to function i+1.
        for i, step in enumerate(steps):
            if i == 0 and starts_at_origin:
                continue
            node = graph.add_node(step.function, step.location, CALL, root)
            graph.add_edge(prev, node, _labelled(rule, steps[i - 1].call if i else ""))
            prev, rule = node, ""
        if site is not None:
            node = graph.add_node(site.function, site.location, JIT, root)
            graph.add_edge(prev, node, _labelled(rule, steps[-1].call if steps else site.name))
    return graph


def _same_line(a: Location, b: Location) -> bool:
    return (a.path, a.line) == (b.path, b.line)


def _labelled(rule: str, call: str) -> str:
    return f"{rule}: {call}" if rule and call else rule or call


# --- Mermaid -----------------------------------------------------------------------------------------------------


def _mermaid_text(text: str) -> str:
    """Escape text for a quoted Mermaid label with Mermaid's entity codes (``#quot;``, ``#35;``...)."""
    text = " ".join(text.split())
    text = text.replace("#", "#35;")  # first: every later replacement introduces a '#'
    for char, code in (
        ('"', "#quot;"),
        ("<", "#lt;"),
        (">", "#gt;"),
        ("`", "#96;"),  # backticks inside quotes switch Mermaid to Markdown strings
        ("|", "#124;"),  # ends an edge label
        ("[", "#91;"),
        ("]", "#93;"),
    ):
        text = text.replace(char, code)
    return text


_MERMAID_CLASSES = (
    "    classDef origin fill:#fde2e1,stroke:#c0392b",
    "    classDef jit fill:#e1ecfd,stroke:#2c5aa0",
)


def _render_mermaid(graph: CallGraph) -> str:
    lines = ["flowchart TD"]
    for i, node in enumerate(graph.nodes):
        suffix = f":::{node.kind}" if node.kind in (ORIGIN, JIT) else ""
        lines.append(f'    n{i}["{_mermaid_text(node.label)}"]{suffix}')
    for src, dst, label in graph.edges:
        if label:
            lines.append(f'    n{src} -->|"{_mermaid_text(label)}"| n{dst}')
        else:
            lines.append(f"    n{src} --> n{dst}")
    lines.extend(_MERMAID_CLASSES)
    return "\n".join(lines) + "\n"


def mermaid(finding: Finding, *, root: str | os.PathLike[str] | None = None) -> str:
    """A Mermaid flowchart of one finding's path: origin → each call → jit site."""
    return _render_mermaid(build_graph([finding], root=root))


def mermaid_all(findings: Iterable[Finding], *, root: str | os.PathLike[str] | None = None) -> str:
    """One Mermaid flowchart with the paths of all the findings, shared places drawn once."""
    return _render_mermaid(build_graph(findings, root=root))


# --- Graphviz DOT ------------------------------------------------------------------------------------------------


def _dot_string(text: str) -> str:
    """A DOT double-quoted string: backslash and quote escaped, line breaks as ``\\n``."""
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{text}"'


_DOT_STYLE = {
    ORIGIN: 'shape=box, style="rounded,filled", fillcolor="#fde2e1", color="#c0392b"',
    CALL: "shape=box, style=rounded",
    JIT: 'shape=box, style="filled,bold", fillcolor="#e1ecfd", color="#2c5aa0"',
}


def dot(findings: Iterable[Finding], *, root: str | os.PathLike[str] | None = None) -> str:
    """A Graphviz digraph of the call paths of all the findings (``dot -Tsvg`` draws it)."""
    graph = build_graph(findings, root=root)
    lines = [
        "digraph retracelint {",
        "    rankdir=TB;",
        '    node [fontname="Helvetica"];',
        '    edge [fontname="Helvetica", fontsize=10];',
    ]
    for i, node in enumerate(graph.nodes):
        lines.append(f"    n{i} [label={_dot_string(node.label)}, {_DOT_STYLE[node.kind]}];")
    for src, dst, label in graph.edges:
        attrs = f" [label={_dot_string(label)}]" if label else ""
        lines.append(f"    n{src} -> n{dst}{attrs};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def call_graph(project: Project) -> dict[str, list[str]]:
    """The whole linked call graph in PyCG's format: each function's qualified name (a module's top
    level by the module's name, nested functions without ``<locals>``) to the functions it calls, in
    the order first called. A call of a jitted function leads to the function it wraps; a call of a
    class to its ``__init__``."""

    def name(qualname: str) -> str:
        return qualname.removesuffix(".<module>").replace(".<locals>", "")

    first: dict[str, dict[str, int]] = {}  # by caller: each callee and the first call of it
    for callee, sites in project.callers.items():
        for caller, index in sites:
            calls = first.setdefault(caller, {})
            calls[callee] = min(index, calls.get(callee, index))
    out: dict[str, list[str]] = {name(q): [] for q in project.functions}
    for caller, calls in first.items():
        out[name(caller)] = [name(c) for c in sorted(calls, key=lambda c: (calls[c], c))]
    return out


def calls_dot(graph: dict[str, list[str]]) -> str:
    """``call_graph``'s graph as a Graphviz digraph: a node per function, an edge per call."""
    lines = ["digraph calls {", "    rankdir=LR;", '    node [fontname="Helvetica", shape=box];']
    lines += [f"    {_dot_string(caller)};" for caller in graph]
    lines += [
        f"    {_dot_string(caller)} -> {_dot_string(callee)};"
        for caller, callees in graph.items()
        for callee in callees
    ]
    lines.append("}")
    return "\n".join(lines) + "\n"
