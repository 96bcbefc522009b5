"""Source-preserving fixes for the findings that have exactly one safe rewrite (``--fix``, ``--diff``).

The analysis runs on ``ast``; a fix needs the file back byte for byte around the change, so this module
parses with libcst, and only the files that hold a fixable finding: libcst and its ``PositionProvider``
cost ten times what ``ast`` does. A finding is matched to the CST by its exact span: the jit call at
``call_path[0]`` and, inside it, the argument expression at the finding's own location. Anything that does
not match exactly (a stale finding, a form feed that counts columns differently, a value that reaches the jit
call through a helper) is left alone: a fix that cannot be located precisely is not applied.

- RTL203: a list display passed straight to a static parameter becomes a tuple, a set display a
  ``frozenset({...})``. The call raises at run time as written, so no working code changes behaviour.
- RTL404: an argument passed by position where another call of the same jitted function passes it by keyword
  becomes ``name=value``, when it is the last positional argument and no ``*args`` is in the call (so no
  other argument moves).

Every rewrite keeps the number of lines, and a result whose other lines differ from the input or that does
not parse is thrown away.
"""

from __future__ import annotations

import ast
import difflib
import keyword
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click
import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from retracelint.config import Settings
from retracelint.model import Finding, Location

FIXABLE = frozenset({"RTL203", "RTL404"})
# A group of calls whose style flips is reported one call at a time (the first call that differs), so a fix
# can reveal the next call of the same group; each round re-analyses the project, hence a bound.
MAX_ROUNDS = 10

# Physical lines with their endings, as Python counts them (a form feed does not end a line).
_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_TEXT_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_Span = tuple[int, int, int, int]
_Rewrite = Callable[[cst.Arg], cst.Arg]
_UNHASHABLE_DISPLAYS = (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp)


@dataclass(frozen=True)
class FileFix:
    """One file's text before and after its fixes, and the findings they fix."""

    path: str
    before: bytes
    after: bytes
    fixed: tuple[Finding, ...]

    def diff(self) -> str:
        return unified_diff(self.path, self.before, self.after)


@dataclass(frozen=True)
class Outcome:
    """What the CLI goes on with: the findings to report, or an exit code to stop with."""

    findings: list[Finding]
    exit_code: int | None = None


# -- one file -----------------------------------------------------------------------------------------------
def fix_source(source: bytes, findings: Iterable[Finding]) -> tuple[bytes, tuple[Finding, ...]]:
    """Apply the fixes of ``findings`` (one file's) to ``source``; the new source and what it fixed."""
    wanted = sorted((f for f in findings if f.code in FIXABLE), key=lambda f: f.sort_key)
    if not wanted:
        return source, ()
    try:
        text = _decode(source)
        module = cst.parse_module(source)
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    except Exception:  # libcst cannot read every file ast can (or the file is not Python): no fix
        return source, ()
    lines = _text_lines(text)
    calls = {_span(r): node for node, r in positions.items() if isinstance(node, cst.Call)}
    rewrites: dict[int, list[_Rewrite]] = {}
    fixed: list[Finding] = []
    for finding in wanted:
        if not _line_matches(lines, finding):
            continue  # the file changed since it was analysed
        located = _locate(finding, calls, positions)
        if located is None:
            continue
        call, arg = located
        rewrite = _rewrite_for(finding, call, arg, text)
        if rewrite is None:
            continue
        rewrites.setdefault(id(arg), []).append(rewrite)
        fixed.append(finding)
    if not fixed:
        return source, ()
    try:
        after = module.visit(_ArgFixer(rewrites)).bytes
    except Exception:
        return source, ()
    if not _only_lines_changed(source, after, fixed) or not _parses(after):
        return source, ()
    return after, tuple(fixed)


def _decode(source: bytes) -> str:
    from retracelint.summarise import module_text

    return module_text(source)


def _text_lines(text: str) -> list[str]:
    from retracelint.summarise import source_lines

    return source_lines(text)


def _line_matches(lines: list[str], finding: Finding) -> bool:
    expected = finding.source_line
    index = finding.location.line - 1
    return not expected or (0 <= index < len(lines) and lines[index] == expected)


def _span(code_range: object) -> _Span:
    """A libcst range as retracelint spans it: 1-based lines, 1-based columns, exclusive end."""
    start, end = code_range.start, code_range.end  # type: ignore[attr-defined]
    return (start.line, start.column + 1, end.line, end.column + 1)


def _location_span(location: Location) -> _Span:
    return (location.line, location.col, location.end_line, location.end_col)


def _locate(
    finding: Finding, calls: dict[_Span, cst.Call], positions: object
) -> tuple[cst.Call, cst.Arg] | None:
    """The jit call and the argument whose value is exactly the finding's span, if the finding was made
    at the jit call itself (not through a helper's parameter)."""
    if len(finding.call_path) != 1:
        return None
    call_location = finding.call_path[0].location
    if call_location.path != finding.location.path:
        return None
    call = calls.get(_location_span(call_location))
    if call is None:
        return None
    want = _location_span(finding.location)
    for arg in call.args:
        code_range = positions.get(arg.value)  # type: ignore[attr-defined]
        if code_range is not None and _span(code_range) == want:
            return call, arg
    return None


def _rewrite_for(finding: Finding, call: cst.Call, arg: cst.Arg, text: str) -> _Rewrite | None:
    if finding.code == "RTL203":
        return _hashable_display(arg, text)
    if finding.code == "RTL404":
        return _by_keyword(call, arg, finding.parameter)
    return None


# -- RTL203: list display → tuple, set display → frozenset ------------------------------------------------
def _hashable_display(arg: cst.Arg, text: str) -> _Rewrite | None:
    if arg.star:
        return None
    if isinstance(arg.value, cst.List):
        if any(_unhashable_display(e.value) for e in arg.value.elements):
            return None  # ([0], 1) would raise just the same, and hide the finding
        return lambda a: a.with_changes(value=_as_tuple(a.value))  # type: ignore[arg-type]
    if isinstance(arg.value, cst.Set) and not _may_shadow_frozenset(text):
        return lambda a: a.with_changes(value=_as_frozenset(a.value))  # type: ignore[arg-type]
    return None


def _unhashable_display(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Tuple):
        return any(_unhashable_display(e.value) for e in node.elements)
    return isinstance(node, _UNHASHABLE_DISPLAYS)


def _as_tuple(node: cst.List) -> cst.Tuple:
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
    inner = node.with_changes(lpar=[], rpar=[])
    return cst.Call(
        func=cst.Name("frozenset"), args=[cst.Arg(value=inner)], lpar=node.lpar, rpar=node.rpar
    )


def _may_shadow_frozenset(text: str) -> bool:
    """Whether ``frozenset`` might not be the builtin in this module (bound here, or a star import)."""
    if "frozenset" not in text and "import *" not in text:
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return True
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
        if isinstance(node, (ast.Global, ast.Nonlocal)) and "frozenset" in node.names:
            return True
    return False


# -- RTL404: positional → keyword -------------------------------------------------------------------------
def _by_keyword(call: cst.Call, arg: cst.Arg, name: str | None) -> _Rewrite | None:
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


class _ArgFixer(cst.CSTTransformer):
    """Applies each located argument's rewrites; the arguments are known by identity, found beforehand
    with positions resolved once on the unchanged module."""

    def __init__(self, rewrites: dict[int, list[_Rewrite]]) -> None:
        super().__init__()
        self.rewrites = rewrites

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        for rewrite in self.rewrites.get(id(original_node), ()):
            updated_node = rewrite(updated_node)
        return updated_node


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


def _parses(source: bytes) -> bool:
    try:
        ast.parse(_decode(source))
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, MemoryError, RecursionError):
        return False
    return True


# -- many files -----------------------------------------------------------------------------------------
def plan(findings: Iterable[Finding], read: Callable[[str], bytes]) -> list[FileFix]:
    """The fixes for ``findings``, one ``FileFix`` per file that changes, in path order."""
    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.code in FIXABLE:
            by_path.setdefault(finding.location.path, []).append(finding)
    out = []
    for path in sorted(by_path):
        try:
            before = read(path)
        except OSError:
            continue
        after, fixed = fix_source(before, by_path[path])
        if fixed:
            out.append(FileFix(path, before, after, fixed))
    return out


def unified_diff(path: str, before: bytes, after: bytes) -> str:
    """A ``git apply``/``patch -p1`` diff; line endings are kept as they are in the file."""
    old = _TEXT_LINES.findall(_decode(before))
    new = _TEXT_LINES.findall(_decode(after))
    name = Path(path).as_posix()
    out = []
    for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


def settle(fixes: list[FileFix], reanalyse: Callable[[str, bytes], list[Finding]]) -> list[FileFix]:
    """Fix again what the fixes reveal: after an RTL404 fix the next call of the group may differ.

    ``reanalyse(path, source)`` gives the findings of the project with ``path`` holding ``source``.
    Only RTL404 groups reveal more (RTL203 is reported at every call), so only those files are re-checked.
    """
    out = []
    for fix in fixes:
        after, fixed = fix.after, list(fix.fixed)
        if any(f.code == "RTL404" for f in fixed):
            for _ in range(MAX_ROUNDS):
                found = [f for f in reanalyse(fix.path, after) if f.location.path == fix.path]
                after, more = fix_source(after, found)
                if not more:
                    break
                fixed.extend(more)
        out.append(FileFix(fix.path, fix.before, after, tuple(fixed)))
    return out


def write(fixes: Iterable[FileFix]) -> list[FileFix]:
    """Write each fixed file, unless it changed since it was read; the fixes written."""
    done = []
    for fix in fixes:
        try:
            if Path(fix.path).read_bytes() != fix.before:
                click.echo(
                    f"retracelint: {fix.path} changed while it was fixed; left alone", err=True
                )
                continue
            Path(fix.path).write_bytes(fix.after)  # in place: keeps the mode, links and owner
        except OSError as exc:
            click.echo(f"retracelint: cannot write {fix.path}: {exc.strerror or exc}", err=True)
            continue
        done.append(fix)
    return done


# -- the command line ---------------------------------------------------------------------------------------
def fix_or_diff(
    findings: list[Finding],
    paths: list[str],
    settings: Settings,
    options: dict[str, object],
    stdin: bytes | None,
    stdin_filename: str,
) -> Outcome:
    """``check --diff``: print the diff and stop (1 when there is one). ``check --fix``: write the fixes
    and go on with the findings a new analysis still reports. Standard input is fixed only in ``--diff``."""
    from retracelint.engine import analyse

    stdin_path = os.path.normpath(stdin_filename) if stdin is not None else None

    def read(path: str) -> bytes:
        if path == stdin_path:
            return stdin  # type: ignore[return-value]
        return Path(path).read_bytes()

    def filtered(found: list[Finding]) -> list[Finding]:
        if not options.get("baseline"):
            return found
        from retracelint.baseline import load_baseline

        return load_baseline(options["baseline"]).filter(found)  # type: ignore[arg-type]

    def reanalyse(path: str, source: bytes) -> list[Finding]:
        run = analyse(paths, settings, stdin=source, stdin_filename=path)
        return filtered(run.findings)

    diff_only = bool(options.get("diff"))
    fixes = plan(findings, read)
    if stdin is None:  # one in-memory file per analysis: that place is taken by standard input
        fixes = settle(fixes, reanalyse)
    if not diff_only:
        fixes = write(f for f in fixes if f.path != stdin_path)
    count = sum(len(f.fixed) for f in fixes)
    files = f"{len(fixes)} file{'s' if len(fixes) != 1 else ''}"
    if diff_only:
        click.echo("".join(f.diff() for f in fixes), nl=False)
        done = f"would fix {count} finding{'s' if count != 1 else ''} in {files}"
        click.echo(f"retracelint: {done if fixes else 'nothing to fix'}", err=True)
        return Outcome(findings, 1 if fixes else 0)
    if not fixes:
        return Outcome(findings)
    click.echo(
        f"retracelint: fixed {count} finding{'s' if count != 1 else ''} in {files}", err=True
    )
    run = analyse(paths, settings, stdin=stdin, stdin_filename=stdin_filename)
    return Outcome(filtered(run.findings))
