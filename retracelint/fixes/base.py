"""What every whole-file codemod shares: the result it gives, the file as ``ast`` and libcst see it, and one
transformer that replaces expressions and inserts or removes statements found beforehand by position.

A codemod reads the file with ``ast`` (scopes, names, where each statement is), decides, and states its
rewrite as positions; libcst then rewrites only those nodes, so every other byte, comment and blank line
stays as it was. A codemod that cannot prove its rewrite keeps the program's meaning returns a
``Refusal`` saying why, and the file is left alone.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from retracelint.model import Finding
from retracelint.summarise.syntax import ast_span

if TYPE_CHECKING:
    import libcst as cst

# Physical lines with their endings, as Python counts them (a form feed does not end a line).
TEXT_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
# A node's start as ast and libcst both give it: 1-based line, 0-based column in characters.
Start = tuple[int, int]


@dataclass(frozen=True)
class Refusal:
    """Why a finding's fix was not made (shown by ``--diff``/``--fix`` and the editor)."""

    reason: str


@dataclass
class Rewrite:
    """One finding's rewrite, as positions in the unchanged file.

    ``replace``: the expression starting there (with that end) becomes the given libcst expression.
    ``insert_before``: statements put before the statement starting there, in its block.
    ``insert_after``: statements put after the statement starting there (the last of a block has no
    statement after it to insert before).
    ``remove``: statements taken out of their block (moved elsewhere by ``insert_before``).
    ``decorate``: decorators put on top of the def or class starting there.
    """

    replace: dict[tuple[Start, Start], cst.BaseExpression] = field(default_factory=dict)
    insert_before: dict[Start, list[cst.BaseStatement]] = field(default_factory=dict)
    insert_after: dict[Start, list[cst.BaseStatement]] = field(default_factory=dict)
    remove: set[Start] = field(default_factory=set)
    decorate: dict[Start, tuple[str, ...]] = field(default_factory=dict)
    imports: tuple[str, ...] = ()  # import statements the rewrite needs, added at the module's top
    unsafe: bool = False  # this rewrite changes what a user must check, whatever its rule's fix is
    # The same fix's rewrites of other files (the module that jits, when the caller is here), by path
    # as ``Location`` gives it: made with this one or not at all.
    elsewhere: dict[str, Rewrite] = field(default_factory=dict)


Codemod = Callable[["Source", Finding], "Rewrite | Refusal"]


def _own_file(finding: Finding) -> str:
    return finding.location.path


@dataclass(frozen=True)
class Fix:
    """A rule's fix: its codemod, whether it is safe (applied by ``--fix``) or changes behaviour a
    user must check (``--unsafe-fixes``, ruff's convention), and the file it rewrites."""

    codemod: Codemod
    safe: bool
    target: Callable[[Finding], str] = _own_file


class Source:
    """One file as the codemods read it: text, ``ast`` tree, and libcst's module with positions (made
    when first asked for: libcst costs ten times what ``ast`` does)."""

    def __init__(
        self,
        text: str,
        tree: ast.Module,
        neighbours: Callable[[str], Source | None] | None = None,
        path: str | None = None,
    ):
        self.text = text
        self.tree = tree
        self._neighbours = neighbours
        self.path = path  # as ``Location`` gives it; None where not known (standard input)

    def neighbour(self, path: str) -> Source | None:
        """Another file of the project (``Location``'s path), for a fix that edits it too; None when it
        cannot be read or parsed, or when this run fixes one file alone (standard input, an editor's
        quick fix)."""
        return self._neighbours(path) if self._neighbours is not None else None

    def jit_home(self, finding: Finding) -> Source | None:
        """The file where the finding's jitted function is: this one (the finding's own) or its
        neighbour; None when the finding names none or that file cannot be read."""
        site = finding.jit_site
        if site is None:
            return None
        return (
            self
            if site.location.path == finding.location.path
            else self.neighbour(site.location.path)
        )

    def jitted_def(self, finding: Finding) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The def of the finding's jitted function in ``jit_home``: the one whose ``def`` line or a
        decorator's is the jit site's; None when there is none."""
        site, home = finding.jit_site, self.jit_home(finding)
        if site is None or home is None:
            return None
        return next(
            (
                n
                for n in ast.walk(home.tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.name == site.name
                and site.location.line in (n.lineno, *(d.lineno for d in n.decorator_list))
            ),
            None,
        )

    @property
    def parents(self) -> dict[int, ast.AST]:
        return _parents(self.tree)

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self.parent(node)
        while parent is not None:
            yield parent
            parent = self.parent(parent)

    @cached_property
    def module_names(self) -> set[str]:
        """Every name the module binds or reads anywhere: a new name must be none of them."""
        names: set[str] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
        return names

    def fresh_name(self, base: str) -> str:
        name, n = base, 2
        while name in self.module_names:
            name, n = f"{base}_{n}", n + 1
        self.module_names.add(name)
        return name

    def expression_at(self, line: int, col: int, end_line: int, end_col: int) -> ast.expr | None:
        """The expression with exactly this span (``Location``'s: 1-based columns, end exclusive)."""
        return expressions(self.tree).get((line, col, end_line, end_col))

    def code(self, node: ast.AST) -> str:
        """``node``'s source, as ``ast.get_source_segment`` gives it, from lines split once."""
        end_line, end = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if end_line is None or end is None:
            return ""  # a node without a position (``ast.arguments``)
        first, last, start = node.lineno - 1, end_line - 1, node.col_offset
        if first == last:
            return self._segment_lines[first][start:end]
        head, tail = self._segment_lines[first][start:], self._segment_lines[last][:end]
        return "".join([head, *self._segment_lines[first + 1 : last], tail])

    @cached_property
    def _segment_lines(self) -> list[str]:
        """The lines with their endings, split where ``ast`` splits them (not at a form feed)."""
        return TEXT_LINES.findall(self.text)

    def start(self, node: ast.AST) -> Start:
        """Where libcst starts ``node``: both count characters (the tree is ``columns.parse``'s)
        and start a decorated definition at its ``def``."""
        return (node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> Start:
        return (node.end_lineno or 0, node.end_col_offset or 0)

    def span(self, node: ast.AST) -> tuple[Start, Start]:
        return (self.start(node), self.end(node))


@lru_cache(maxsize=8)
def _parents(tree: ast.Module) -> dict[int, ast.AST]:
    """Each node's parent, by the child's id: once per tree, which every finding of its file shares."""
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


@lru_cache(maxsize=8)
def expressions(tree: ast.Module) -> dict[tuple[int, int, int, int], ast.expr]:
    """The expressions by span, the first ``ast.walk`` meets where several share one."""
    out: dict[tuple[int, int, int, int], ast.expr] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.expr):
            out.setdefault(ast_span(node), node)
    return out


def dotted(node: ast.AST) -> str:
    """``jax.numpy.asarray`` for that attribute chain; empty for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def in_place(source: Source, node: ast.expr, text: str) -> str | None:
    """``text``, a rewrite of ``node``'s own text, as a replacement written where ``node`` is must
    give it: libcst indents a replacement's continuation lines by the block they are in, so that
    indentation is taken off them; None when a continuation line does not start with it (a string
    spanning lines)."""
    stmt = statement_of(source, node)
    line = source.text.splitlines()[stmt.lineno - 1] if stmt is not None else ""
    indent = line[: len(line) - len(line.lstrip())]
    first, *rest = text.split("\n")
    if any(r.strip() and not r.startswith(indent) for r in rest):
        return None
    return "\n".join([first, *(r[len(indent) :] for r in rest)])


def offset_in(text: str, start: Start, where: Start) -> int:
    """Where ``where`` (line, column in characters) falls in ``text``, which begins at ``start``."""
    lines = text.splitlines(keepends=True)
    row = where[0] - start[0]
    return sum(len(line) for line in lines[:row]) + where[1] - (start[1] if row == 0 else 0)


def statement_of(source: Source, node: ast.AST) -> ast.stmt | None:
    """The innermost statement holding ``node``."""
    if isinstance(node, ast.stmt):
        return node
    return next((a for a in source.ancestors(node) if isinstance(a, ast.stmt)), None)


def bound_names(nodes: list[ast.stmt] | ast.AST) -> set[str]:
    """Names that ``nodes`` assign (targets, loop variables, defs, imports, with/except names,
    walrus), nested functions' own locals excluded."""
    out: set[str] = set()
    stack: list[ast.AST] = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            stack.extend(getattr(node, "decorator_list", []))
            continue  # its body binds its own locals
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        stack.extend(ast.iter_child_nodes(node))
    return out


def module_bindings(tree: ast.Module) -> dict[str, list[ast.stmt]]:
    """Each name the module's top level binds, with the top-level statements that bind it."""
    out: dict[str, list[ast.stmt]] = {}
    for stmt in tree.body:
        for name in bound_names([stmt]):
            out.setdefault(name, []).append(stmt)
    return out


def rebound_in_functions(tree: ast.Module) -> set[str]:
    """Names some function declares ``global``: a module-level value that may change."""
    return {name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names}


BUILTINS = frozenset(dir(__import__("builtins")))


def apply(text: str, rewrites: list[Rewrite]) -> str | None:
    """``text`` with the rewrites made by libcst, or None when libcst cannot read it or a position
    matches no node (the file changed under the finding)."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
    except Exception:  # libcst cannot read everything ast can (newer syntax): no fix here
        return None
    replace: dict[int, cst.BaseExpression] = {}
    insert: dict[int, list[cst.BaseStatement]] = {}
    append: dict[int, list[cst.BaseStatement]] = {}
    remove: set[int] = set()
    decorate: dict[int, list[str]] = {}
    wanted = {k for r in rewrites for k in r.replace}
    starts = {
        s for r in rewrites for s in (*r.insert_before, *r.insert_after, *r.remove, *r.decorate)
    }
    found_spans: set[tuple[Start, Start]] = set()
    found_starts: set[Start] = set()
    for node, where in positions.items():
        start = (where.start.line, where.start.column)
        span = (start, (where.end.line, where.end.column))
        if span in wanted and isinstance(node, cst.BaseExpression):
            for r in rewrites:
                if span in r.replace:
                    replace[id(node)] = r.replace[span]
            found_spans.add(span)
        if start in starts and isinstance(
            node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)
        ):
            for r in rewrites:
                insert.setdefault(id(node), []).extend(r.insert_before.get(start, []))
                append.setdefault(id(node), []).extend(r.insert_after.get(start, []))
                if start in r.remove:
                    remove.add(id(node))
                if start in r.decorate and isinstance(node, (cst.ClassDef, cst.FunctionDef)):
                    decorate.setdefault(id(node), []).extend(r.decorate[start])
            found_starts.add(start)
    decorated = {s for r in rewrites for s in r.decorate}
    if found_spans != wanted or found_starts != starts or len(decorate) != len(decorated):
        return None
    module = wrapper.module.visit(_Rewriter(replace, insert, remove, decorate, append))
    imports = [i for r in rewrites for i in r.imports]
    if imports:
        module = _with_imports(module, imports)
    return module.code


def _with_imports(module: cst.Module, imports: list[str]) -> cst.Module:
    """The module with ``imports`` added after its docstring and ``__future__`` imports."""
    import libcst as cst

    statements = [cst.parse_statement(i + "\n") for i in dict.fromkeys(imports)]
    at = 0
    for index, stmt in enumerate(module.body):
        if isinstance(stmt, cst.SimpleStatementLine) and all(
            (isinstance(s, cst.Expr) and isinstance(s.value, cst.SimpleString))
            or (
                isinstance(s, cst.ImportFrom)
                and isinstance(s.module, cst.Name)
                and s.module.value == "__future__"
            )
            for s in stmt.body
        ):
            at = index + 1
        else:
            break
    return module.with_changes(body=[*module.body[:at], *statements, *module.body[at:]])


def _rewriter_class() -> type:
    import libcst as cst

    class Rewriter(cst.CSTTransformer):
        def __init__(self, replace: dict, insert: dict, remove: set, decorate: dict, append: dict):
            super().__init__()
            self.replace, self.insert, self.remove = replace, insert, remove
            self.decorate, self.append = decorate, append

        def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[override]
            updated = super().on_leave(original_node, updated_node)
            if id(original_node) in self.replace:
                new = self.replace[id(original_node)]
                if isinstance(new, cst.Tuple) and not original_node.lpar:  # type: ignore[attr-defined]
                    return new  # its own parentheses: bare, an argument would become several
                return new.with_changes(lpar=original_node.lpar, rpar=original_node.rpar)  # type: ignore[attr-defined]
            if isinstance(original_node, (cst.Module, cst.IndentedBlock)):
                return self._block(original_node, updated)  # type: ignore[arg-type]
            if id(original_node) in self.decorate:
                added = [
                    cst.Decorator(cst.parse_expression(d)) for d in self.decorate[id(original_node)]
                ]
                return updated.with_changes(decorators=[*added, *updated.decorators])  # type: ignore[union-attr]
            return updated

        def _block(self, original: cst.Module | cst.IndentedBlock, updated: cst.CSTNode):
            body: list[cst.BaseStatement] = []
            for old, new in zip(original.body, updated.body, strict=True):  # type: ignore[attr-defined]
                inserted = self.insert.get(id(old), [])
                if inserted:
                    # The blank lines above the statement go above what is inserted too (two
                    # around a def stay two); its own comments stay with it.
                    lead = list(new.leading_lines)
                    keep = len(lead)
                    while keep and lead[keep - 1].comment is not None:
                        keep -= 1
                    first = inserted[0].with_changes(leading_lines=lead[:keep])
                    body.extend([first, *inserted[1:]])
                    new = new.with_changes(leading_lines=lead)
                after = self.append.get(id(old), [])
                if id(old) in self.remove:
                    body.extend(after)
                    continue
                if not body and any(id(o) in self.remove for o in original.body[:1]):
                    # what followed a statement moved off the top of its block starts it now
                    lead = [line for line in new.leading_lines if line.comment is not None]
                    new = new.with_changes(leading_lines=lead)
                body.extend([new, *after])
            if not body:
                body = [cst.SimpleStatementLine([cst.Pass()])]
            return updated.with_changes(body=body)  # type: ignore[attr-defined]

    return Rewriter


def _Rewriter(
    replace: dict, insert: dict, remove: set, decorate: dict, append: dict
) -> cst.CSTTransformer:
    return _rewriter_class()(replace, insert, remove, decorate, append)


def parse_expression(code: str) -> cst.BaseExpression:
    import libcst as cst

    return cst.parse_expression(code)


def parse_statement(code: str) -> cst.BaseStatement:
    import libcst as cst

    return cst.parse_statement(code)


def has_binding(source: Source, name: str, module: str) -> bool:
    """Whether the module imports ``module`` as ``name`` at its top level (``import jax.numpy as
    jnp``), so that a rewrite may use ``name``."""
    for stmt in source.tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if (alias.asname or alias.name) == name and alias.name == module:
                    return True
        if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            for alias in stmt.names:
                if (alias.asname or alias.name) == name and f"{stmt.module}.{alias.name}" == module:
                    return True
    return False


def dataclass_field(source: Source) -> tuple[str, tuple[str, ...]] | Refusal:
    """How the module names ``dataclasses.field`` for a rewrite, and the import that needs."""
    if has_binding(source, "dataclasses", "dataclasses"):
        return "dataclasses.field", ()
    if has_binding(source, "field", "dataclasses.field"):
        return "field", ()
    if "dataclasses" in source.module_names:
        return Refusal("the module binds dataclasses to something else")
    return "dataclasses.field", ("import dataclasses",)
