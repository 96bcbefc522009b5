"""A relevance pre-scan, cheaper than parsing: which files can take part in a call path to a jit site.

A finding needs a jit site, and every function on its call path (and every helper whose result it
uses) is reached through imports, because that is the only way the linker resolves a call across
modules. So a file can matter only if it is connected, through imports in either direction, to a file
that names a jit wrapper. The scan reads each file's text once, picks out its imports and whether it
mentions a wrapper, and keeps the connected components of the import graph that hold such a file;
the rest is never parsed. It errs on the side of keeping: a file it cannot read, or whose imports it
cannot tell, is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from retracelint.discover import ImportLayout, SourceFile
from retracelint.jitspec import TRACING_APIS

_IMPORT = re.compile(
    rb"^[ \t]*from[ \t]+(?P<from>\.*[\w.]*)[ \t]+import[ \t]*"
    rb"(?:\((?P<pnames>[^)]*)\)|(?P<names>(?:[^\n#\\]|\\\r?\n)*))"
    rb"|^[ \t]*import[ \t]+(?P<mods>[\w., \t]+)",
    re.MULTILINE,
)
_COMMENT = re.compile(rb"#[^\n]*")
_NAME_SEPARATORS = re.compile(rb"[,\s\\]+")
_WORD = re.compile(rb"\w+")


def wrapper_tokens(wrappers: Iterable[str]) -> re.Pattern[bytes]:
    """Words that can start a trace site: the last part of each wrapper's name (jit, pmap,
    filter_jit), and the module of the lax control flow that traces where it is called outside jit
    (``lax``: its own names, ``map``, ``cond``, would keep nearly every file)."""
    eager = {name.split(".")[-2] for name, t in TRACING_APIS.items() if t.caches_by_identity}
    words = sorted({name.rpartition(".")[2] for name in wrappers} | eager)
    # No \b in front: the regular expression engine then skips to the bytes a word can start with,
    # twice as fast as trying every position (``names_wrapper`` checks the start instead).
    return re.compile(rb"(?:" + b"|".join(re.escape(w.encode()) for w in words) + rb")\b")


def imported_modules(source: bytes, module: str, is_package: bool) -> set[str]:
    """Every module a file may reach, as dotted names: ``from a import b`` gives ``a`` and ``a.b``;
    ``import a.b`` gives ``a.*`` (the bound name ``a`` reaches every module below it)."""
    out: set[str] = set()
    if b"\r" in source:
        source = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # old Mac line ends too
    for match in _imports(source):
        if match.group("mods") is not None:
            for part in match.group("mods").split(b","):
                name = part.strip().split()[0] if part.strip() else b""
                if name:
                    # `import a.b` binds `a`: any module under `a` can be reached as `a.x.y`.
                    out.add(name.decode("ascii", "replace").split(".")[0] + ".*")
            continue
        base = _absolute(match.group("from").decode("ascii", "replace"), module, is_package)
        if base:
            out.add(base)
        names = match.group("pnames") or match.group("names") or b""
        for part in _NAME_SEPARATORS.split(_COMMENT.sub(b"", names)):
            if part and part != b"as" and _WORD.fullmatch(part):
                name = part.decode("ascii", "replace")
                out.add(f"{base}.{name}" if base else name)
    return out


def _imports(source: bytes) -> Iterator[re.Match[bytes]]:
    """What ``_IMPORT.finditer`` finds, a fifth of the time: tried only at the start of each line
    that holds the word ``import`` (as each match's first line does), not at every position."""
    tried, end = -1, 0  # the line tried last; where the last match ended (matches never overlap)
    at = source.find(b"import")
    while at >= 0:
        line = source.rfind(b"\n", 0, at) + 1
        if line != tried and line >= end:
            tried = line
            match = _IMPORT.match(source, line)
            if match is not None:
                yield match
                end = match.end()
        at = source.find(b"import", at + 6)


def _absolute(target: str, module: str, is_package: bool) -> str:
    level = len(target) - len(target.lstrip("."))
    if not level:
        return target
    parts = module.split(".")
    keep = len(parts) - level + (1 if is_package else 0)
    base = ".".join(parts[: max(keep, 0)])
    rest = target[level:]
    return f"{base}.{rest}" if base and rest else base or rest


def _target(
    name: str, importer: str, by_module: dict[str, str], layout: ImportLayout | None
) -> str | None:
    """The file of the module ``name`` (``a.b.name``: of ``a.b``, whose attribute it is)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        target = by_module.get(layout.module(importer, prefix) if layout else prefix)
        if target is not None:
            return target
    return None


@dataclass(frozen=True)
class Scan:
    """What the pre-scan found in one file's text."""

    names_wrapper: bool  # it names a jit wrapper, so it surely matters
    imports: frozenset[str]  # the modules it may reach (see ``imported_modules``)


def names_wrapper(source: bytes, tokens: re.Pattern[bytes]) -> bool:
    """Whether ``source`` has one of the words of ``tokens`` (``wrapper_tokens``) as a word of its own.
    A match inside a longer word (``unjit``) is skipped: a word found after it, within it, would
    follow a word character too."""
    for match in tokens.finditer(source):
        start = match.start()
        if not start or source[start - 1] not in _WORD_BYTES:
            return True
    return False


_WORD_BYTES = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")  # \w


def scan(source: bytes, module: str, is_package: bool, tokens: re.Pattern[bytes]) -> Scan:
    return Scan(
        names_wrapper(source, tokens), frozenset(imported_modules(source, module, is_package))
    )


def relevant(
    files: list[SourceFile], scans: dict[str, Scan | None], layout: ImportLayout | None = None
) -> set[str]:
    """The paths of the files connected by imports to a file that names a jit wrapper. A file without
    a scan (it could not be read) is kept, so that the summariser reports why. An import names the
    module the linker will resolve it to (``layout``: exp1/run.py's ``import model`` is exp1/model.py,
    not exp2/model.py); without a layout, a dotted name is a module's key."""
    by_module = {f.module: f.path for f in files}
    # `import a.b` reaches every file under `a`: one node for the package `a`, joined to each of its
    # files, stands for an edge to each (on the speed corpus, a million edges to `jax`'s files).
    packages: dict[str, list[str]] = {}  # by the top-level name a plain `import a.b` binds
    for f in files:
        packages.setdefault((f.name or f.module).split(".")[0], []).append(f.path)
    neighbours: dict[str, set[str]] = {f.path: set() for f in files}
    package_nodes: set[str] = set()  # "a.*", never a file's path
    seeds = []
    for file in files:
        found = scans.get(file.path)
        if found is None or found.names_wrapper:
            seeds.append(file.path)
        if found is None:
            continue
        for name in found.imports:
            if name.endswith(".*"):
                members = packages.get(name[:-2])
                if not members:
                    continue
                target: str | None = name
                if name not in package_nodes:
                    package_nodes.add(name)
                    neighbours[name] = set(members)
                    for member in members:
                        neighbours[member].add(name)
            else:
                target = _target(name, file.module, by_module, layout)
            if target is not None and target != file.path:
                neighbours[file.path].add(target)
                neighbours[target].add(file.path)
    keep: set[str] = set()
    stack = seeds
    while stack:
        path = stack.pop()
        if path in keep:
            continue
        keep.add(path)
        stack.extend(neighbours[path] - keep)
    return keep - package_nodes
