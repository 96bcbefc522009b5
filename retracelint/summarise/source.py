"""Reading a file: text and positions (columns in characters), parsing with a clear error for syntax
of a newer Python, and the entry point that summarises one module."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field

from retracelint.jitspec import BUILTIN_WRAPPERS, Wrapper
from retracelint.model import Location
from retracelint.summarise import columns, desugar
from retracelint.summarise.apis import _X64_FLAG, _enables_x64, config_settings
from retracelint.summarise.columns import source_lines
from retracelint.summarise.module import _ModulePass
from retracelint.summarise.syntax import _clip
from retracelint.summary import (
    ModuleSummary,
)


@dataclass
class SummaryOptions:
    wrappers: dict[str, Wrapper] = field(default_factory=lambda: dict(BUILTIN_WRAPPERS))


class _Positions:
    """A file's positions as findings give them: 1-based character columns (the tree's, ``columns``)."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = source_lines(text)

    def text(self, node: ast.AST | None, limit: int = 60) -> str:
        """The source of ``node`` as written (one line, clipped): cheaper than unparsing it."""
        if node is None:
            return ""
        line_no = getattr(node, "lineno", None)
        if line_no is not None and line_no == getattr(node, "end_lineno", None):
            line = self.lines[line_no - 1] if line_no <= len(self.lines) else ""
            start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
            return _clip(line[start:end], limit)
        return _clip(ast.unparse(node), limit)

    def span(self, first: ast.AST, last: ast.AST) -> Location:
        """From the start of ``first`` to the end of ``last`` (a comprehension's ``for`` clause,
        which has no position of its own)."""
        start, end = self.of(first), self.of(last)
        return Location(self.path, start.line, start.col, end.end_line, end.end_col)

    def of(self, node: ast.AST) -> Location:
        line = getattr(node, "lineno", 1)
        end_line = getattr(node, "end_lineno", None) or line
        end_col = getattr(node, "end_col_offset", None)
        start = getattr(node, "col_offset", 0) + 1
        return Location(self.path, line, start, end_line, end_col + 1 if end_col is not None else 0)


def module_text(source: bytes) -> str:
    """Decode source bytes as Python does (BOM, PEP 263 coding cookie, UTF-8 default)."""
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    return source.decode(encoding)


def check_syntax(source: bytes, path: str, module: str, is_package: bool) -> ModuleSummary:
    """An empty summary that only says whether the file parses (for files the pre-scan left out)."""
    summary = ModuleSummary(path=path, module=module, is_package=is_package)
    _parse(source, summary)
    summary.lines = _count_lines(source)
    return summary


def _count_lines(source: bytes) -> int:
    return source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)


def summarise(
    source: bytes, path: str, module: str, is_package: bool, options: SummaryOptions
) -> ModuleSummary:
    """Summarise one module. Unreadable or unparsable input gives a summary with ``error`` set."""
    summary = ModuleSummary(path=path, module=module, is_package=is_package)
    summary.lines = _count_lines(source)
    parsed = _parse(source, summary)
    if parsed is None:
        return summary
    text, tree = parsed
    if _X64_FLAG in text.lower():
        flagged = {n for n, line in enumerate(text.splitlines(), 1) if _X64_FLAG in line.lower()}
        summary.x64 = _enables_x64(tree, flagged)
    if "config.update" in text:
        summary.settings = config_settings(tree)
    limit = sys.getrecursionlimit()
    # Python-to-Python calls do not use the C stack on 3.11+, so a long operator chain that CPython
    # itself compiles (1,000 operands) can be walked; far deeper nesting still ends as RTL000.
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    try:
        _ModulePass(summary, _Positions(path, text), options).run(tree)
    except RecursionError:
        summary = ModuleSummary(path=path, module=module, is_package=is_package)
        summary.error = "cannot analyse: the code is nested too deeply"
    except Exception as exc:  # one file's surprise must not cost the other files their findings
        summary = ModuleSummary(path=path, module=module, is_package=is_package)
        summary.error = f"internal error while analysing this file: {type(exc).__name__}: {exc}"
    finally:
        sys.setrecursionlimit(limit)
    return summary


def _parse(source: bytes, summary: ModuleSummary) -> tuple[str, ast.Module] | None:
    """The decoded text and tree, or None with ``summary.error`` saying why."""
    text = None
    try:
        text = module_text(source)
        tree = desugar.plain(columns.parse(text, filename=summary.path), text)
    except SyntaxError as exc:  # also a bad coding cookie, before there is any text
        newer = _newer_syntax(text, exc) if text is not None else None
        summary.error = f"cannot parse: {newer or exc.msg}"
        summary.error_line = max(exc.lineno or 1, 1)
        summary.error_col = max(exc.offset or 1, 1)
        return None
    except (UnicodeDecodeError, LookupError) as exc:
        summary.error = f"cannot decode: {exc}"
        return None
    except (MemoryError, RecursionError):
        # CPython's parser reports a stack overflow on deeply nested code as MemoryError.
        summary.error = "cannot parse: the code is nested too deeply for Python's parser"
        return None
    except ValueError as exc:
        summary.error = f"cannot parse: {exc}"
        return None
    return text, tree


# libcst's parser crashes the process (a stack overflow) on a few thousand nested brackets or chained
# operators, and it is quadratic in attribute chains: it reads only files no deeper than Python allows
# (200 brackets, in every version) and with no logical line longer than this (the shortest crash
# measured: about 8,500 characters of unary minus signs).
_MAX_NESTING = 200


_MAX_LOGICAL_LINE = 4_000


def _newer_syntax(text: str, error: SyntaxError) -> str | None:
    """Why a file that this Python cannot parse may still be valid code, or None when it is broken.

    libcst's parser knows the grammar of newer Pythons (``type X = int``, f-strings reusing their
    quotes): a file that it accepts and ``ast`` rejects uses newer syntax. The whole file, because the
    line Python names is not always where the problem is (an unclosed bracket or string above it).
    libcst is imported only here, for a file that failed already: importing it costs about 0.3 s.
    """
    if isinstance(error, IndentationError):
        return None  # no newer grammar changes where blocks start and end
    if not _within_libcst_limits(text):
        return None
    try:
        import libcst

        libcst.parse_module(text)
    except Exception:  # its own syntax error, or anything else it cannot read: the file is broken
        return None
    major, minor = sys.version_info[:2]
    return (
        f"uses syntax newer than Python {major}.{minor} that runs retracelint; run retracelint with"
        f" Python >= {major}.{minor + 1} to analyse it"
    )


def _within_libcst_limits(text: str) -> bool:
    """Whether libcst can read ``text`` safely (see above). Brackets in strings count too: a file that
    only looks too deep is left alone."""
    depth = deepest = length = longest = 0
    previous = ""
    for char in text:
        length += 1
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif char == "\n" and depth == 0 and previous != "\\":
            longest, length = max(longest, length), 0
        previous = char
    return deepest <= _MAX_NESTING and max(longest, length) <= _MAX_LOGICAL_LINE


_RECURSION_LIMIT = 12_000
