"""Source-preserving fixes for the findings that have exactly one safe rewrite (``--fix``, ``--diff``).

The analysis runs on ``ast``; a fix needs the file back byte for byte around the change, so it is made with
libcst. libcst and its ``PositionProvider`` cost ten times what ``ast`` does, so they see only files with a
fixable finding, and in those only the top-level statements that hold a fixable call, each parsed on its own
(whole lines, so lines shift by a constant and columns not at all). A finding is matched to the CST by its
exact span: the jit call at ``call_path[0]`` and, inside it, the argument expression at the finding's own
location. Anything that does not match exactly (a stale finding, a form feed that counts columns differently,
a value that reaches the jit call through a helper) is left alone.

- RTL203: a list display passed straight to a static parameter becomes a tuple, a set display a
  ``frozenset({...})``. The call raises at run time as written, so no working code changes behaviour.
- RTL404: an argument passed by position where another call of the same jitted function passes it by keyword
  becomes ``name=value``, when it is the last positional argument and no ``*args`` is in the call (so no
  other argument moves), and when it is static passed either way.

Every rewrite keeps the number of lines; a result whose other lines differ from the input, or whose rewritten
statements do not parse, is thrown away.
"""

from __future__ import annotations

import ast
import bisect
import difflib
import io
import keyword
import re
import sys
import tokenize
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import click

from retracelint.discover import shown
from retracelint.fixes.base import TEXT_LINES, Refusal, Rewrite, Source, ast_span, expressions
from retracelint.fixes.base import apply as apply_rewrites
from retracelint.fixes.registry import CODEMODS
from retracelint.model import Finding, Location, with_related
from retracelint.rules import RULES_BY_CODE
from retracelint.summarise import columns

if TYPE_CHECKING:
    import libcst as cst

# libcst is imported where a file has a fixable finding, not here: importing it costs about 0.3 s.

ARGUMENT_FIXABLE = frozenset({"RTL203", "RTL404"})
# Every code with a fix: the argument rewrites and the whole-file codemods (``registry``).
FIXABLE = ARGUMENT_FIXABLE | frozenset(CODEMODS)
# A group of calls whose style flips is reported one call at a time (the first call that differs), so a fix
# can reveal the next call of the same group; each round re-analyses the project, hence a bound on the
# rounds (the first included).
MAX_ROUNDS = 10

# Physical lines with their endings, as Python counts them (a form feed does not end a line).
_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_Span = tuple[int, int, int, int]
_Rewrite = Callable[["cst.Arg"], "cst.Arg"]


@dataclass(frozen=True)
class FileFix:
    """One file's text before and after its fixes, and the findings they fix."""

    path: str
    before: bytes
    after: bytes
    fixed: tuple[Finding, ...]
    more: bool = False  # what the fixes reveal or leave may be fixed in the next round
    # The other files a fix made here also edits: written with this one or not at all. A file a fix
    # edits without being its finding's file has no findings in ``fixed`` (a finding counts once).
    partners: tuple[str, ...] = ()

    def diff(self) -> str:
        return unified_diff(self.path, self.before, self.after)


@dataclass(frozen=True)
class Outcome:
    """What the CLI goes on with: the findings to report, or an exit code to stop with."""

    findings: list[Finding]
    exit_code: int | None = None
    fixed_stdin: bytes | None = None  # standard input as fixed, printed in its place (as ruff does)
    summary: str = ""  # ruff's lines under the report: "Found 3 errors (2 fixed, 1 remaining)."


# -- one file -----------------------------------------------------------------------------------------------
def fix_source(
    source: bytes, findings: Iterable[Finding], unsafe: bool = False
) -> tuple[bytes, tuple[Finding, ...]]:
    """Apply the fixes of ``findings`` (one file's) to ``source``; the new source and what it fixed.
    ``unsafe``: the unsafe fixes too."""
    result = fix_file(source, findings, unsafe)
    return result.after, result.fixed


@dataclass(frozen=True)
class FileResult:
    after: bytes
    fixed: tuple[Finding, ...]
    refused: tuple[tuple[Finding, str], ...] = ()  # a finding with a fix not made, and why
    more: bool = False  # a whole-file rewrite was made: the next round may fix what it left
    others: tuple[FileFix, ...] = ()  # the same fix's edits of other files


def fix_file(
    source: bytes,
    findings: Iterable[Finding],
    unsafe: bool = False,
    dry: bool = False,
    read: Callable[[str], bytes] | None = None,
    elsewhere: bool = False,
) -> FileResult:
    """The arguments rewritten in place (RTL203, RTL404), then at most one whole-file codemod: it moves
    lines, so the other findings' positions are stale until the file is analysed again (the next
    round of ``--fix``/``--diff``). ``dry``: a codemod's decision is enough, the rewrite is not made
    (what text output marks ``[*]``: libcst on a large file costs seconds). ``read``: the project's
    other files as this run sees them (from disk without it), for a codemod that reads one of them;
    ``elsewhere``: it may edit them too (not when standard input or an editor's buffer is fixed)."""
    findings = list(findings)
    after, fixed = _fix_arguments(source, findings)
    wanted = [f for f in findings if applicable(f, unsafe)]
    if fixed or not wanted:
        # An RTL404 fix can reveal the next call of its group; codemods wait for the next round,
        # when the findings' positions are those of the file as these fixes leave it.
        return FileResult(after, fixed, more=bool(wanted) or any(f.code == "RTL404" for f in fixed))
    try:
        text, encoding, tree = _parsed(source)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, MemoryError, RecursionError):
        return FileResult(source, ())
    refused: list[tuple[Finding, str]] = []
    neighbours = _Neighbours(read or _from_disk)
    for finding in sorted(wanted, key=lambda f: f.sort_key):
        fix = CODEMODS[finding.code]
        rewrite = fix.codemod(Source(text, tree, neighbours, fix.target(finding)), finding)
        if isinstance(rewrite, Refusal):
            refused.append((finding, rewrite.reason))
            continue
        if rewrite.unsafe and not unsafe:
            continue  # hidden: --unsafe-fixes makes it
        if rewrite.elsewhere and not elsewhere:
            others = ", ".join(sorted(rewrite.elsewhere))
            refused.append((finding, f"the fix edits {others} too, which this run does not write"))
            continue
        if dry:
            return FileResult(source, (finding,), tuple(refused))
        new = apply_rewrites(text, [rewrite])
        # a fix made in other files alone (the jitted module, padded where an array enters it)
        # leaves this one as it is
        unchanged = new == text and not (rewrite.elsewhere and _only_elsewhere(rewrite))
        if new is None or unchanged or not _parses(new):
            refused.append((finding, "the rewrite did not apply cleanly"))
            continue
        others = _apply_elsewhere(rewrite, neighbours)
        if isinstance(others, str):
            refused.append((finding, others))
            continue
        try:
            return FileResult(new.encode(encoding), (finding,), tuple(refused), True, others)
        except (UnicodeEncodeError, LookupError):
            return FileResult(source, (), tuple(refused))
    return FileResult(source, (), tuple(refused))


def _only_elsewhere(rewrite: Rewrite) -> bool:
    return not (
        rewrite.replace
        or rewrite.insert_before
        or rewrite.insert_after
        or rewrite.remove
        or rewrite.decorate
        or rewrite.imports
    )


class _Neighbours:
    """The project's other files as codemods read them (``Source``), each read and parsed once; and
    the bytes and encoding each was read with, to write it back."""

    def __init__(self, read: Callable[[str], bytes]):
        self._read = read
        self.files: dict[str, tuple[bytes, str, Source] | None] = {}

    def __call__(self, path: str) -> Source | None:
        if path not in self.files:
            self.files[path] = self._load(path)
        found = self.files[path]
        return found[2] if found is not None else None

    def _load(self, path: str) -> tuple[bytes, str, Source] | None:
        try:
            before = self._read(path)
            text, encoding, tree = _parsed(before)
            return before, encoding, Source(text, tree, path=path)
        except (
            OSError,
            SyntaxError,
            ValueError,
            UnicodeDecodeError,
            LookupError,
            MemoryError,
            RecursionError,
        ):
            return None


def _from_disk(path: str) -> bytes:
    return Path(path).read_bytes()


def _apply_elsewhere(rewrite: Rewrite, neighbours: _Neighbours) -> tuple[FileFix, ...] | str:
    """The rewrite's edits of other files, each made and parsed; the reason the whole fix is refused
    when one cannot be (all or nothing: a caller changed without its callee would not run)."""
    out = []
    for path, other in sorted(rewrite.elsewhere.items()):
        found = neighbours.files.get(path)
        if found is None:
            return f"{path}, which the fix edits too, cannot be read or parsed"
        before, encoding, source = found
        new = apply_rewrites(source.text, [other])
        if new is None or new == source.text or not _parses(new):
            return f"the rewrite of {path} did not apply cleanly"
        try:
            out.append(FileFix(path, before, new.encode(encoding), ()))
        except (UnicodeEncodeError, LookupError):
            return f"{path} cannot be written back in its encoding"
    return tuple(out)


def applicable(finding: Finding, unsafe: bool) -> bool:
    """Whether ``finding`` has a whole-file fix that this run may make."""
    fix = CODEMODS.get(finding.code)
    return fix is not None and (fix.safe or unsafe)


def target_of(finding: Finding) -> str:
    """The file that ``finding``'s fix rewrites."""
    fix = CODEMODS.get(finding.code)
    return fix.target(finding) if fix is not None else finding.location.path


def _fix_arguments(source: bytes, findings: list[Finding]) -> tuple[bytes, tuple[Finding, ...]]:
    """RTL203 and RTL404: one argument of the jit call rewritten in place, every line kept.

    libcst parses only the top-level statements that hold a fixable call, each on its own (whole lines,
    so columns stay as they are): on a 10,000-line module the whole file would cost seconds.
    """
    wanted = [f for f in findings if f.code in ARGUMENT_FIXABLE and len(f.call_path) == 1]
    if not wanted:
        return source, ()
    try:
        text, encoding, tree = _parsed(source)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, MemoryError, RecursionError):
        return source, ()
    lines = TEXT_LINES.findall(text)
    by_block: dict[tuple[int, int], list[Finding]] = {}
    blocks = _blocks(tree)
    for finding in sorted(wanted, key=lambda f: f.sort_key):
        call = finding.call_path[0].location
        block = _block_of(blocks, call)
        if (
            block is not None
            and _line_matches(lines, finding)
            and _may_rewrite(finding, _ast_call(tree, lines, call), tree)
        ):
            by_block.setdefault(block, []).append(finding)
    fixed: list[Finding] = []
    for (first, last), block_findings in by_block.items():
        snippet = "".join(lines[first - 1 : last])
        new_snippet, block_fixed = _fix_snippet(snippet, first - 1, block_findings, tree)
        if block_fixed:
            new_lines = TEXT_LINES.findall(new_snippet)
            if len(new_lines) != last - first + 1 or not _parses(new_snippet):
                continue
            lines[first - 1 : last] = new_lines
            fixed.extend(block_fixed)
    if not fixed:
        return source, ()
    try:
        after = "".join(lines).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return source, ()
    if not _only_lines_changed(source, after, fixed):
        return source, ()
    return after, tuple(sorted(fixed, key=lambda f: f.sort_key))


def _ast_call(tree: ast.Module, lines: list[str], location: Location) -> ast.Call | None:
    """The jit call at ``location`` as ast spans it, where that is libcst's span too: on lines of
    ASCII without a form feed (ast counts bytes, libcst characters, and the two count a form feed
    differently)."""
    if not all(
        line.isascii() and "\f" not in line
        for line in lines[location.line - 1 : max(location.end_line, location.line)]
    ):
        return None
    found = expressions(tree).get(_location_span(location))
    return found if isinstance(found, ast.Call) else None


def _may_rewrite(finding: Finding, call: ast.Call | None, tree: ast.Module) -> bool:
    """False where ast already shows what ``_rewrite_for`` would find in libcst's tree: no rewrite
    (text output asks this of every finding, and libcst costs ten times what ast does). True where
    it may have one, or where ``call`` (the jit call, as ``_ast_call`` finds it) is not known."""
    if finding.code == "RTL404" and finding.fix != RULES_BY_CODE["RTL404"].fix:
        return False
    if call is None:
        return True
    want = _location_span(finding.location)
    starred = any(isinstance(a, ast.Starred) for a in call.args)
    for index, arg in enumerate(call.args):
        if ast_span(arg.value if isinstance(arg, ast.Starred) else arg) != want:
            continue
        if isinstance(arg, ast.Starred):
            return False
        if finding.code == "RTL203":
            return _display_may_be_hashable(arg, tree)
        # RTL404 (``_by_keyword``): the last positional argument, no *args, the name not passed
        last = index == len(call.args) - 1
        return last and not starred and all(k.arg != finding.parameter for k in call.keywords)
    for keyword_arg in call.keywords:
        if ast_span(keyword_arg.value) == want:
            # already by keyword (RTL404), or ``**`` (RTL203)
            is_named = keyword_arg.arg is not None
            return (
                finding.code == "RTL203"
                and is_named
                and _display_may_be_hashable(keyword_arg.value, tree)
            )
    return True


def _display_may_be_hashable(value: ast.expr, tree: ast.Module) -> bool:
    """``_hashable_display``'s test as far as ast sees it: a list display, or a set display where
    ``frozenset`` is the builtin."""
    return isinstance(value, ast.List) or (
        isinstance(value, ast.Set) and not _may_shadow_frozenset(tree)
    )


def _fix_snippet(
    snippet: str, offset: int, findings: list[Finding], tree: ast.Module
) -> tuple[str, list[Finding]]:
    """Fix ``findings`` in ``snippet``, whole lines of the file starting after line ``offset``."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        module = cst.parse_module(snippet)
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    except Exception:  # libcst cannot read everything ast can (newer syntax): no fix here
        return snippet, []
    calls = {_span(r, offset): node for node, r in positions.items() if isinstance(node, cst.Call)}
    rewrites: dict[int, list[_Rewrite]] = {}
    fixed: list[Finding] = []
    for finding in findings:
        located = _locate(finding, calls, positions, offset)
        if located is None:
            continue
        call, arg = located
        rewrite = _rewrite_for(finding, call, arg, tree)
        if rewrite is None:
            continue
        rewrites.setdefault(id(arg), []).append(rewrite)
        fixed.append(finding)
    if not fixed:
        return snippet, []
    try:
        return module.visit(_arg_fixer(rewrites)).code, fixed
    except Exception:
        return snippet, []


def _decode(source: bytes) -> tuple[str, str]:
    """The text, decoded as Python does (BOM, PEP 263 cookie), and the encoding that writes it back."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    return source.decode(encoding), encoding


@lru_cache(maxsize=8)
def _parsed(source: bytes) -> tuple[str, str, ast.Module]:
    """``source`` decoded and parsed once for all its findings (text output tries each finding's fix
    on its own): the text, the encoding that writes it back, and the tree, which nothing changes."""
    text, encoding = _decode(source)
    return text, encoding, columns.parse(text)


def _blocks(tree: ast.Module) -> list[tuple[int, int]]:
    """The line ranges of the top-level statements, decorators included; statements sharing a line
    (``a = f(\n1); b = 2``) are one range, so that each range parses on its own."""
    out: list[tuple[int, int]] = []
    for stmt in tree.body:
        decorators = getattr(stmt, "decorator_list", ())
        first = min([stmt.lineno, *(d.lineno for d in decorators)])
        last = stmt.end_lineno or stmt.lineno
        if out and first <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _block_of(blocks: list[tuple[int, int]], location: Location) -> tuple[int, int] | None:
    index = bisect.bisect_right(blocks, (location.line, sys.maxsize)) - 1
    if index >= 0:
        first, last = blocks[index]
        if first <= location.line and max(location.end_line, location.line) <= last:
            return blocks[index]
    return None


def _line_matches(lines: list[str], finding: Finding) -> bool:
    expected = finding.source_line
    index = finding.location.line - 1
    return not expected or (0 <= index < len(lines) and _bare(lines[index]) == expected)


def _bare(line: str) -> str:
    return line[:-2] if line.endswith("\r\n") else line.rstrip("\r\n")


def _span(code_range: object, offset: int) -> _Span:
    """A libcst range as retracelint spans it: 1-based lines (in the file), 1-based columns, exclusive
    end."""
    start, end = code_range.start, code_range.end  # type: ignore[attr-defined]
    return (start.line + offset, start.column + 1, end.line + offset, end.column + 1)


def _location_span(location: Location) -> _Span:
    return (location.line, location.col, location.end_line, location.end_col)


def _locate(
    finding: Finding, calls: dict[_Span, cst.Call], positions: Mapping, offset: int
) -> tuple[cst.Call, cst.Arg] | None:
    """The jit call and the argument whose value is exactly the finding's span, if the finding was made
    at the jit call itself (not through a helper's parameter)."""
    call_location = finding.call_path[0].location
    if call_location.path != finding.location.path:
        return None
    call = calls.get(_location_span(call_location))
    if call is None:
        return None
    want = _location_span(finding.location)
    for arg in call.args:
        if want in _value_spans(arg.value, positions, offset):
            return call, arg
    return None


def _value_spans(value: cst.BaseExpression, positions: Mapping, offset: int) -> tuple[_Span, ...]:
    """The spans ast may give ``value``: without its parentheses, or, for a tuple or a generator, with
    the innermost pair (ast counts those as part of the expression)."""
    own = positions.get(value)
    if own is None:
        return ()
    spans = [_span(own, offset)]
    if value.lpar and value.rpar:
        start, end = positions.get(value.lpar[-1]), positions.get(value.rpar[0])
        if start is not None and end is not None:
            spans.append((*_span(start, offset)[:2], *_span(end, offset)[2:]))
    return tuple(spans)


def _rewrite_for(
    finding: Finding, call: cst.Call, arg: cst.Arg, tree: ast.Module
) -> _Rewrite | None:
    if finding.code == "RTL203":
        return _hashable_display(arg, tree)
    if finding.code == "RTL404" and finding.fix == RULES_BY_CODE["RTL404"].fix:
        # Any other hint is for an argument static passed one way and traced the other: passing it
        # by keyword would change what it is, not only how jax keys its cache.
        return _by_keyword(call, arg, finding.parameter)
    return None


# -- RTL203: list display → tuple, set display → frozenset ------------------------------------------------
def _hashable_display(arg: cst.Arg, tree: ast.Module) -> _Rewrite | None:
    import libcst as cst

    if arg.star:
        return None
    if isinstance(arg.value, cst.List):
        if any(_unhashable_display(e.value) for e in arg.value.elements):
            return None  # ([0], 1) would raise just the same, and hide the finding
        return lambda a: a.with_changes(value=_as_tuple(a.value))  # type: ignore[arg-type]
    if isinstance(arg.value, cst.Set) and not _may_shadow_frozenset(tree):
        return lambda a: a.with_changes(value=_as_frozenset(a.value))  # type: ignore[arg-type]
    return None


def _unhashable_display(node: cst.BaseExpression) -> bool:
    import libcst as cst

    if isinstance(node, cst.Tuple):
        return any(_unhashable_display(e.value) for e in node.elements)
    return isinstance(node, (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp))


def _as_tuple(node: cst.List) -> cst.Tuple:
    import libcst as cst

    elements = list(node.elements)
    if len(elements) == 1 and elements[0].comma is cst.MaybeSentinel.DEFAULT:
        # (a,): a tuple of one needs its comma
        elements[0] = elements[0].with_changes(comma=cst.Comma())
    # The brackets become the innermost pair of parentheses; parentheses around the list stay outside.
    return cst.Tuple(
        elements=elements,
        lpar=[*node.lpar, cst.LeftParen(whitespace_after=node.lbracket.whitespace_after)],
        rpar=[cst.RightParen(whitespace_before=node.rbracket.whitespace_before), *node.rpar],
    )


def _as_frozenset(node: cst.Set) -> cst.Call:
    import libcst as cst

    inner = node.with_changes(lpar=[], rpar=[])
    return cst.Call(
        func=cst.Name("frozenset"), args=[cst.Arg(value=inner)], lpar=node.lpar, rpar=node.rpar
    )


@lru_cache(maxsize=4)
def _may_shadow_frozenset(tree: ast.Module) -> bool:
    """Whether ``frozenset`` might not be the builtin in this module (bound here, or a star import)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name) == "frozenset":
            return True
        if (
            isinstance(node, ast.Name)
            and node.id == "frozenset"
            and not isinstance(node.ctx, ast.Load)
        ):
            return True
        defines = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        if isinstance(node, defines) and node.name == "frozenset":
            return True
        if isinstance(node, ast.arg) and node.arg == "frozenset":
            return True
        binds = (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)
        if isinstance(node, binds) and node.name == "frozenset":
            return True
        if isinstance(node, ast.MatchMapping) and node.rest == "frozenset":
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and "frozenset" in node.names:
            return True
    return False


# -- RTL404: positional → keyword -------------------------------------------------------------------------
def _by_keyword(call: cst.Call, arg: cst.Arg, name: str | None) -> _Rewrite | None:
    import libcst as cst

    if not name or not name.isidentifier() or keyword.iskeyword(name):
        return None
    if arg.keyword is not None or arg.star:
        return None
    index = next(i for i, a in enumerate(call.args) if a is arg)
    if any(a.star == "*" for a in call.args):
        return None  # how many values *args holds is unknown: the argument's position is too
    if any(a.keyword is None and not a.star for a in call.args[index + 1 :]):
        return None  # a later positional argument would move into this one's place
    if any(a.keyword is not None and a.keyword.value == name for a in call.args):
        return None
    equal = cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )
    return lambda a: a.with_changes(keyword=cst.Name(name), equal=equal)


def _arg_fixer(rewrites: dict[int, list[_Rewrite]]) -> cst.CSTTransformer:
    """A transformer applying each located argument's rewrites. The arguments are known by identity,
    found beforehand with positions resolved once on the unchanged module."""
    import libcst as cst

    class ArgFixer(cst.CSTTransformer):
        def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
            for rewrite in rewrites.get(id(original_node), ()):
                updated_node = rewrite(updated_node)
            return updated_node

    return ArgFixer()


# -- guards -----------------------------------------------------------------------------------------------
def _only_lines_changed(before: bytes, after: bytes, fixed: Sequence[Finding]) -> bool:
    """The rewrites keep every line where it was; only the lines of the fixed calls may differ."""
    old, new = _LINES.findall(before), _LINES.findall(after)
    if len(old) != len(new):
        return False
    allowed: set[int] = set()
    for finding in fixed:
        call = finding.call_path[0].location
        allowed.update(range(call.line, max(call.end_line, call.line) + 1))
    return all(a == b or i in allowed for i, (a, b) in enumerate(zip(old, new, strict=True), 1))


def _parses(text: str) -> bool:
    """Whether ``text`` (whole top-level statements: the rest of the file is unchanged) parses."""
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


# -- many files -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """One round's fixes: a ``FileFix`` per file that changes, in path order; the findings whose fix
    was not made, with why; and the files whose fix waits for the next round because it edits a file
    another fix of this round edits (each is made from the file as read)."""

    fixes: list[FileFix]
    refused: list[tuple[Finding, str]]
    waiting: frozenset[str] = frozenset()


# ``verify(path, source)``: the findings of the project with ``path`` holding ``source``, in memory;
# None where this run cannot analyse that file so (standard input holds the one in-memory file).
Verify = Callable[[str, bytes], "list[Finding] | None"]


def checked_fix(
    source: bytes,
    findings: Sequence[Finding],
    path: str,
    unsafe: bool = False,
    read: Callable[[str], bytes] | None = None,
    elsewhere: bool = False,
    verify: Verify | None = None,
    known: Sequence[Finding] = (),
) -> FileResult:
    """``fix_file``, with the fixed text analysed again (``verify``): a codemod that leaves its
    re-trace reported (``_left``; ``known``: every finding of the run before the fix, ``findings``
    where none are given) is refused, naming the finding that says so (ruff drops a fix that leaves
    its error), and the next finding's fix is tried. RTL203/RTL404 rewrite the very argument the
    rule names, and a fix that edits other files too is made only with them, so neither is
    analysed again here."""
    left, refused = list(findings), []
    while True:
        result = fix_file(source, left, unsafe, read=read, elsewhere=elsewhere)
        result = replace(result, refused=(*refused, *result.refused))
        fixed = [f for f in result.fixed if f.code not in ARGUMENT_FIXABLE]
        if verify is None or not fixed or result.others:
            return result
        again = verify(path, result.after)
        kept = _left(fixed[0], known or findings, again or ())
        if kept is None:
            return result
        loc = kept.made_at
        reason = f"the fix would still re-trace: {loc.path}:{loc.line}:{loc.col}: {kept.message}"
        refused = [*result.refused, (fixed[0], reason)]
        left = [f for f in left if f is not fixed[0]]


def _cause(finding: Finding) -> tuple[str, str, str]:
    """What a re-trace is, wherever a fix moves its lines: the file it is made in, the jitted
    function and its parameter. Not the flagged line's text, which most fixes rewrite, nor the
    rule: a static tuple made traced whose length still changes is RTL105's then."""
    site = finding.jit_site
    function = site.function if site is not None else ""
    return finding.made_at.path, function, finding.parameter or ""


def _left(fixed: Finding, before: Sequence[Finding], after: Iterable[Finding]) -> Finding | None:
    """A finding of the fixed text that shows ``fixed``'s re-trace left: the fixed text reports its
    cause as often as the text before did (a jit called from two loops, one fixed, is reported once
    less), and as unbounded (an object made once per object instead of per iteration, still
    reported per call of the method, re-traces a bounded number of times where it grew with the
    loop: the fix is made, and what is left reported); None otherwise."""
    cause = _cause(fixed)
    was = [f for f in _each(before) if _cause(f) == cause]
    still = [f for f in _each(after) if _cause(f) == cause]
    if len(still) < len(was) or not still:
        return None
    return next((f for f in still if f.grows or not fixed.grows), None)


def _each(findings: Iterable[Finding]) -> list[Finding]:
    """The findings and those they tell, each once (``plan`` hands them on told already)."""
    return list({id(f): f for f in with_related(findings)}.values())


def plan(
    findings: Iterable[Finding],
    read: Callable[[str], bytes],
    unsafe: bool = False,
    elsewhere: bool = True,
    verify: Verify | None = None,
    known: Iterable[Finding] | None = None,
) -> Plan:
    """The fixes for ``findings``, grouped by the file each finding's fix starts from. ``elsewhere``:
    a fix may edit other files than the one it starts from (not when standard input is fixed: ruff
    writes nothing then); ``verify``: each fix checked by analysing its text again (``checked_fix``,
    against ``known``, the run's findings, where ``findings`` are some of them)."""
    by_path: dict[str, list[Finding]] = {}
    findings = with_related(findings)
    everything = findings if known is None else with_related(known)
    for finding in findings:
        if finding.code in ARGUMENT_FIXABLE or applicable(finding, unsafe):
            by_path.setdefault(target_of(finding), []).append(finding)
    results: dict[str, tuple[bytes, FileResult]] = {}
    refused = []
    for path in sorted(by_path):
        try:
            before = read(path)
        except OSError:
            continue
        result = checked_fix(
            before, by_path[path], path, unsafe, read, elsewhere, verify, known=everything
        )
        refused.extend(result.refused)
        if result.fixed:
            results[path] = (before, result)
    out: list[FileFix] = []
    waiting = set()
    # The one-file fixes first: a fix that edits several files waits when one of them is taken.
    taken = {path for path, (_, result) in results.items() if not result.others}
    for path, (before, result) in sorted(results.items(), key=lambda r: bool(r[1][1].others)):
        group = {path} | {o.path for o in result.others}
        if result.others and group & taken:
            waiting.add(path)
            continue
        taken |= group
        fixes = [FileFix(path, before, result.after, result.fixed, result.more), *result.others]
        out.extend(replace(f, partners=tuple(sorted(group - {f.path}))) for f in fixes)
    return Plan(sorted(out, key=lambda f: f.path), refused, frozenset(waiting))


def unified_diff(path: str, before: bytes, after: bytes) -> str:
    """A ``git apply``/``patch -p1`` diff; line endings are kept as they are in the file."""
    old = TEXT_LINES.findall(_decode(before)[0])
    new = TEXT_LINES.findall(_decode(after)[0])
    name = Path(path).as_posix()
    out = []
    for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


def settle(
    fixes: list[FileFix],
    reanalyse: Callable[[str, bytes], list[Finding]],
    unsafe: bool = False,
) -> list[FileFix]:
    """Fix again, in memory, what the fixes reveal or left for the next round (``--diff``; ``--fix``
    does the same on disk): after an RTL404 fix the next call of the group may be the one that
    differs, and a file gets one whole-file rewrite a round.

    ``reanalyse(path, source)`` gives the findings of the project with ``path`` holding ``source``;
    each file is settled on its own, so one that a fix edits with another file is not (its next
    round, which ``--fix`` makes, would need both in memory).
    """
    out = []
    for fix in fixes:
        after, fixed, more = fix.after, list(fix.fixed), fix.more and not fix.partners
        for _ in range(MAX_ROUNDS - 1):  # the first round was the plan that made ``fix``
            if not more:
                break
            known = reanalyse(fix.path, after)
            found = [f for f in known if target_of(f) == fix.path]
            result = checked_fix(after, found, fix.path, unsafe, verify=reanalyse, known=known)
            after, more = result.after, result.more and bool(result.fixed)
            fixed.extend(result.fixed)
        out.append(replace(fix, after=after, fixed=tuple(fixed), more=False))
    return out


def write(fixes: Iterable[FileFix]) -> list[FileFix]:
    """Write each fixed file, unless it (or a file its fix edits with it) changed since it was read;
    the fixes written."""
    fixes = list(fixes)
    stale = {f.path for f in fixes if not _unchanged(f)}
    done = []
    for fix in fixes:
        if stale & {fix.path, *fix.partners}:
            continue
        try:
            Path(fix.path).write_bytes(fix.after)  # in place: keeps the mode, links and owner
        except OSError as exc:
            click.echo(f"retracelint: cannot write {fix.path}: {exc.strerror or exc}", err=True)
            continue
        done.append(fix)
    return done


def _unchanged(fix: FileFix) -> bool:
    """Whether ``fix``'s file is still as the fix read it; says why not when it is not."""
    try:
        if Path(fix.path).read_bytes() == fix.before:
            return True
        click.echo(f"retracelint: {fix.path} changed while it was fixed; left alone", err=True)
    except OSError as exc:
        click.echo(f"retracelint: cannot write {fix.path}: {exc.strerror or exc}", err=True)
    return False


# -- the command line ---------------------------------------------------------------------------------------
def fix_or_diff(
    findings: list[Finding],
    analyse: Callable[[bytes | None, str], list[Finding]],
    options: dict[str, object],
    stdin: bytes | None,
    stdin_filename: str,
) -> Outcome:
    """``check --diff``: print the diff and stop (1 when there is one). ``check --fix``: write the fixes
    and go on with the findings a new analysis still reports. ``analyse(source, name)`` is the check's
    own analysis, with the file ``name`` read as ``source``. Standard input is fixed in memory, never
    written: the outcome carries it fixed, for the CLI to print as ruff does."""
    stdin_path = shown(stdin_filename) if stdin is not None else None
    piped = [stdin]  # standard input as the fixes so far leave it

    def read(path: str) -> bytes:
        if path == stdin_path:
            return piped[0]  # type: ignore[return-value]
        return Path(path).read_bytes()

    def apply(fixes: list[FileFix]) -> list[FileFix]:
        """The fixes done: files written, standard input's kept in memory."""
        for fix in fixes:
            if fix.path == stdin_path:
                piped[0] = fix.after
        return [f for f in fixes if f.path == stdin_path] + write(
            f for f in fixes if f.path != stdin_path
        )

    def filtered(found: list[Finding]) -> list[Finding]:
        if not options.get("baseline"):
            return found
        from retracelint.baseline import load_baseline

        return load_baseline(options["baseline"]).filter(found)  # type: ignore[arg-type]

    def reanalyse(path: str, source: bytes) -> list[Finding]:
        return filtered(analyse(source, path))

    def verify(path: str, source: bytes) -> list[Finding] | None:
        # standard input is the one file an analysis holds in memory: another file waits for its turn
        if stdin is not None and path != stdin_path:
            return None
        return reanalyse(path, source)

    unsafe = bool(options.get("unsafe_fixes"))
    first = plan(findings, read, unsafe, elsewhere=stdin is None, verify=verify)
    fixes, refused = first.fixes, first.refused
    if options.get("diff"):
        if stdin is None:  # the one in-memory file of an analysis is taken by standard input
            fixes = settle(fixes, reanalyse, unsafe)
        click.echo("".join(f.diff() for f in fixes), nl=False)
        _tell_refused(refused)
        count = sum(len(f.fixed) for f in fixes)
        hidden = 0 if unsafe else availability(findings, read, elsewhere=stdin is None).hidden
        if count:
            click.echo(f"Would fix {_errors(count)}{_hidden(hidden, ' (', ')')}.", err=True)
        else:
            click.echo(f"No errors would be fixed{_hidden(hidden, ' (', ')')}.", err=True)
        return Outcome(findings, 1 if fixes else 0)
    # Written, then analysed again: the analysis that shows what remains also shows what the fixes
    # revealed (the next call of an RTL404 group) or left (a file's second whole-file rewrite),
    # fixed in the next round.
    done: list[FileFix] = []
    fixes, waiting = apply(fixes), first.waiting
    for round_number in range(1, MAX_ROUNDS + 1):
        if not fixes:
            break
        done.extend(fixes)
        findings = filtered(analyse(piped[0], stdin_filename))
        again = {f.path for f in fixes if f.more} | waiting
        if round_number < MAX_ROUNDS:
            wanted = (f for f in findings if target_of(f) in again)
            then = plan(wanted, read, unsafe, stdin is None, verify, known=findings)
            refused.extend(then.refused)
            fixes, waiting = apply(then.fixes), then.waiting
    _tell_refused(refused, still=findings)
    count = sum(len(f.fixed) for f in done)
    lines = []
    if count or findings:
        total = count + len(findings)
        lines.append(f"Found {_errors(total)} ({count} fixed, {len(findings)} remaining).")
    hidden = 0 if unsafe else availability(findings, read, elsewhere=stdin is None).hidden
    if hidden:
        lines.append(f"No fixes available{_hidden(hidden, ' (', ')')}.")
    return Outcome(findings, fixed_stdin=piped[0], summary="\n".join(lines))


def _tell_refused(refused: list[tuple[Finding, str]], still: list[Finding] | None = None) -> None:
    """Why a fix was not made, one line each (once per finding: a later round may say it again)."""
    shown_lines = set()
    keys = None if still is None else {f.sort_key for f in still}
    for finding, reason in sorted(refused, key=lambda r: r[0].sort_key):
        loc = finding.location
        line = f"retracelint: {loc.path}:{loc.line}:{loc.col}: {finding.code} not fixed: {reason}"
        if line not in shown_lines and (keys is None or finding.sort_key in keys):
            shown_lines.add(line)
            click.echo(line, err=True)


def _errors(count: int) -> str:
    return f"{count} error{'s' if count != 1 else ''}"


def _hidden(hidden: int, before: str = "", after: str = "") -> str:
    if not hidden:
        return ""
    fixes = f"{hidden} hidden fix{'es' if hidden != 1 else ''}"
    return f"{before}{fixes} can be enabled with the `--unsafe-fixes` option{after}"


def fixes_summary(total: int, found: Availability) -> str:
    """ruff's lines under a report: ``Found 3 errors.`` and what ``--fix`` would fix, when anything."""
    if not found.fixable and not found.hidden:
        return ""
    hint = _hidden(found.hidden, " (", ")")
    if found.fixable:
        line = f"[*] {len(found.fixable)} fixable with the `--fix` option{hint}."
    else:
        line = f"No fixes available{hint}."
    return f"Found {_errors(total)}.\n{line}"


@dataclass(frozen=True)
class Availability:
    """Which findings have a fix this run makes (marked ``[*]``), and how many more only
    ``--unsafe-fixes`` would make."""

    fixable: frozenset[int]  # ids of the findings
    hidden: int


def availability(
    findings: Sequence[Finding],
    read: Callable[[str], bytes],
    unsafe: bool = False,
    elsewhere: bool = True,
) -> Availability:
    """Each finding's fix tried on its own (as an editor's quick fix makes it); ``elsewhere`` as
    ``plan`` takes it."""
    texts: dict[str, bytes | None] = {}
    fixable, hidden = set(), 0
    # A finding that tells others of its re-trace is marked when one of theirs can be fixed.
    for told, finding in ((f, one) for f in findings for one in (f, *f.related)):
        if finding.code not in FIXABLE:
            continue
        path = target_of(finding)
        if path not in texts:
            try:
                texts[path] = read(path)
            except OSError:
                texts[path] = None
        source = texts[path]
        if source is None or not fix_file(source, [finding], True, True, read, elsewhere).fixed:
            continue
        if unsafe or fix_file(source, [finding], dry=True, read=read, elsewhere=elsewhere).fixed:
            fixable.add(id(told))
        else:
            hidden += 1
    return Availability(frozenset(fixable), hidden)
