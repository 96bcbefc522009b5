"""Semantics-preserving rewrites of the accuracy programs, one small libcst transformer each.

A transform takes a program as ``{relative path: source}`` and returns the rewritten program (files may
be changed and added), or None when it does not apply: nothing of its kind in the program, or a shape
it cannot rewrite without changing what the program does. It never guesses: declining is always safe,
and JAX checks every variant it makes anyway (run.py drops those that trace differently).

``# expect:`` markers are comments, so they travel with the code they sit on; a transform that would
lose or duplicate one declines.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable

import libcst as cst
import libcst.matchers as m

Program = dict[str, str]
Transform = Callable[[Program], "Program | None"]

MARKER = re.compile(r"#\s*expect:")


def _markers(program: Program) -> int:
    return sum(len(MARKER.findall(source)) for source in program.values())


def _rewrite_each(
    program: Program, rewrite: Callable[[cst.Module], cst.Module | None]
) -> Program | None:
    """Apply a per-file rewrite to every file; None unless at least one file changed."""
    out, changed = {}, False
    for path, source in program.items():
        module = cst.parse_module(source)
        new = rewrite(module)
        if new is None or new.code == source:
            out[path] = source
        else:
            out[path], changed = new.code, True
    return out if changed else None


def _module_names(module: cst.Module) -> set[str]:
    """Every identifier the file spells anywhere, so a new name can avoid all of them."""
    return {node.id for node in ast.walk(ast.parse(module.code)) if isinstance(node, ast.Name)} | {
        word for word in re.findall(r"[A-Za-z_]\w*", module.code)
    }


def _fresh(taken: set[str], base: str) -> str:
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name)
    return name


# --------------------------------------------------------------------------------------------------
# Imports aliased: `import jax as J`; `from jax import jit as compile_`


def _binds_jax_elsewhere(module: cst.Module) -> bool:
    """`import jax.numpy` (no alias) or `from x import jax` bind `jax` too: renaming would miss them."""
    for node in ast.walk(ast.parse(module.code)):
        if isinstance(node, ast.Import) and any(
            a.name.startswith("jax.") and a.asname is None for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and any(
            (a.asname or a.name) == "jax" for a in node.names
        ):
            return True
        if isinstance(node, ast.arg) and node.arg == "jax":
            return True
        if isinstance(node, ast.Name) and node.id == "jax" and not isinstance(node.ctx, ast.Load):
            return True
    return False


class _RenameJax(cst.CSTTransformer):
    def __init__(self, alias: str) -> None:
        self.alias = alias

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = [
            a.with_changes(asname=cst.AsName(name=cst.Name(self.alias)))
            if m.matches(a, m.ImportAlias(name=m.Name("jax"), asname=None))
            else a
            for a in updated.names
        ]
        return updated.with_changes(names=names)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.alias) if updated.value == "jax" else updated

    def leave_ImportAlias(
        self, original: cst.ImportAlias, updated: cst.ImportAlias
    ) -> cst.ImportAlias:
        # Module paths (`import jax.numpy as jnp`, the `jax` of `import jax`) name the package.
        return updated.with_changes(name=original.name)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        return updated.with_changes(module=original.module)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)  # `obj.jax` is not the module

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)


def _imports_jax(module: cst.Module) -> bool:
    return any(
        isinstance(node, ast.Import)
        and any(a.name == "jax" and a.asname is None for a in node.names)
        for node in ast.walk(ast.parse(module.code))
    )


def alias_jax(program: Program) -> Program | None:
    """`import jax` becomes `import jax as J`, and every `jax.` in the file `J.`."""

    def rewrite(module: cst.Module) -> cst.Module | None:
        if not _imports_jax(module) or _binds_jax_elsewhere(module) or "J" in _module_names(module):
            return None
        return module.visit(_RenameJax("J"))

    return _rewrite_each(program, rewrite)


class _JitToName(cst.CSTTransformer):
    def __init__(self, alias: str) -> None:
        self.alias = alias

    def leave_Attribute(
        self, original: cst.Attribute, updated: cst.BaseExpression
    ) -> cst.BaseExpression:
        if m.matches(updated, m.Attribute(value=m.Name("jax"), attr=m.Name("jit"))):
            return cst.Name(self.alias)
        return updated


def _insert_after_imports(
    module: cst.Module, statements: Iterable[cst.BaseStatement]
) -> cst.Module:
    """Put statements after the file's leading docstring, `__future__` imports and other imports."""
    body = list(module.body)
    at = 0
    for i, stmt in enumerate(body):
        if m.matches(stmt, m.SimpleStatementLine(body=[m.OneOf(m.Import(), m.ImportFrom())])) or (
            i == 0 and m.matches(stmt, m.SimpleStatementLine(body=[m.Expr(m.SimpleString())]))
        ):
            at = i + 1
        else:
            break
    return module.with_changes(body=[*body[:at], *statements, *body[at:]])


def alias_jit(program: Program) -> Program | None:
    """`jax.jit` is imported as `from jax import jit as compile_` and called by that name."""

    def rewrite(module: cst.Module) -> cst.Module | None:
        if not _imports_jax(module) or _binds_jax_elsewhere(module):
            return None
        if "compile_" in _module_names(module) or not re.search(r"\bjax\.jit\b", module.code):
            return None
        new = module.visit(_JitToName("compile_"))
        line = cst.parse_statement("from jax import jit as compile_\n")
        return _insert_after_imports(new, [line])

    return _rewrite_each(program, rewrite)


# --------------------------------------------------------------------------------------------------
# `@jax.jit` (or `@partial(jax.jit, ...)`) above a def becomes `f = jax.jit(f, ...)` after it


def _jit_call_of(decorator: cst.Decorator, name: str) -> cst.Call | None:
    """The call `jax.jit(name, ...)` equivalent to this decorator, or None when it is not a jit."""
    d = decorator.decorator
    jit = m.Attribute(value=m.Name("jax"), attr=m.Name("jit"))
    target = cst.Arg(cst.Name(name))
    if m.matches(d, jit):
        return cst.Call(func=d, args=[target])
    if m.matches(d, m.Call(func=jit)):  # @jax.jit(static_argnums=...) is not valid JAX; keep out
        return None
    partial = m.OneOf(
        m.Name("partial"), m.Attribute(value=m.Name("functools"), attr=m.Name("partial"))
    )
    if m.matches(d, m.Call(func=partial)) and d.args and m.matches(d.args[0].value, jit):
        if d.args[0].keyword is not None or d.args[0].star:
            return None
        rest = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in d.args[1:]]
        return cst.Call(func=d.args[0].value, args=[target, *rest])
    return None


class _StatementRewriter(cst.CSTTransformer):
    """Replaces statements of the module and of every block by what ``_replace`` makes of them."""

    def __init__(self) -> None:
        self.changed = 0

    def _replace(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement] | None:
        raise NotImplementedError

    def _walk(self, body: Iterable[cst.BaseStatement]) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        for stmt in body:
            replaced = self._replace(stmt)
            if replaced is None:
                out.append(stmt)
            else:
                out += replaced
                self.changed += 1
        return out

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return updated.with_changes(body=self._walk(updated.body))

    def leave_IndentedBlock(
        self, original: cst.IndentedBlock, updated: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return updated.with_changes(body=self._walk(updated.body))


class _DecoratorToCall(_StatementRewriter):
    def _replace(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement] | None:
        if not isinstance(stmt, cst.FunctionDef) or len(stmt.decorators) != 1:
            return None
        decorator = stmt.decorators[0]
        call = _jit_call_of(decorator, stmt.name.value)
        if call is None:
            return None
        # A marker on the decorator line belongs to the jit, which is now the assignment.
        comment = decorator.trailing_whitespace.comment
        assign = cst.SimpleStatementLine(
            body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(stmt.name.value))], value=call)],
            trailing_whitespace=cst.TrailingWhitespace(
                whitespace=cst.SimpleWhitespace("  ") if comment else cst.SimpleWhitespace(""),
                comment=comment,
            ),
        )
        leading = [*stmt.leading_lines, *decorator.leading_lines]
        return [stmt.with_changes(decorators=[], leading_lines=leading), assign]


def decorator_to_call(program: Program) -> Program | None:
    """`@jax.jit def f` becomes `def f` followed by `f = jax.jit(f)` (the same for `@partial(jax.jit, ...)`)."""

    def rewrite(module: cst.Module) -> cst.Module | None:
        visitor = _DecoratorToCall()
        new = module.visit(visitor)
        return new if visitor.changed else None

    return _rewrite_each(program, rewrite)


# --------------------------------------------------------------------------------------------------
# `for x in xs: body` becomes a `while` loop over `iter(xs)`


class _ForToWhile(_StatementRewriter):
    def __init__(self, taken: set[str]) -> None:
        super().__init__()
        self.taken = taken

    def _replace(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement] | None:
        if not isinstance(stmt, cst.For) or stmt.orelse or stmt.asynchronous:
            return None
        it = _fresh(self.taken, "_loop_items")
        header = stmt.body.header if isinstance(stmt.body, cst.IndentedBlock) else None
        # A marker on the `for` line is about its iterable, which now sits on the `iter(...)` line.
        first = cst.SimpleStatementLine(
            body=[
                cst.Assign(
                    targets=[cst.AssignTarget(cst.Name(it))],
                    value=cst.Call(func=cst.Name("iter"), args=[cst.Arg(stmt.iter)]),
                )
            ],
            leading_lines=stmt.leading_lines,
            trailing_whitespace=header or cst.TrailingWhitespace(),
        )
        target = cst.ensure_type(stmt.target, cst.BaseAssignTargetExpression)
        step = cst.parse_statement(
            f"try:\n    _TARGET = next({it})\nexcept StopIteration:\n    break\n"
        )
        step = step.visit(_Replace("_TARGET", target))
        inner = list(stmt.body.body) if isinstance(stmt.body, cst.IndentedBlock) else None
        if inner is None:  # `for x in xs: a; b` on one line
            inner = [cst.SimpleStatementLine(body=list(stmt.body.body))]
        loop = cst.While(
            test=cst.Name("True"),
            body=cst.IndentedBlock(body=[step, *inner]),
        )
        return [first, loop]


class _Replace(cst.CSTTransformer):
    def __init__(self, name: str, by: cst.BaseExpression) -> None:
        self.name, self.by = name, by

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.by if updated.value == self.name else updated


def for_to_while(program: Program) -> Program | None:
    """Every `for` statement (without `else`) becomes `it = iter(xs)` and a `while True` calling `next`."""

    def rewrite(module: cst.Module) -> cst.Module | None:
        visitor = _ForToWhile(_module_names(module))
        new = module.visit(visitor)
        return new if visitor.changed else None

    return _rewrite_each(program, rewrite)


# --------------------------------------------------------------------------------------------------
# The value a marked line makes (or a value passed to a jitted function) comes from a helper function


def _jitted_names(module: cst.Module) -> set[str]:
    """Names the file binds to a jitted function: decorated defs and `f = jax.jit(...)`."""
    names = set()
    for node in ast.walk(ast.parse(module.code)):
        decorators = getattr(node, "decorator_list", [])
        if isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in decorators):
            names.add(node.name)
        is_call = isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        if is_call and "jit" in ast.unparse(node.value.func):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _passed_to(module: cst.Module, callees: set[str]) -> set[str]:
    """Plain names passed as arguments to calls of the given functions anywhere in the file."""
    passed = set()
    for node in ast.walk(ast.parse(module.code)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in callees
        ):
            values = [*node.args, *(k.value for k in node.keywords)]
            passed |= {v.id for v in values if isinstance(v, ast.Name)}
    return passed


def _target_word(target: cst.BaseAssignTargetExpression) -> str:
    """A word for the helper's name: `x` of `x = ...`, `weights` of `self.weights = ...`."""
    if isinstance(target, cst.Name):
        return target.value
    if isinstance(target, cst.Attribute):
        return target.attr.value
    return "value"


def _extractable(value: cst.BaseExpression) -> bool:
    """A value a nested `def` can compute instead: no walrus, yield, await (they act on the caller)."""
    code = cst.Module(body=[]).code_for_node(value)
    return not re.search(r":=|\byield\b|\bawait\b", code)


class _ValueToHelper(_StatementRewriter):
    """Rewrites statement lists of the module and of function bodies, never of class bodies."""

    def __init__(self, taken: set[str], passed: set[str], form: str) -> None:
        super().__init__()
        self.taken, self.passed, self.form = taken, passed, form
        self.in_class: list[bool] = [False]  # a block's statements are leaved before its class

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.in_class.append(True)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.in_class.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.in_class.append(False)

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        self.in_class.pop()
        return updated

    def _wanted(self, line: cst.SimpleStatementLine) -> tuple[str, cst.BaseExpression] | None:
        if len(line.body) != 1:
            return None
        stmt = line.body[0]
        marked = bool(MARKER.search(cst.Module(body=[]).code_for_node(line)))
        if isinstance(stmt, cst.Assign) and _extractable(stmt.value):
            names = [t.target.value for t in stmt.targets if isinstance(t.target, cst.Name)]
            if marked or any(n in self.passed for n in names):
                return _target_word(stmt.targets[0].target), stmt.value
        if (
            isinstance(stmt, cst.Return)
            and stmt.value is not None
            and marked
            and _extractable(stmt.value)
        ):
            return "result", stmt.value
        return None

    def _replace(self, line: cst.BaseStatement) -> list[cst.BaseStatement] | None:
        if self.in_class[-1] or not isinstance(line, cst.SimpleStatementLine):
            return None
        wanted = self._wanted(line)
        if wanted is None:
            return None
        base, value = wanted
        helper = _fresh(self.taken, f"_make_{base.strip('_')}")
        # The helper's `return` line keeps the statement's own comment (its marker, if any).
        made = (
            cst.Expr(cst.Yield(value=value))
            if self.form == "generator"
            else cst.Return(value=value)
        )
        ret = cst.SimpleStatementLine(body=[made], trailing_whitespace=line.trailing_whitespace)
        define = cst.FunctionDef(
            name=cst.Name(helper),
            params=cst.Parameters(),
            body=cst.IndentedBlock(body=[ret]),
            leading_lines=line.leading_lines,
        )
        call = cst.parse_expression(_CALLS[self.form].format(helper=helper, word=base))
        stmt = line.body[0].with_changes(value=call)
        plain = cst.TrailingWhitespace()
        return [define, line.with_changes(body=[stmt], leading_lines=[], trailing_whitespace=plain)]


# How the statement gets its value back from the helper, per form (a generator's helper yields it).
_CALLS = {
    "function": "{helper}()",
    "generator": "next({helper}())",
    "factories": '{{"{word}": {helper}}}["{word}"]()',
}


def _value_to(form: str) -> Transform:
    def transform(program: Program) -> Program | None:
        def rewrite(module: cst.Module) -> cst.Module | None:
            passed = _passed_to(module, _jitted_names(module))
            visitor = _ValueToHelper(_module_names(module), passed, form)
            new = module.visit(visitor)
            return new if visitor.changed else None

        return _rewrite_each(program, rewrite)

    transform.__doc__ = f"""The right-hand side of a marked assignment or return, and of each assignment to a name passed
    to a jitted function, comes from a helper `def` placed just before it (a closure: it reads the same
    names), called as `{_CALLS[form]}`. Class bodies are left alone (a nested def does not see them)."""
    return transform


value_to_helper = _value_to("function")
value_to_generator = _value_to("generator")
value_to_factory_dict = _value_to("factories")


# --------------------------------------------------------------------------------------------------
# Top-level functions moved into another module


def _module_level_names(tree: ast.Module) -> dict[str, str]:
    """Name -> what binds it at module level: 'import', 'def', or 'other'."""
    bound: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for a in stmt.names:
                bound[a.asname or a.name.split(".")[0]] = "import"
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound[stmt.name] = "def" if stmt.name not in bound else "other"
        else:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                    bound[node.id] = "other"
                if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                    bound[node.name] = "other"
                if isinstance(node, (ast.Import, ast.ImportFrom)):  # under `try:`/`if`: not copied
                    bound.update((a.asname or a.name.split(".")[0], "other") for a in node.names)
    return bound


def _globals_read(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, module_names: set[str]
) -> set[str] | None:
    """Module-level names the function (decorators included) reads; None when it writes any (`global`)."""
    if any(isinstance(n, ast.Global) for n in ast.walk(fn)):
        return None
    read = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in module_names:
            read.add(node.id)
    return read


def _movable(tree: ast.Module) -> list[str]:
    """Top-level functions that read only imports and other movable functions: they can live elsewhere."""
    bound = _module_level_names(tree)
    defs = {
        s.name: s
        for s in tree.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and bound.get(s.name) == "def"
    }
    reads = {name: _globals_read(fn, set(bound)) for name, fn in defs.items()}
    movable = {n for n, r in reads.items() if r is not None and n != "main"}
    changed = True
    while changed:
        changed = False
        for name in sorted(movable):
            if any(
                bound[g] == "other" or (bound[g] == "def" and g not in movable)
                for g in reads[name] - {name}
            ):
                movable.discard(name)
                changed = True
    # Functions that read `__name__`/`__file__` would see another module's.
    return sorted(n for n in movable if not {"__name__", "__file__"} & reads[n])


def to_module(program: Program) -> Program | None:
    """`main.py`'s top-level functions that need nothing of it but its imports move into a new module
    (`helpers_moved.py`, which repeats those imports) and main.py imports them back by name."""
    source = program.get("main.py")
    target = "helpers_moved.py"
    if source is None or target in program:
        return None
    tree = ast.parse(source)
    moved = set(_movable(tree))
    if not moved:
        return None
    module = cst.parse_module(source)
    imports = [
        s
        for s in module.body
        if m.matches(s, m.SimpleStatementLine(body=[m.OneOf(m.Import(), m.ImportFrom())]))
    ]
    kept, taken = [], []
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in moved:
            taken.append(stmt)
        else:
            kept.append(stmt)
    helpers = cst.Module(
        body=[
            cst.SimpleStatementLine(
                body=[cst.Expr(cst.SimpleString('"""Functions moved out of main.py."""'))]
            ),
            *imports,
            *taken,
        ]
    )
    back = cst.parse_statement(f"from helpers_moved import {', '.join(sorted(moved))}\n")
    main = _insert_after_imports(module.with_changes(body=kept), [back])
    return {**program, "main.py": main.code, target: helpers.code}


# --------------------------------------------------------------------------------------------------
# Calls of jitted functions: keywords passed as `**{...}`; the first argument bound by functools.partial


class _JittedCalls(cst.CSTTransformer):
    """Rewrites calls `f(...)` of the file's jitted names with ``rewrite_call`` (None: leave it)."""

    def __init__(self, jitted: set[str], rewrite_call: Callable[[cst.Call], cst.Call | None]):
        self.jitted, self.rewrite_call = jitted, rewrite_call
        self.changed = 0

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not (isinstance(updated.func, cst.Name) and updated.func.value in self.jitted):
            return updated
        new = self.rewrite_call(updated)
        if new is None:
            return updated
        self.changed += 1
        return new


def _keywords_packed(call: cst.Call) -> cst.Call | None:
    keywords = [a for a in call.args if a.keyword is not None]
    if not keywords or any(a.star for a in call.args):
        return None
    packed = cst.Dict(
        [cst.DictElement(cst.SimpleString(f'"{a.keyword.value}"'), a.value) for a in keywords]
    )
    rest = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in call.args if a.keyword is None]
    return call.with_changes(args=[*rest, cst.Arg(packed, star="**")])


def _first_bound(call: cst.Call) -> cst.Call | None:
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return None
    first = call.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    bound = cst.Call(
        func=cst.parse_expression("functools.partial"),
        args=[cst.Arg(call.func), first],
    )
    return call.with_changes(func=bound, args=call.args[1:])


def _calls_rewritten(
    rewrite_call: Callable[[cst.Call], cst.Call | None], needs_functools: bool
) -> Transform:
    def transform(program: Program) -> Program | None:
        def rewrite(module: cst.Module) -> cst.Module | None:
            visitor = _JittedCalls(_jitted_names(module), rewrite_call)
            new = module.visit(visitor)
            if not visitor.changed:
                return None
            if needs_functools and not re.search(r"^import functools$", new.code, re.M):
                if re.search(r"\bfunctools\b", module.code):  # bound to something else
                    return None
                new = _insert_after_imports(new, [cst.parse_statement("import functools\n")])
            return new

        return _rewrite_each(program, rewrite)

    return transform


keywords_to_kwargs = _calls_rewritten(_keywords_packed, needs_functools=False)
keywords_to_kwargs.__doc__ = '`step(x, lr=lr)` of a jitted `step` becomes `step(x, **{"lr": lr})`.'
first_arg_partial = _calls_rewritten(_first_bound, needs_functools=True)
first_arg_partial.__doc__ = (
    "`step(x, y)` of a jitted `step` becomes `functools.partial(step, x)(y)`."
)


TRANSFORMS: dict[str, Transform] = {
    "alias_jax": alias_jax,
    "alias_jit": alias_jit,
    "decorator_to_call": decorator_to_call,
    "for_to_while": for_to_while,
    "value_to_helper": value_to_helper,
    "value_to_generator": value_to_generator,
    "value_to_factory_dict": value_to_factory_dict,
    "to_module": to_module,
    "keywords_to_kwargs": keywords_to_kwargs,
    "first_arg_partial": first_arg_partial,
}


def apply(name: str, program: Program) -> Program | None:
    """Run one transform; None when it declines, changes nothing, breaks the syntax or loses a marker."""
    try:
        out = TRANSFORMS[name](program)
    except (cst.ParserSyntaxError, SyntaxError, TypeError, ValueError):
        return None
    if out is None or out == program or _markers(out) != _markers(program):
        return None
    for source in out.values():
        try:
            ast.parse(source)
        except SyntaxError:
            return None
    return out
