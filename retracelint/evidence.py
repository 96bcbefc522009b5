"""Evidence: what each finding's chain takes for granted, and the findings no single run can make.

A finding is a chain: where a value is made (its location, in some function), the calls that carry it
(``call_path``) and the jitted call it reaches. The rules follow every chain the linker can build; this
stage asks, of each chain, what in it the code does not prove, and records that as ``Assumption``s
(``model.confidence_of`` turns them into the finding's confidence, in one place):

- ``guessed-callee``: a call on the chain is linked to the one class that defines the method, the
  receiver's class being unknown (``Project.method_of``'s fallback);
- ``entry-splice``: no one entry point (``Frequency.entries``: a test, a script, a CLI command, a public
  function) runs every function of the chain, so its value and its jitted call may never meet in one
  process;
- ``mocked-callee``: a test on the chain replaces (``mock.patch``, ``monkeypatch.setattr``) a function
  the chain goes through;
- ``flag-off``: a step of the chain sits under ``if cfg.flag:`` (or ``if FLAG:``) where the flag is
  declared ``False`` and nothing in the project sets it otherwise.

A chain through code that cannot run at all (after a ``return``, ``raise``, ``break`` or ``continue``
in the same block) is no finding, nor one whose jitted call repeats the same call of an earlier
statement of its block (``f(dist)`` twice in a loop body, nothing rebinding ``f`` or ``dist`` between):
the first filled the cache the second hits, and the finding at the first tells the cause.

Severity is decided here, by one rule (``severity``): a finding is an **error** only when its rule
claims one, its re-traces grow with the run (``Finding.grows``: driven by a loop over steps, data, a
loader, ``while``, not by a loop over a configuration, a model's structure or a few spelled-out
values) and its chain rests on no assumption, which only a proven chain can claim; every other
finding is a warning.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property

from retracelint.callgraph import Project
from retracelint.frequency import is_test, is_test_file
from retracelint.model import Assumption, Finding, Location, PathStep
from retracelint.propagate import Propagation
from retracelint.summary import FunctionSummary

# Statements after which the rest of their block never runs.
_ENDS_BLOCK = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Calls that replace an attribute or a dotted name for the duration of a test.
_PATCHERS = frozenset({"patch", "patch.object", "setattr", "patch.dict"})


def assess(
    project: Project,
    prop: Propagation,
    findings: list[Finding],
    read_lines: Callable[[str], list[str]],
) -> list[Finding]:
    """The findings whose chain can run, each with the assumptions it rests on; ``read_lines`` gives
    a file's lines as the run reads it (standard input for its file)."""
    sources = _Sources(project, read_lines)
    out = []
    for finding in findings:
        places = _places(finding)
        if any(sources.unreachable(at) for at in places) or sources.repeats_call(places[-1]):
            continue
        assumptions = tuple(_assumptions(project, prop, sources, finding, places))
        out.append(
            replace(finding, assumptions=assumptions, severity=severity(finding, assumptions))
        )
    return out


def severity(finding: Finding, assumptions: tuple[Assumption, ...]) -> str:
    """Error only for re-traces that grow with the run, on a chain proven whole; else a warning."""
    unbounded = finding.severity == "error" and finding.grows
    return "error" if unbounded and not assumptions else "warning"


def _places(finding: Finding) -> list[Location]:
    """Where the chain runs code: the origin, then each call that carries it."""
    return [finding.location, *(step.location for step in finding.call_path)]


def _assumptions(
    project: Project,
    prop: Propagation,
    sources: _Sources,
    finding: Finding,
    places: list[Location],
) -> Iterator[Assumption]:
    seen: set[tuple[str, Location]] = set()
    for found in (
        *_guessed_callees(project, finding.call_path),
        *_spliced(project, prop, sources, finding),
        *_mocked(sources, finding),
        *(a for at in places for a in sources.flags_off(at)),
    ):
        if (found.kind, found.location) not in seen:
            seen.add((found.kind, found.location))
            yield found


# -- the linker's guesses -------------------------------------------------------------------------
def _guessed_callees(project: Project, path: tuple[PathStep, ...]) -> Iterator[Assumption]:
    """Calls on the chain that the linker could only guess: a method called on an object of no
    known class, linked to the one class that defines it (``Project.method_of``), or ``self.m()``
    in a class without ``m``, linked to what its subclasses have (``Project._self_attribute``)."""
    for step in path:
        fn = project.functions.get(step.function)
        call = next((c for c in fn.calls if c.location == step.location), None) if fn else None
        if call is None or len(call.callee) < 3:
            continue
        kind = call.callee[0]
        if (
            kind == "recv"
            and project.classes_of(project.owner[fn.qualname], fn, call.callee[2:], 0) is None
        ):
            text = f"`{step.call}` taken as the one method of that name"
        elif kind == "self" and project.linked_by_subclasses(fn, call.callee[2]):
            text = f"`{step.call}` taken from the subclasses"
        else:
            continue
        yield Assumption("guessed-callee", step.location, text)


# -- entry points ---------------------------------------------------------------------------------
def _spliced(
    project: Project, prop: Propagation, sources: _Sources, finding: Finding
) -> Iterator[Assumption]:
    """The first function of the chain that no entry point of the functions before it runs."""
    chain = [
        (sources.function_at(finding.location), finding.location),
        *((s.function, s.location) for s in finding.call_path),
    ]
    names = list(
        dict.fromkeys(
            name
            for name, at in chain
            if name is not None and _has_entries(project, prop, sources, name, at)
        )
    )
    common: frozenset[str] | None = None
    for index, name in enumerate(names):
        entries = prop.frequency.entries(name)
        if not all(sources.program_start(entry) for entry in entries):
            continue  # a library's function, a callback: who else runs it is not known
        if common is not None and not (common & entries):
            before = _short(names[index - 1])
            yield Assumption(
                "entry-splice",
                finding.location,
                f"no one entry point runs both {before} and {_short(name)}",
            )
            return
        common = entries if common is None else common & entries


def _has_entries(
    project: Project, prop: Propagation, sources: _Sources, name: str, at: Location
) -> bool:
    """Whether the code of ``name`` at ``at`` runs only from some entry points: not code that runs
    only while a jit traces (its callers' entry points count), nor a module's top level, which every
    import runs, unless ``at`` is in its ``if __name__ == "__main__":`` block (a script's own)."""
    fn = project.functions.get(name)
    if fn is None or prop.frequency.traced(name):
        return False
    return fn.kind != "module" or sources.in_main_block(at)


def _short(qualname: str) -> str:
    return qualname.rpartition(".")[2] or qualname


# -- source-level facts ---------------------------------------------------------------------------
@dataclass
class _Sources:
    """The parsed source of the files a chain runs through, read once per run, and what a flag's
    declaration and uses across the project say."""

    project: Project
    read_lines: Callable[[str], list[str]]
    _trees: dict[str, ast.Module | None] = field(default_factory=dict)
    _flags: dict[str, bool] = field(default_factory=dict)

    def function_at(self, at: Location) -> str | None:
        """The innermost function (else the module body) of the project whose code holds ``at``."""
        # Strictly after the start: a lambda or a decorated def made at ``at`` is made by the code
        # around it, not run there.
        here = (at.line, at.col)
        inside = [
            ((loc.line, loc.col), name)
            for name, fn in self._functions.get(at.path, ())
            if fn.kind != "module"
            and (loc := fn.location)
            and (loc.line, loc.col) < here <= (loc.end_line or loc.line, loc.end_col or 1 << 30)
        ]
        if inside:
            return max(inside)[1]
        return next((n for n, fn in self._functions.get(at.path, ()) if fn.kind == "module"), None)

    @cached_property
    def _functions(self) -> dict[str, list[tuple[str, FunctionSummary]]]:
        by_path: dict[str, list[tuple[str, FunctionSummary]]] = {}
        for module in self.project.modules.values():
            by_path.setdefault(module.path, []).extend(module.functions.items())
        return by_path

    def tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            self._trees[path] = _parse(self._text(path))
        return self._trees[path]

    def enclosing(self, at: Location) -> list[tuple[ast.AST, list[ast.stmt]]]:
        """The statements around ``at``, outermost first, each with the block that holds it."""
        tree = self.tree(at.path)
        out: list[tuple[ast.AST, list[ast.stmt]]] = []
        block: list[ast.stmt] = tree.body if tree is not None else []
        while block:
            stmt = next((s for s in block if _holds(s, at.line)), None)
            if stmt is None:
                break
            out.append((stmt, block))
            block = next((b for b in _blocks(stmt) if any(_holds(s, at.line) for s in b)), [])
        return out

    def program_start(self, qualname: str) -> bool:
        """Whether a run starts at the function: a test in a test file, or a script's top level
        (a module with an ``if __name__ == "__main__":`` block). Other functions nothing calls (a
        library's API, a callback, ``tree_flatten``) may be called from anywhere."""
        fn = self.project.functions.get(qualname)
        if fn is None:
            return False
        if fn.kind != "module":
            return is_test_file(fn.location.path) and is_test(qualname) and not self._fixture(fn)
        tree = self.tree(fn.location.path)
        body = tree.body if tree is not None else []
        return any(isinstance(s, ast.If) and _is_main_test(s.test) for s in body)

    def _fixture(self, fn: FunctionSummary) -> bool:
        """Whether ``fn`` is a pytest fixture (``test_data``): the tests that ask for it run it."""
        defs = [s for s, _ in self.enclosing(fn.location) if isinstance(s, _DEFS)]
        decorators = defs[-1].decorator_list if defs else []
        return any("fixture" in ast.unparse(d) for d in decorators)

    def in_main_block(self, at: Location) -> bool:
        return any(
            isinstance(stmt, ast.If) and _is_main_test(stmt.test) for stmt, _ in self.enclosing(at)
        )

    def unreachable(self, at: Location) -> bool:
        """Whether ``at`` follows a ``return``/``raise``/``break``/``continue`` in its own block."""
        for stmt, block in self.enclosing(at):
            if any(isinstance(s, _ENDS_BLOCK) for s in block[: block.index(stmt)]):
                return True
        return False

    def repeats_call(self, at: Location) -> bool:
        """Whether the call at ``at`` repeats, argument for argument, a call an earlier statement of
        its block makes unconditionally, with nothing between that rebinds or calls a method of a
        name the call reads. Arguments that make something (a call, a lambda) are new each time."""
        chain = self.enclosing(at)
        if not chain:
            return False
        stmt, block = chain[-1]
        call = next((c for c in _unconditional_calls(stmt) if _starts_at(c, at)), None)
        if call is None or not all(map(_plain, [call.func, *call.args, *call.keywords])):
            return False
        names = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        same = ast.dump(call)
        for earlier in reversed(block[: block.index(stmt)]):
            if _touches(earlier, names):
                return False
            if any(ast.dump(c) == same for c in _unconditional_calls(earlier)):
                return True
        return False

    def flags_off(self, at: Location) -> Iterator[Assumption]:
        """The ``if`` tests around ``at`` that decide against it when their flag is off."""
        for stmt, _ in self.enclosing(at):
            if not isinstance(stmt, ast.If):
                continue
            in_body = any(_holds(s, at.line) for s in stmt.body)
            flag, negated = _flag_tested(stmt.test)
            if flag is None or negated == in_body:
                continue
            if self.off(flag):
                where = Location(at.path, stmt.lineno, stmt.col_offset + 1)
                yield Assumption("flag-off", where, f"`{flag}` is False unless set")

    def off(self, flag: str) -> bool:
        """Whether ``flag`` is False wherever the project gives it a value (``_declared_off``); any
        doubt keeps the branch taken."""
        if flag not in self._flags:
            self._flags[flag] = _declared_off(flag, self._texts)
        return self._flags[flag]

    @cached_property
    def _texts(self) -> list[str]:
        return [text for m in self.project.modules.values() if (text := self._text(m.path))]

    def _text(self, path: str) -> str | None:
        """The file's text as the run reads it, lines counted as Python counts them; None when it
        could not be read."""
        lines = self.read_lines(path)
        return "\n".join(lines) if lines else None


def _parse(text: str | None) -> ast.Module | None:
    try:
        return ast.parse(text) if text is not None else None
    except (SyntaxError, ValueError, RecursionError):
        return None


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"``, either way round."""
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1:
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    texts = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and texts == ["__main__"]


def _holds(stmt: ast.stmt, line: int) -> bool:
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
    return first <= line <= (stmt.end_lineno or stmt.lineno)


# Statements whose calls all run when the statement does (no branch, loop or body of their own).
_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
# Parts of an expression that may not run, or run later.
_DEFERRED = (ast.Lambda, ast.IfExp, ast.BoolOp, ast.comprehension)


def _unconditional_calls(stmt: ast.stmt) -> Iterator[ast.Call]:
    """The calls a simple statement makes whenever it runs."""
    if not isinstance(stmt, _SIMPLE):
        return
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Call):
            yield node
        todo.extend(n for n in ast.iter_child_nodes(node) if not isinstance(n, _DEFERRED))


def _starts_at(node: ast.expr, at: Location) -> bool:
    return (node.lineno, node.col_offset + 1) == (at.line, at.col)


def _plain(node: ast.AST) -> bool:
    """A name, a constant, or attributes and constant subscripts of one: the same object each time
    the same bindings are read."""
    if isinstance(node, ast.keyword | ast.Starred):
        return _plain(node.value)
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name | ast.Constant)


def _touches(stmt: ast.stmt, names: set[str]) -> bool:
    """Whether ``stmt`` may change what one of ``names`` holds: binds or deletes it, stores into it,
    or calls a method of it (``batch.append(x)``); a nested def or class binds its name."""
    for node in ast.walk(stmt):
        if isinstance(node, (*_DEFS, ast.ClassDef)):
            changed: str | None = node.name
        elif isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            changed = _root(node) if not isinstance(node.ctx, ast.Load) else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            changed = _root(node.func.value)
        else:
            continue
        if changed in names:
            return True
    return False


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(stmt, "handlers", ()):
        yield handler.body
    for case in getattr(stmt, "cases", ()):
        yield case.body


def _flag_tested(test: ast.expr) -> tuple[str | None, bool]:
    """The flag an ``if`` tests by itself (``cfg.use_x``, ``self.cfg.use_x``, ``cfg["use_x"]``,
    ``USE_X``), and whether the test negates it."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    if isinstance(inner, ast.Attribute):
        return inner.attr, negated
    if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant):
        key = inner.slice.value
        return (key, negated) if isinstance(key, str) and key.isidentifier() else (None, False)
    if isinstance(inner, ast.Name) and inner.id.isupper():
        return inner.id, negated
    return None, False


def _declared_off(flag: str, texts: list[str]) -> bool:
    """Whether ``flag`` is declared once (a class field, a module constant: at the start of a line)
    and every value the project gives it, there or anywhere else (an assignment, a keyword, an
    attribute store), is ``False``; a mention that may carry another value (a dict key, a
    ``--flag`` option) counts as one."""
    name = re.escape(flag)
    declared = re.compile(rf"^[ \t]*{name}[ \t]*(?::[^=\n]*)?=(?!=)", re.MULTILINE)
    given = re.compile(rf"(?:(?<![\w.])|\.){name}[ \t]*(?::[^=\n]*)?=(?!=)[ \t]*(\w*)")
    mentioned = re.compile(rf"[\"']{name}[\"']|--{name.replace('_', '[-_]')}\b")
    if sum(len(declared.findall(text)) for text in texts) != 1:
        return False
    values = [value for text in texts for value in given.findall(text)]
    return all(v == "False" for v in values) and not any(mentioned.search(t) for t in texts)


# -- mocks ----------------------------------------------------------------------------------------
def _mocked(sources: _Sources, finding: Finding) -> Iterator[Assumption]:
    """A test on the chain that replaces a function the chain calls after it: the real one never
    runs there."""
    path = finding.call_path
    for index, step in enumerate(path):
        if not _short(step.function).startswith("test"):
            continue
        patched = _patched_names(sources, step.location)
        for later in path[index:]:
            name = later.call.rpartition(".")[2]
            if name in patched:
                yield Assumption(
                    "mocked-callee",
                    later.location,
                    f"`{name}` is replaced in {_short(step.function)}",
                )
                return


def _patched_names(sources: _Sources, inside: Location) -> frozenset[str]:
    """The last names of what the test around ``inside`` patches, in its decorators and body."""
    test = next(
        (stmt for stmt, _ in reversed(sources.enclosing(inside)) if isinstance(stmt, _DEFS)),
        None,
    )
    if test is None:
        return frozenset()
    names = set()
    for call in ast.walk(test):  # its decorators too
        if isinstance(call, ast.Call) and _dotted_tail(call.func) in _PATCHERS:
            names.update(_target_names(call))
    return frozenset(names)


def _dotted_tail(func: ast.expr) -> str:
    """``patch`` for ``mock.patch``/``patch``, ``patch.object`` for ``mock.patch.object``, ``setattr``
    for ``monkeypatch.setattr`` (not the builtin)."""
    if isinstance(func, ast.Name):
        return func.id if func.id == "patch" else ""
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Attribute) and func.value.attr == "patch":
            return f"patch.{func.attr}"
        if isinstance(func.value, ast.Name) and func.value.id == "patch":
            return f"patch.{func.attr}"
        return func.attr
    return ""


def _target_names(call: ast.Call) -> Iterator[str]:
    """What a patch call replaces: ``"pkg.mod.fn"`` (first argument) or ``(obj, "fn")``."""
    texts = [a.value for a in call.args[:2] if isinstance(a, ast.Constant)]
    for text in texts:
        if isinstance(text, str):
            yield text.rpartition(".")[2]
