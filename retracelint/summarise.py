"""Parse one file and summarise it: imports, definitions, jit sites, and call sites with abstract arguments.

The pass walks each function body once, in statement order, with an environment from local names to
abstract values (``values.Value``). Loops are walked twice, so that what one iteration changes is seen by
the next (accumulators, loop-carried counters). Branches are walked separately and joined. Nothing from
another module is known here: calls to other functions are recorded as dependencies and resolved at link
time, so that each summary depends only on its own file and can be cached by content.

The analysed code is never imported or executed: this module only reads it with ``ast``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Protocol

from retracelint.jitspec import BUILTIN_WRAPPERS, TRACING_APIS, TRACING_METHODS, Wrapper
from retracelint.model import Location
from retracelint.summary import (
    Arg,
    Callee,
    CallSite,
    ClassSummary,
    FunctionSummary,
    JitSpec,
    LoopInfo,
    ModuleSummary,
    Param,
)
from retracelint.values import (
    ARRAY,
    BOOL,
    CLASS,
    COMPLEX,
    DICT,
    EMPTY,
    FLIP_KINDS,
    FLOAT,
    FLOAT_LIKE,
    FUNCTION,
    INSTANCE,
    INT,
    JIT,
    JIT_OUT,
    JIT_OUT_WEAK,
    JIT_RESULTS,
    LAMBDA,
    LIST,
    NONE,
    NP_ARRAY,
    PARAM_REF,
    PARTIAL,
    SCALARS,
    SET,
    STR,
    TRANSFORM,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    WEAK,
    CallSrc,
    CarrySrc,
    Dep,
    Dims,
    ItemSrc,
    IterDep,
    Length,
    LoopSrc,
    ParamDep,
    ParamShapeSrc,
    ParamSrc,
    Poly,
    RetDep,
    Src,
    Taint,
    Value,
    axis_sources,
    combine,
    constant_length,
    join,
    kinds_differ,
    shape_sources,
    size_of,
    unaligned,
    unaligned_dep,
)

_ARRAY_MODULES = ("jax.numpy", "numpy", "jnp", "np")
_RANDOM_MODULES = ("jax.random", "numpy.random")


@dataclass(frozen=True)
class _Sized:
    """Where a function that makes an array takes its lengths from.

    ``kind``: "shape", an int or a tuple of ints; "count", the length of the one axis; "square", N
    by M (M defaulting to N); "range", ``arange``'s start, stop and step; "dims", every positional
    argument is one axis. ``default`` is the length when the argument is left out.
    """

    kind: str
    keyword: str | None = None
    position: int | None = None
    default: int | None = None
    second: str | None = None  # "square": the keyword of the second length (at the next position)


_CONSTRUCTORS = {
    "zeros": _Sized("shape", "shape", 0),
    "ones": _Sized("shape", "shape", 0),
    "empty": _Sized("shape", "shape", 0),
    "full": _Sized("shape", "shape", 0),
    "eye": _Sized("square", "N", 0, second="M"),
    "identity": _Sized("square", "n", 0),
    "arange": _Sized("range"),
    "linspace": _Sized("count", "num", 2, 50),
    "tri": _Sized("square", "N", 0, second="M"),
}
_RANDOM_CONSTRUCTORS = {
    "normal": _Sized("shape", "shape", 1),
    "uniform": _Sized("shape", "shape", 1),
    "bernoulli": _Sized("shape", "shape", 2),
    "randint": _Sized("shape", "shape", 1),
    "truncated_normal": _Sized("shape", "shape", 3),
    "categorical": _Sized("shape", "shape", 3),
    "permutation": _Sized("count", None, 1),
    # jax.random.choice(key, a, shape=()): as many draws as `shape` says, whatever the length of `a`.
    "choice": _Sized("shape", "shape", 2),
    "rand": _Sized("dims"),
    "randn": _Sized("dims"),
}
# How the parts of a join line up: ("cat", k) joins them along axis k (the lengths there add up),
# ("new", k) stacks them on a new axis k (as long as there are parts). Second: how 1-D parts join,
# when that differs. ``concatenate`` and ``stack`` take the axis from their ``axis`` argument.
_JOINS: dict[str, tuple[tuple[str, int], tuple[str, int] | None]] = {
    "concatenate": (("cat", 0), None),
    "stack": (("new", 0), None),
    "hstack": (("cat", 1), ("cat", 0)),
    "vstack": (("cat", 0), ("new", 0)),
    "row_stack": (("cat", 0), ("new", 0)),
    "column_stack": (("cat", 1), ("new", 1)),
}
_GROWERS = {
    "concatenate",
    "append",
    "vstack",
    "hstack",
    "stack",
    "column_stack",
    "dstack",
    "row_stack",
}
_DATA_DEPENDENT = {
    "nonzero",
    "argwhere",
    "flatnonzero",
    "unique",
    "unique_values",
    "compress",
    "extract",
}
_REDUCTIONS = {
    "sum",
    "mean",
    "max",
    "min",
    "prod",
    "std",
    "var",
    "argmax",
    "argmin",
    "all",
    "any",
    "median",
    "count_nonzero",
    "average",
    "logsumexp",
    "norm",
    "item",
}
_FROM_LIST = {"array", "asarray", "stack", "concatenate", "vstack", "hstack"}
# Array methods whose result keeps the array's shape, and those that keep its size but move its axes.
_ARRAY_METHODS_KEEP = {"astype", "copy", "clip", "round", "block_until_ready"}
_ARRAY_METHODS_MOVE = {"squeeze", "flatten", "ravel", "transpose", "T"}
_TRANSFORMS = {
    "jax.grad",
    "jax.value_and_grad",
    "jax.vmap",
    "jax.jacfwd",
    "jax.jacrev",
    "jax.hessian",
    "jax.checkpoint",
    "jax.remat",
    "jax.custom_jvp",
    "jax.custom_vjp",
}
_PARTIALS = {"functools.partial", "partial"}
_MEMOISER = re.compile(r"cache|memo", re.IGNORECASE)
_LIST_GROW_METHODS = {"append", "extend", "insert"}
# How list methods change a list's length (None: by the length of their argument).
_LIST_RESIZE: dict[str, int | None] = {
    "append": 1,
    "insert": 1,
    "extend": None,
    "pop": -1,
    "remove": -1,
    "clear": 0,
}
_LOADER_CLASSES = {"DataLoader", "torch.utils.data.DataLoader"}
# Calls into these are never into the analysed code (jit wrappers are recognised before this check).
_EXTERNAL = (
    "jax.",
    "numpy",
    "jax",
    "math",
    "functools",
    "itertools",
    "collections",
    "typing",
    "os",
    "sys",
)
_LOADER_PASS_METHODS = {
    "as_numpy_iterator",
    "prefetch",
    "shuffle",
    "repeat",
    "map",
    "cache",
    "take",
}


@dataclass
class SummaryOptions:
    wrappers: dict[str, Wrapper] = field(default_factory=lambda: dict(BUILTIN_WRAPPERS))


_NEWLINE = re.compile(r"\r\n|\r|\n")
# A loop over the axes of an array walks a small fixed set of values: each compiles once, then hits.
_AXES = re.compile(r"\bndim\b|\.shape\b|\bshape\)|\baxes\b")


def source_lines(text: str) -> list[str]:
    """The physical lines as Python counts them (form feeds and other separators do not end a line)."""
    return _NEWLINE.split(text)


def _char_index_of_bytes(line: str) -> list[int]:
    """For each UTF-8 byte offset of ``line`` (and its end), the index of the character it falls in."""
    out: list[int] = []
    for index, char in enumerate(line):
        out.extend([index] * len(char.encode("utf-8", "surrogatepass")))
    out.append(len(line))
    return out


class _Positions:
    """Turns ast positions (UTF-8 byte columns) into 1-based character columns, as editors count."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = source_lines(text)
        self._columns: dict[int, list[int]] = {}  # non-ASCII lines: character index of each byte

    def col(self, lineno: int, byte_col: int) -> int:
        if 1 <= lineno <= len(self.lines):
            line = self.lines[lineno - 1]
            if not line.isascii():
                columns = self._columns.get(lineno)
                if columns is None:
                    columns = self._columns[lineno] = _char_index_of_bytes(line)
                return columns[min(byte_col, len(columns) - 1)] + 1
        return byte_col + 1

    def text(self, node: ast.AST | None, limit: int = 60) -> str:
        """The source of ``node`` as written (one line, clipped): cheaper than unparsing it."""
        if node is None:
            return ""
        line_no = getattr(node, "lineno", None)
        if line_no is not None and line_no == getattr(node, "end_lineno", None):
            line = self.lines[line_no - 1] if line_no <= len(self.lines) else ""
            start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
            if line.isascii():
                return _clip(line[start:end], limit)
            first, last = self.col(line_no, start) - 1, self.col(line_no, end) - 1
            return _clip(line[first:last], limit)
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
        return Location(
            self.path,
            line,
            self.col(line, getattr(node, "col_offset", 0)),
            end_line,
            self.col(end_line, end_col) if end_col is not None else 0,
        )


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
        tree = ast.parse(text, filename=summary.path)
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


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _given(keywords: dict[str, ast.expr], name: str | None) -> ast.expr | None:
    """The value of keyword ``name``; None when the wrapper has no such keyword, or it is absent or
    None (jax reads all three alike)."""
    node = keywords.get(name) if name else None
    return None if isinstance(node, ast.Constant) and node.value is None else node


def _literal_ints(node: ast.AST | None) -> tuple[int, ...] | None:
    """``static_argnums`` as written: an int or a sequence of ints; None when not a literal."""
    return _literal_items(node, lambda v: isinstance(v, int) and not isinstance(v, bool))


def _literal_strs(node: ast.AST | None) -> tuple[str, ...] | None:
    """``static_argnames`` as written: a str or a sequence of strs; None when not a literal."""
    return _literal_items(node, lambda v: isinstance(v, str))


def _literal_items(node: ast.AST | None, accept: Callable[[object], bool]) -> tuple | None:
    if node is None:
        return ()
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if accept(value):
        return (value,)
    if isinstance(value, tuple | list) and all(accept(v) for v in value):
        return tuple(value)
    return None


_ANNOTATION_TYPES = {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR, "complex": COMPLEX}


def _annotation_type(node: ast.AST | None) -> str | None:
    """The coarse type of a plain scalar annotation (``float``, ``"int"``); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _ANNOTATION_TYPES.get(node.value.strip())
    return _ANNOTATION_TYPES.get(node.id) if isinstance(node, ast.Name) else None


def _params(args: ast.arguments) -> tuple[Param, ...]:
    out: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    n_defaults = len(args.defaults)
    first_default = len(positional) - n_defaults
    for i, arg in enumerate(positional):
        kind = "posonly" if i < len(args.posonlyargs) else "normal"
        out.append(_param(arg.arg, kind, i >= first_default, _annotation_type(arg.annotation)))
    if args.vararg:
        out.append(_param(args.vararg.arg, "vararg"))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out.append(_param(arg.arg, "kwonly", default is not None, _annotation_type(arg.annotation)))
    if args.kwarg:
        out.append(_param(args.kwarg.arg, "kwarg"))
    return tuple(out)


@lru_cache(maxsize=4096)
def _param(name: str, kind: str, has_default: bool = False, annotation: str | None = None) -> Param:
    """One object per distinct parameter (``self``, ``x``, ``*args``...): a module's summary pickles
    each once: 43,000 fewer objects to load for the corpus (69,805 -> 26,939 parameters)."""
    return Param(name, kind, has_default, annotation)


def _joined(before: dict[str, Value], after: dict[str, Value]) -> dict[str, Value]:
    """The environment after a loop: each name may hold its value from before or from the body."""
    return {**before, **{n: join(before[n], v) if n in before else v for n, v in after.items()}}


def _carried_out(values: dict[str, Value], names: _LoopNames, src: Src) -> dict[str, Value]:
    """The environment after one walk of a loop body, carry markers dropped: a name the body assigns
    from its own value at the previous iteration varies per iteration (``src``), unless every value
    the body gives it is loop-invariant (it keeps its old value or takes that one)."""
    out = {}
    assigned = names.assigned
    for name, value in values.items():
        carried = (
            name in assigned
            and _has_carry(value)
            and not names.steady(name)
            and _carries(value, names)
        )
        value = _drop_carry(value)
        if name in assigned and value.dims is not None:
            # Its lengths were this iteration's: atoms made in the loop name new values each time.
            value = value.with_(dims=None)
        out[name] = value.with_(vsrc=value.vsrc | {src}) if carried else value
    return out


def _carries(value: Value, names: _LoopNames) -> bool:
    """Whether ``value`` derives from the previous iteration's value of a name that is not steady."""

    def carries(sources: frozenset[Src]) -> bool:
        return any(isinstance(s, CarrySrc) and not names.steady(s.name) for s in sources)

    return carries(value.vsrc) or any(carries(t.sources) for t in value.shape)


class _LoopNames:
    """The names a loop body binds (not descending into nested defs), and which of them are steady:
    only ever assigned loop-invariant expressions (``n = mesh.shape["x"]``, maybe under an
    ``if n is None``), computed from names the body does not bind and calling nothing but pure
    builtins. Whatever the iteration, a steady name holds its value from before the loop or that one
    value. Steadiness is worked out only for the names asked about: few are."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.assigned: set[str] = set()
        self._plain: dict[str, list[ast.expr]] = {}  # values of `name = value` statements
        self._otherwise: set[str] = set()  # also bound by for, +=, unpacking, with, except...
        self._steady: dict[str, bool] = {}
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            kind = type(node)  # one look-up per node: loop bodies are most of a project's code
            if kind in _SCOPES:
                continue
            if kind is ast.Name:
                if type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                    self.assigned.add(node.id)  # type: ignore[attr-defined]
                    self._otherwise.add(node.id)  # type: ignore[attr-defined]
                continue
            if (kind is ast.Assign or kind is ast.AnnAssign) and node.value is not None:  # type: ignore[attr-defined]
                targets = node.targets if kind is ast.Assign else [node.target]  # type: ignore[attr-defined]
                if all(type(t) is ast.Name for t in targets):
                    for target in targets:
                        self.assigned.add(target.id)
                        self._plain.setdefault(target.id, []).append(node.value)  # type: ignore[attr-defined]
                    stack.append(node.value)  # type: ignore[attr-defined]
                    continue
            stack.extend(ast.iter_child_nodes(node))

    def steady(self, name: str) -> bool:
        known = self._steady.get(name)
        if known is None:
            values = self._plain.get(name)
            known = self._steady[name] = (
                bool(values)
                and name not in self._otherwise
                and all(_invariant(v, self.assigned) for v in values)  # type: ignore[union-attr]
            )
        return known


def _invariant(node: ast.AST, assigned: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in assigned:
            return False
        if isinstance(sub, ast.Call) and not (
            isinstance(sub.func, ast.Name) and sub.func.id in _PURE_BUILTINS
        ):
            return False
        if isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await | ast.NamedExpr):
            return False
    return True


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_PURE_BUILTINS = {"len", "int", "float", "bool", "str", "min", "max", "abs", "round", "tuple"}


# ---------------------------------------------------------------------------------------------------
# Slice widths and lengths as polynomials: x[i:i+bs] has width bs whatever i is, x[:i] has width i,
# and np.pad(x, (0, size - len(x))) has length size.

# Atoms of a polynomial: the expression an atom stands for (its sources are read when needed), or
# directly what makes it change (the atoms of a length read off a value).
Atoms = dict[str, ast.AST | frozenset]


class _Reader(Protocol):
    """What a function's walk knows when it reads a polynomial: lengths, and the source text."""

    def length_read(self, node: ast.AST, atoms: Atoms) -> Poly | None:
        """``len(x)`` or ``x.shape[k]`` as the polynomial known for it (None: not a length)."""

    def source(self, node: ast.AST) -> str: ...


def _poly(
    node: ast.AST | None,
    atoms: Atoms,
    defs: dict[str, ast.AST] | None = None,
    depth: int = 0,
    reader: _Reader | None = None,
) -> Poly:
    """``node`` as a polynomial over opaque atoms; names assigned arithmetic (or a length) locally are
    expanded, and a ``reader`` reads lengths as the polynomials known for them."""
    if node is None:
        return {}
    if isinstance(node, ast.Name) and defs and depth < 4:
        definition = defs.get(node.id)
        if (
            isinstance(definition, ast.BinOp | ast.UnaryOp | ast.Constant)
            or (reader is not None and _length_read(definition) is not None)
        ) and not _mentions(definition, node.id):  # i = i + 1 says nothing of i
            return _poly(definition, atoms, defs, depth + 1, reader)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        return {(): node.value} if node.value else {}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return {k: -v for k, v in _poly(node.operand, atoms, defs, depth, reader).items()}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        left = _poly(node.left, atoms, defs, depth, reader)
        right = _poly(node.right, atoms, defs, depth, reader)
        sign = 1 if isinstance(node.op, ast.Add) else -1
        return _add(left, right, sign)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left = _poly(node.left, atoms, defs, depth, reader)
        return _mul(left, _poly(node.right, atoms, defs, depth, reader))
    if reader is not None:
        read = reader.length_read(node, atoms)
        if read is not None:
            return read
    name = _atom_name(node, defs, reader)
    atoms[name] = node
    return {(name,): 1}


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _atom_name(
    node: ast.AST, defs: dict[str, ast.AST] | None, reader: _Reader | None = None
) -> str:
    """An atom's name: its text, and for a local name the place it was assigned, so that a name
    assigned again is another atom."""
    text = _dotted(node) or (reader.source(node) if reader is not None else ast.unparse(node))
    definition = defs.get(node.id) if defs and isinstance(node, ast.Name) else None
    if definition is None:
        return text
    return f"{text}@{definition.lineno}:{definition.col_offset}"  # type: ignore[attr-defined]


def _length_read(node: ast.AST | None) -> tuple[ast.AST, int] | None:
    """``len(x)`` -> (x, 0), ``x.shape[k]`` -> (x, k); None for anything else."""
    kind = type(node)
    if kind is not ast.Call and kind is not ast.Subscript:
        return None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0], 0
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "shape"
        and isinstance(node.slice, ast.Constant)
        and type(node.slice.value) is int
        and node.slice.value >= 0
    ):
        return node.value.value, node.slice.value
    return None


def _add(left: Poly, right: Poly, sign: int) -> Poly:
    out = dict(left)
    for k, v in right.items():
        out[k] = out.get(k, 0) + sign * v
    return {k: v for k, v in out.items() if v}


def _mul(left: Poly, right: Poly) -> Poly:
    out: Poly = {}
    for lk, lv in left.items():
        for rk, rv in right.items():
            key = tuple(sorted(lk + rk))
            out[key] = out.get(key, 0) + lv * rv
    return {k: v for k, v in out.items() if v}


def _constant(poly: Poly) -> int | None:
    """The value of a polynomial without atoms; None when it has some."""
    if len(poly) > 1 or (poly and () not in poly):
        return None
    return poly.get((), 0)


def _atoms_in(poly: Poly) -> set[str]:
    return {atom for monomial in poly for atom in monomial}


def _length_atom(
    node: ast.AST, axis: int, defs: dict[str, ast.AST], reader: _Reader | None = None
) -> str:
    """The atom for an unknown length of ``node``. An expression that calls something may give
    another value each time it is evaluated, so it names its own place too."""
    name = _atom_name(node, defs, reader)
    if not isinstance(node, ast.Name) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
        name = f"{name}@{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0)}"
    return f"len({name})" if axis == 0 else f"{name}.shape[{axis}]"


def _cut(dep: Dep, axis: int, atoms_left: bool, left: frozenset[Src]) -> Dep:
    """``dep`` once the length of ``axis`` is known: it brings no more changes there when nothing of
    its length is left in it. A call's result may enter the length through any atom, so it is cut
    only when the length is constant."""
    if not dep.aligned or axis in dep.fixed:
        return dep
    cut = not atoms_left or (isinstance(dep, ParamDep) and not _shape_of(dep.name, left))
    return replace(dep, fixed=dep.fixed | {axis}) if cut else dep


def _positions(value: Value) -> bool:
    """Whether an index is a 1-D array of integer positions (not a mask, not a scalar)."""
    dims = value.dims
    return (
        value.ty in (ARRAY, NP_ARRAY)
        and value.dtype != "bool"
        and dims is not None
        and dims.ranked
        and len(dims.lens) == 1
    )


def _shape_of(param: str, sources: frozenset[Src]) -> bool:
    """Whether ``sources`` include a length of parameter ``param``."""
    return any(isinstance(s, ParamShapeSrc) and s.name == param for s in sources)


def _substitute(poly: Poly, var: str, value: Poly) -> Poly | None:
    """``poly`` with atom ``var`` replaced by ``value``; None when ``var`` is not a plain term of it."""
    coefficient = poly.get((var,), 0)
    if any(var in monomial for monomial in poly if monomial != (var,)):
        return None
    rest = {k: v for k, v in poly.items() if k != (var,)}
    return _add(rest, {k: v * coefficient for k, v in value.items()}, 1)


def _min_call(node: ast.AST | None, defs: dict[str, ast.AST]) -> ast.Call | None:
    """``min(a, b, ...)`` as written or as a local name was assigned it."""
    if isinstance(node, ast.Name):
        node = defs.get(node.id)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "min"
        and len(node.args) >= 2
        and not node.keywords
        and not any(isinstance(a, ast.Starred) for a in node.args)
    ):
        return node
    return None


_NO_DIMS = Dims(())


@lru_cache(maxsize=64)
def _counted(n: int) -> Dims:
    """The dims of a display of ``n`` items (one object per count: displays are everywhere)."""
    return Dims((constant_length(n),))


def _per_iteration(atom: ast.AST | frozenset, loop: LoopSrc) -> bool:
    """Whether a length atom may differ between iterations of ``loop``."""
    if not isinstance(atom, frozenset):
        return True
    return loop in atom or any(isinstance(s, CarrySrc) for s in atom)


def _jumps(body: list[ast.stmt]) -> bool:
    """Whether a loop body may skip the rest of an iteration or end the loop (break, continue);
    the loops and functions nested in it keep theirs."""
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.Break | ast.Continue):
            return True
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            stack.extend(stmt.orelse)
            continue
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(stmt, name, None) or ())
    return False


_END = "<end>"


@dataclass
class _RangeLoop:
    var: str
    start: ast.AST | None
    stop: ast.AST | None
    step: ast.AST | None


class _ModulePass:
    def __init__(self, summary: ModuleSummary, pos: _Positions, options: SummaryOptions) -> None:
        self.summary = summary
        self.pos = pos
        self.options = options
        self.module = summary.module
        # The def of each declared function, so that its body is walked exactly once.
        self.nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}

    def run(self, tree: ast.Module) -> None:
        self._collect_imports(tree)
        self._declare(tree.body, prefix=self.module, cls=None)
        top = FunctionSummary(
            self.summary.toplevel, "<module>", self.pos.of(tree), (), kind="module"
        )
        self.summary.functions[top.qualname] = top
        body_pass = _FunctionPass(self, top, None, module_level=True)
        body_pass.run(tree.body)
        self.summary.globals = {
            k: v for k, v in body_pass.env.items() if v.site is not None or v.ty != UNKNOWN
        }
        # Module-level functions are walked once every global is known, wherever it is assigned.
        for fn, node, cls in body_pass.deferred:
            body_pass.walk_function(fn, node, cls)

    # -- imports ------------------------------------------------------------------------------------
    def _collect_imports(self, tree: ast.Module) -> None:
        """Every import in the file, wherever it is: a name imported in a function body is still that name."""
        imports = self.summary.imports
        for node in _statements(tree.body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        imports[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        imports.setdefault(head, head)
            elif isinstance(node, ast.ImportFrom):
                base = self._resolve_from(node)
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    target = f"{base}.{alias.name}" if base else alias.name
                    imports[alias.asname or alias.name] = target

    def _resolve_from(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = self.module.split(".")
        keep = len(parts) - node.level + (1 if self.summary.is_package else 0)
        base = ".".join(parts[: max(keep, 0)])
        if node.module:
            return f"{base}.{node.module}" if base else node.module
        return base

    def canonical(self, dotted: str) -> str:
        head, _, rest = dotted.partition(".")
        target = self.summary.imports.get(head)
        if target is None:
            return dotted
        return f"{target}.{rest}" if rest else target

    def wrapper(self, node: ast.AST) -> Wrapper | None:
        dotted = _dotted(node)
        if dotted is None:
            return None
        return self.options.wrappers.get(self.canonical(dotted))

    # -- definitions --------------------------------------------------------------------------------
    def _declare(self, body: list[ast.stmt], prefix: str, cls: ClassSummary | None) -> None:
        """Create summaries for the defs and classes of a module or class body (bodies walked later)."""
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.declare_function(node, f"{prefix}.{node.name}", cls, parent=None)
            elif isinstance(node, ast.ClassDef):
                self._declare_class(node, f"{prefix}.{node.name}")
            elif isinstance(node, ast.If | ast.Try):
                # Defs under `if TYPE_CHECKING:` / `try: ... except ImportError:` are still module defs.
                for block in _blocks(node):
                    self._declare(block, prefix, cls)

    def _declare_class(self, node: ast.ClassDef, qualname: str) -> None:
        bases = tuple(self.canonical(d) for d in map(_dotted, node.bases) if d)
        info = ClassSummary(qualname, node.name, self.pos.of(node), bases)
        defined = set()
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                defined.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if (
                        isinstance(target, ast.Name)
                        and target.id == "__hash__"
                        and isinstance(stmt.value, ast.Constant)
                        and stmt.value.value is None
                    ):
                        info.unhashable = True
        frozen, dataclass_eq = self._dataclass_flags(node)
        named_tuple = any(b in ("typing.NamedTuple", "NamedTuple", "enum.Enum") for b in bases)
        info.value_hashed = named_tuple or frozen or {"__eq__", "__hash__"} <= defined
        if dataclass_eq and not frozen and "__hash__" not in defined:
            info.unhashable = True
        self.summary.classes[qualname] = info
        self._declare(node.body, qualname, info)

    def _dataclass_flags(self, node: ast.ClassDef) -> tuple[bool, bool]:
        """(frozen, eq) for a dataclass-like decorator; (False, False) when not a dataclass."""
        for deco in node.decorator_list:
            call = deco if isinstance(deco, ast.Call) else None
            name = _dotted(call.func if call else deco) or ""
            canon = self.canonical(name)
            if not canon.endswith("dataclass") and not canon.endswith("dataclasses.dataclass"):
                continue
            kw = {k.arg: k.value for k in (call.keywords if call else []) if k.arg}
            frozen = _is_true(kw.get("frozen"))
            if canon in ("flax.struct.dataclass", "chex.dataclass") and "frozen" not in kw:
                frozen = canon == "flax.struct.dataclass"
            unsafe_hash = _is_true(kw.get("unsafe_hash"))
            eq = not (isinstance(kw.get("eq"), ast.Constant) and kw["eq"].value is False)  # type: ignore[union-attr]
            return frozen or unsafe_hash, eq
        return False, False

    def declare_function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        qualname: str,
        cls: ClassSummary | None,
        parent: str | None,
    ) -> FunctionSummary:
        kind = "method" if cls else "function"
        memoised = False
        for deco in node.decorator_list:
            name = _dotted(deco)
            if name in ("staticmethod", "classmethod"):
                kind = name
            called = (_dotted(deco.func) if isinstance(deco, ast.Call) else name) or ""
            # functools.cache and lru_cache, and the projects' own (jax's util.cache, memoize...).
            memoised = memoised or _MEMOISER.search(called.rpartition(".")[2]) is not None
        fn = FunctionSummary(
            qualname,
            node.name,
            self.pos.of(node),
            _params(node.args),
            cls=cls.qualname if cls else None,
            kind=kind,
            parent=parent,
            memoised=memoised,
        )
        self.summary.functions[qualname] = fn
        if cls is not None:
            cls.methods[node.name] = qualname
        self.nodes[qualname] = node
        return fn

    def jit_from_decorators(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        fn: FunctionSummary,
        context: _FunctionPass,
    ) -> int | None:
        for deco in node.decorator_list:
            spec = self.decorator_spec(deco)
            if spec is None:
                continue
            wrapper, kwargs = spec
            nested = fn.parent is not None
            return context.new_jit(
                wrapper,
                deco,
                kwargs,
                target=("qual", fn.qualname),
                target_text=fn.name,
                fresh="nested def" if nested else None,
                fresh_sources=context.context_src() if nested else EMPTY,
                decorated=True,
            )
        return None

    def decorator_spec(self, deco: ast.AST) -> tuple[Wrapper, list[ast.keyword]] | None:
        wrapper = self.wrapper(deco)
        if wrapper is not None:
            return wrapper, []
        if not isinstance(deco, ast.Call):
            return None
        wrapper = self.wrapper(deco.func)
        if wrapper is not None:  # @jax.jit(static_argnames=...)
            return wrapper, deco.keywords
        if self.canonical(_dotted(deco.func) or "") in _PARTIALS and deco.args:
            wrapper = self.wrapper(deco.args[0])
            if wrapper is not None:  # @partial(jax.jit, static_argnums=...)
                return wrapper, deco.keywords
        return None


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, nested ones included, without walking into expressions (imports are statements)."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(stmt, name, None)
            if block:
                stack.extend(reversed(block))


def _blocks(node: ast.If | ast.Try) -> Iterator[list[ast.stmt]]:
    if isinstance(node, ast.If):
        yield node.body
        yield node.orelse
    else:
        yield node.body
        for handler in node.handlers:
            yield handler.body
        yield node.orelse
        yield node.finalbody


def _is_true(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


class _FunctionPass:
    """Abstract interpretation of one function body (or the module's top level)."""

    def __init__(
        self,
        mod: _ModulePass,
        fn: FunctionSummary,
        cls: ClassSummary | None,
        module_level: bool = False,
    ) -> None:
        self.mod = mod
        self.fn = fn
        self.cls = cls
        self.module_level = module_level
        self.env: dict[str, Value] = {}
        self.loops: list[int] = []
        self.ranges: dict[int, _RangeLoop] = {}
        self.loop_ids: dict[int, int] = {}
        self.defs: dict[str, ast.AST] = {}  # last expression assigned to a name (for range bounds)
        self.assigned: dict[int, set[str]] = {}  # per loop: the names its body assigns
        self.recording = True
        self.returns: Value | None = None
        self.yields: Value | None = None
        self.deferred: list[
            tuple[FunctionSummary, ast.FunctionDef | ast.AsyncFunctionDef, ClassSummary | None]
        ] = []
        for param in fn.params:
            self.env[param.name] = Value(
                ty=param.annotation or UNKNOWN,
                vsrc=frozenset({ParamSrc(param.name)}),
                deps=frozenset({ParamDep(param.name)}),
                ref=PARAM_REF + param.name,
            )
        if cls is not None and fn.kind in ("method", "classmethod") and fn.params:
            self.env[fn.params[0].name] = Value(ty=INSTANCE, ref="<self>")

    # -- driver -------------------------------------------------------------------------------------
    def run(self, body: list[ast.stmt], returns: str | None = None) -> None:
        self.block(body)
        if returns and self.returns is not None and self.returns.ty == UNKNOWN:
            self.returns = self.returns.with_(ty=returns)
        self.fn.returns = _export(self.returns)
        self.fn.yields = _export(self.yields, item=True)
        self.fn.loops.sort(key=lambda loop: loop.index)

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            handler = getattr(self, "s_" + type(stmt).__name__, None)
            if handler is not None:
                handler(stmt)
            else:
                for child in ast.iter_child_nodes(stmt):
                    if isinstance(child, ast.expr):
                        self.expr(child)

    def context_src(self) -> frozenset[Src]:
        """Where a freshly made object comes from: a new one per iteration, per call, or once."""
        if self.loops:
            return frozenset({LoopSrc(self.loops[-1])})
        return EMPTY if self.module_level else frozenset({CallSrc()})

    def loc(self, node: ast.AST) -> Location:
        return self.mod.pos.of(node)

    # -- statements ---------------------------------------------------------------------------------
    def s_Expr(self, node: ast.Expr) -> None:
        self.expr(node.value)

    def s_Assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value)
        for target in node.targets:
            self.bind(target, value, node.value)

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.bind(node.target, self.expr(node.value), node.value)

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        current = self.expr(node.target) if isinstance(node.target, ast.Name) else UNKNOWN_VALUE
        rhs = self.expr(node.value)
        if isinstance(node.target, ast.Name):
            value = self.arith(current, rhs, node.op, (node.target, node.value))
            self.defs.pop(node.target.id, None)
            if (
                current.ty in (LIST, TUPLE)
                and isinstance(node.op, ast.Add)
                and self.loops
                and not self.sized_anew(node.target, value)
            ):
                value = self.grow(value, node, f"{node.target.id} += ...")
            self.env[node.target.id] = value
        else:
            self.bind(node.target, rhs, node.value)

    def s_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else Value(ty=NONE)
        self.returns = value if self.returns is None else join(self.returns, value)

    def s_If(self, node: ast.If) -> None:
        condition = self.expr(node.test)
        self.branches([node.body, node.orelse], _none_test(node.test), condition)

    def s_Try(self, node: ast.Try) -> None:
        self.block(node.body)
        self.branches([h.body for h in node.handlers] + [node.orelse])
        self.block(node.finalbody)

    s_TryStar = s_Try

    def s_With(self, node: ast.With) -> None:
        for item in node.items:
            value = self.expr(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, item.context_expr)
        self.block(node.body)

    s_AsyncWith = s_With

    def s_Match(self, node: ast.Match) -> None:
        self.expr(node.subject)
        self.branches([case.body for case in node.cases] + [[]])

    def branches(
        self,
        blocks: list[list[ast.stmt]],
        not_none: tuple[str, int] | None = None,
        condition: Value | None = None,
    ) -> None:
        """Walk each block from the same environment and join what they leave. ``not_none``: a name
        and the block in which a test (``x is not None``) says it is not None."""
        before = self.env
        made_before = self.defs
        results = []
        made: list[dict[str, ast.AST]] = []
        for i, block in enumerate(blocks):
            self.env = dict(before)
            self.defs = dict(made_before)
            if not_none is not None and not_none[1] == i and not_none[0] in self.env:
                self.env[not_none[0]] = _not_none(self.env[not_none[0]])
            self.block(block)
            results.append(self.env)
            made.append(self.defs)
        merged = dict(results[0])
        for env in results[1:]:
            for name, value in env.items():
                merged[name] = join(merged[name], value) if name in merged else value
        self.env = merged
        self.defs = {k: v for defs in made for k, v in defs.items()}
        if condition is not None and condition.vsrc:
            self.note_branch_flips(results, made, condition.vsrc)

    def note_branch_flips(
        self, results: list[dict[str, Value]], made: list[dict[str, ast.AST]], when: frozenset
    ) -> None:
        """A name that one branch binds to one kind of value and another to another kind (a Python
        float here, an array there), under a condition that changes between executions, passes two
        signatures to a jitted function: the finding goes where the first branch's value is made."""
        for name in sorted(set.intersection(*(set(env) for env in results))):
            values = [env[name] for env in results]
            for other, value in enumerate(values[1:], start=1):
                flip = _kind_flip(values[0], value)
                if flip is None:
                    continue
                code, first, then = flip
                # The odd one is the weak scalar or the None, where there is one.
                odd = other if then in (WEAK, "None") else 0
                node = made[odd].get(name) or made[other - odd].get(name)
                if node is None:
                    continue
                what = f"{name} is {first} in one branch and {then} in another"
                taint = Taint(code, what, self.loc(node), when)
                self.env[name] = self.env[name].with_(shape=self.env[name].shape | {taint})
                break

    def s_For(self, node: ast.For) -> None:
        iterable = self.expr(node.iter)
        index = self.new_loop(
            node, f"for {ast.unparse(node.target)} in {self.mod.pos.text(node.iter)}"
        )
        self.note_range(index, node)

        def bind_target() -> None:
            self.bind(node.target, self.item_of(iterable, index, node.iter), None)

        self.loop(index, node.body, bind_target, node)
        self.block(node.orelse)

    s_AsyncFor = s_For

    def s_While(self, node: ast.While) -> None:
        index = self.new_loop(node, f"while {self.mod.pos.text(node.test)}")
        self.loop(index, node.body, lambda: self.expr(node.test))
        self.block(node.orelse)

    def new_loop(self, node: ast.AST, text: str, location: Location | None = None) -> int:
        # Enclosing loops walk their body twice: the same loop statement keeps its index.
        index = self.loop_ids.get(id(node))
        if index is None:
            index = self.loop_ids[id(node)] = len(self.fn.loops)
            iterable = getattr(node, "iter", None)
            over_axes = iterable is not None and _AXES.search(ast.unparse(iterable)) is not None
            where = location or self.loc(node)
            count = _iterations(iterable)
            self.fn.loops.append(LoopInfo(index, where, text, over_axes, count))
        return index

    def loop(
        self, index: int, body: list[ast.stmt], head: object, node: ast.AST | None = None
    ) -> None:
        """Walk a loop body twice: the first pass finds what each iteration carries into the next.

        Inside an enclosing loop's first (silent) pass one walk is enough, which keeps nested loops
        linear in depth rather than exponential. ``node``: the for statement, if it is one.
        """
        if not self.recording:
            self.silent_loop(index, body, head, node)
            return
        names = _LoopNames(body)
        assigned = self.assigned[index] = names.assigned
        before = self.env
        made_before = dict(self.defs)
        self.loops.append(index)
        was_recording = self.recording
        self.recording = False
        first = self.walk_carrying(body, head, before, assigned)
        self.env = _joined(before, _carried_out(first, names, LoopSrc(index)))
        self.note_carried_flips(index, before, first, made_before)
        self.recording = was_recording
        head()  # type: ignore[operator]
        self.block(body)
        after = self.env
        self.loops.pop()
        self.env = _joined(before, after)
        self.filled(index, node, before, first, assigned)

    def note_carried_flips(
        self,
        index: int,
        before: dict[str, Value],
        after: dict[str, Value],
        made_before: dict[str, ast.AST],
    ) -> None:
        """A name that enters the loop as one kind of value and leaves an iteration as another
        (``level = 0.0`` then ``level = smooth(level, x)``; ``state = None`` then an array) passes a new
        signature to a jitted function on the first iteration and the next: the value made before the
        loop is the odd one, and the finding goes there."""
        for name in sorted(before.keys() & after.keys()):
            flip = _kind_flip(before[name], after[name])
            if flip is None:
                continue
            code, start, then = flip
            made = made_before.get(name)
            origin = self.loc(made) if made is not None else self.fn.loops[index].location
            what = f"{name} starts as {start} and is {then}"
            taint = Taint(code, what, origin, frozenset({LoopSrc(index)}))
            self.env[name] = self.env[name].with_(shape=self.env[name].shape | {taint})

    def silent_loop(
        self, index: int, body: list[ast.stmt], head: object, node: ast.AST | None = None
    ) -> None:
        """One walk of a loop body that only tracks what it carries (no call sites are recorded)."""
        names = _LoopNames(body)
        assigned = self.assigned[index] = names.assigned
        before = self.env
        self.loops.append(index)
        after = self.walk_carrying(body, head, before, assigned)
        self.loops.pop()
        self.env = _joined(before, _carried_out(after, names, LoopSrc(index)))
        self.filled(index, node, before, after, assigned)

    def trip_count(self, node: ast.For | ast.AsyncFor, assigned: set[str]) -> Length | None:
        """How many times a for loop runs its body to the end: range(...) or the length of what it
        walks; None when unknown, when the body may break or skip, or when it assigns a name the
        count is read from (asked after the loop, the count must be what it was before)."""
        if _jumps(node.body) or any(
            isinstance(n, ast.Name) and n.id in assigned for n in ast.walk(node.iter)
        ):
            return None
        call = node.iter
        name = self.mod.canonical(_dotted(call.func) or "") if isinstance(call, ast.Call) else ""
        atoms: Atoms = {}
        if name == "range" and isinstance(call, ast.Call):
            if call.keywords or not 1 <= len(call.args) <= 3:
                return None
            if any(isinstance(a, ast.Starred) for a in call.args):
                return None
            start = call.args[0] if len(call.args) > 1 else None
            stop = call.args[1] if len(call.args) > 1 else call.args[0]
            count = _add(
                self.poly(stop, atoms),
                self.poly(start, atoms),
                -1,
            )
            if len(call.args) == 3 and _constant(_poly(call.args[2], {}, self.defs)) != 1:
                return None
            return self.length(count, atoms)
        walked = call.args[0] if name == "enumerate" and isinstance(call, ast.Call) else call
        if not isinstance(walked, ast.Name | ast.Attribute) or name not in ("", "enumerate"):
            return None
        return self.length(self.length_of(walked, self.quiet(walked), 0, atoms), atoms)

    def filled(
        self,
        index: int,
        node: ast.AST | None,
        before: dict[str, Value],
        first: dict[str, Value],
        assigned: set[str],
    ) -> None:
        """Lists that each iteration of a for loop grows by the same number of items (``append`` in
        a fixed loop): their length after the loop is known, and they change with the trip count,
        not per iteration of the loop."""
        if not isinstance(node, ast.For | ast.AsyncFor):
            return
        loop = LoopSrc(index)
        trips: Length | None = None
        for name, old in before.items():
            new = first.get(name)
            if name in assigned or new is None or new is old:
                continue
            start = old.dims.length(0) if old.dims is not None else None
            end = new.dims.length(0) if new.dims is not None else None
            if start is None or end is None:
                continue
            trips = trips or self.trip_count(node, assigned)
            if trips is None:
                return
            step = _add(end.poly, start.poly, -1)
            atoms: Atoms = {**dict(start.atoms), **dict(end.atoms), **dict(trips.atoms)}
            if any(_per_iteration(atoms.get(a, EMPTY), loop) for a in _atoms_in(step)):
                continue
            value = self.env[name]
            shape = frozenset(
                t.with_sources((t.sources - {loop}) | trips.sources)
                if t.axis == 0 and loop in t.sources
                else t
                for t in value.shape
            )
            total = _add(start.poly, _mul(trips.poly, step), 1)
            self.env[name] = self.with_length(
                value.with_(shape=shape), 0, self.length(total, atoms)
            )

    def walk_carrying(
        self, body: list[ast.stmt], head: object, before: dict[str, Value], assigned: set[str]
    ) -> dict[str, Value]:
        """One walk of a loop body from ``before``, each name the body assigns marked as carried in
        from the previous iteration; the environment after it."""
        self.env = dict(before)
        for name in assigned & before.keys():
            self.env[name] = self.env[name].with_(vsrc=self.env[name].vsrc | {CarrySrc(name)})
        head()  # type: ignore[operator]
        self.block(body)
        return self.env

    def s_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for deco in node.decorator_list:
            self.quiet(deco)
        fn = None
        if self.module_level:
            fn = self.mod.summary.functions.get(f"{self.mod.module}.{node.name}")
        if fn is not None and self.mod.nodes.get(fn.qualname) is node:
            fn.jit = self.mod.jit_from_decorators(node, fn, self)
            self.deferred.append((fn, node, None))
        else:
            qualname = f"{self.fn.qualname}.<locals>.{node.name}"
            fn = self.mod.declare_function(node, qualname, None, parent=self.fn.qualname)
            self.walk_function(fn, node, None)
        if fn.jit is not None:
            self.env[node.name] = Value(ty=JIT, site=fn.jit, fresh=self.context_src())
        else:
            self.env[node.name] = Value(ty=FUNCTION, ref=fn.qualname, fresh=self.context_src())

    s_AsyncFunctionDef = s_FunctionDef

    def walk_function(
        self,
        fn: FunctionSummary,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        cls: ClassSummary | None,
    ) -> None:
        if fn.jit is None:
            fn.jit = self.mod.jit_from_decorators(node, fn, self)
        _FunctionPass(self.mod, fn, cls).run(node.body, _annotation_type(node.returns))

    def s_ClassDef(self, node: ast.ClassDef) -> None:
        for deco in node.decorator_list:
            self.expr(deco)
        qualname = (
            f"{self.mod.module}.{node.name}"
            if self.module_level
            else f"{self.fn.qualname}.<locals>.{node.name}"
        )
        info = self.mod.summary.classes.get(qualname)
        if info is None:
            self.mod._declare_class(node, qualname)
            info = self.mod.summary.classes[qualname]
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                method = f"{qualname}.{stmt.name}"
                fn = self.mod.summary.functions.get(method)
                if fn is None or self.mod.nodes.get(method) is not stmt:
                    # The same class name defined again (if/else, redefinition): this def is its own.
                    fn = self.mod.declare_function(stmt, method, info, parent=None)
                if self.module_level:
                    fn.jit = self.mod.jit_from_decorators(stmt, fn, self)
                    self.deferred.append((fn, stmt, info))
                else:
                    self.walk_function(fn, stmt, info)
        self.env[node.name] = Value(ty=CLASS, ref=qualname)

    def s_Global(self, node: ast.AST) -> None:
        return None

    s_Nonlocal = s_Global

    # -- binding ------------------------------------------------------------------------------------
    def bind(self, target: ast.AST, value: Value, source: ast.AST | None) -> None:
        if isinstance(target, ast.Name):
            if (
                self.loops
                and source is not None
                and value.ty in (LIST, TUPLE, ARRAY, NP_ARRAY, UNKNOWN)
                and _grows_itself(target.id, source, self.mod)
                and not self.sized_anew(target, value)
            ):
                value = self.grow(value, source, ast.unparse(source))
            self.env[target.id] = value
            if source is not None:
                self.defs[target.id] = source
            else:
                self.defs.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            elements = target.elts
            if value.items and len(value.items) == len(elements):
                parts = (
                    source.elts
                    if isinstance(source, ast.Tuple | ast.List)
                    and len(source.elts) == len(elements)
                    else [None] * len(elements)
                )
                for element, item, part in zip(elements, value.items, parts, strict=True):
                    self.bind(element, item, part)
            else:
                starred = any(isinstance(e, ast.Starred) for e in elements)
                for i, element in enumerate(elements):
                    self.bind(element, _unpacked(value, None if starred else i), None)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, value.with_(ty=LIST, items=()), None)
        elif isinstance(target, ast.Attribute):
            base = self.expr(target.value)
            if base.ref == "<self>" and self.cls is not None and value.site is not None:
                self.cls.jit_attrs[target.attr] = value.site
            elif value.site is not None and isinstance(target.value, ast.Name):
                # `env.step = jax.jit(env.step)`: later `env.step(...)` here calls the jit.
                self.env[f"{target.value.id}.{target.attr}"] = value
        elif isinstance(target, ast.Subscript):
            self.expr(target.value)
            self.expr(target.slice)

    def grow(self, value: Value, node: ast.AST, text: str) -> Value:
        # A list's own length is its axis 0; where an array grows depends on the join.
        axis = 0 if value.ty in (LIST, TUPLE) else None
        sources = frozenset({LoopSrc(self.loops[-1])})
        taint = Taint("RTL102", _clip(text), self.loc(node), sources, axis)
        return value.with_(shape=value.shape | {taint}, items=(), dims=None)

    def sized_anew(self, target: ast.AST, value: Value) -> bool:
        """Whether a value rebuilt from ``target`` has a length known without ``target``'s own: a list
        made anew in this iteration and filled by a fixed number of items does not grow."""
        length = value.dims.length(0) if value.dims is not None else None
        return length is not None and _length_atom(target, 0, self.defs, self) not in _atoms_in(
            length.poly
        )

    # -- expressions --------------------------------------------------------------------------------
    def expr(self, node: ast.AST | None) -> Value:
        if node is None:
            return UNKNOWN_VALUE
        handler = getattr(self, "e_" + type(node).__name__, None)
        if handler is not None:
            value = handler(node)
            # Only the parameter itself is the parameter: x[:n] or x.astype(...) is a new value.
            if value.param is not None and not isinstance(node, _SAME_VALUE):
                value = value.with_(ref=None)
            return value
        values = [
            self.expr(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
        ]
        return combine(values, keep_shape=False)

    def e_Constant(self, node: ast.Constant) -> Value:
        value = node.value
        if isinstance(value, bool):
            return Value(ty=BOOL)
        if isinstance(value, int):
            return Value(ty=INT)
        if isinstance(value, float):
            return Value(ty=FLOAT)
        if isinstance(value, complex):
            return Value(ty=COMPLEX)
        if isinstance(value, str):
            return Value(ty=STR)
        if value is None:
            return Value(ty=NONE)
        return UNKNOWN_VALUE

    def e_Name(self, node: ast.Name) -> Value:
        value = self.env.get(node.id)
        if value is not None:
            return value
        module_value = self.mod.summary.globals.get(node.id)
        return module_value if module_value is not None else UNKNOWN_VALUE

    def e_Attribute(self, node: ast.Attribute) -> Value:
        base = self.expr(node.value)
        if node.attr == "shape" or node.attr == "size":
            return Value(ty=TUPLE if node.attr == "shape" else INT, vsrc=shape_sources(base))
        if node.attr in ("real", "imag"):
            return base.with_(items=(), ref=None)
        if node.attr in ("T", "mT"):
            return unaligned(base).with_(items=(), ref=None)
        return Value(vsrc=base.vsrc, deps=_param_deps(base))

    def e_Lambda(self, node: ast.Lambda) -> Value:
        return Value(ty=LAMBDA, fresh=self.context_src())

    def e_List(self, node: ast.List | ast.Tuple | ast.Set) -> Value:
        ty = {ast.List: LIST, ast.Tuple: TUPLE, ast.Set: SET}[type(node)]
        counted = ty != SET and not any(isinstance(e, ast.Starred) for e in node.elts)
        dims = _counted(len(node.elts)) if counted else None
        if len(node.elts) > _BIG_DISPLAY and all(map(_is_constant_data, node.elts)):
            # A data table: nothing in it varies, and walking it costs seconds.
            return Value(ty=ty, dims=dims)
        items = tuple(self.expr(element) for element in node.elts)
        value = combine(list(items), ty=ty)
        return value.with_(items=items if len(items) <= 16 else (), dims=dims)

    e_Tuple = e_List
    e_Set = e_List

    def e_Dict(self, node: ast.Dict) -> Value:
        if len(node.values) > _BIG_DISPLAY and all(
            k is not None and _is_constant_data(k) and _is_constant_data(v)
            for k, v in zip(node.keys, node.values, strict=True)
        ):
            return Value(ty=DICT)
        values = [self.expr(k) for k in node.keys if k is not None]
        values += [self.expr(v) for v in node.values]
        literal = all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys)
        keys = tuple(sorted(k.value for k in node.keys)) if literal else None  # type: ignore[union-attr]
        return combine(values, ty=DICT).with_(keys=keys)

    def e_ListComp(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
    ) -> Value:
        saved, saved_defs = dict(self.env), dict(self.defs)
        depth = len(self.loops)
        sources: list[Value] = []
        filtered = False
        text = self.mod.pos.text
        for comp in node.generators:
            # Each `for` of a comprehension is a loop: what the element calls runs once per item.
            iterable = self.expr(comp.iter)
            sources.append(iterable)
            index = self.new_loop(
                comp,
                f"for {text(comp.target)} in {text(comp.iter)}",
                self.mod.pos.span(comp.target, comp.iter),
            )
            self.note_range(index, comp)
            self.loops.append(index)
            self.bind(comp.target, self.item_of(iterable, index, comp.iter), None)
            for cond in comp.ifs:
                sources.append(self.expr(cond))
                filtered = True
        if isinstance(node, ast.DictComp):
            self.expr(node.key)
            self.expr(node.value)
        else:
            self.expr(node.elt)
        del self.loops[depth:]
        self.env, self.defs = saved, saved_defs
        ty = {ast.ListComp: LIST, ast.SetComp: SET, ast.DictComp: DICT}.get(type(node), UNKNOWN)
        # What changes the iterables' shapes changes the result; on which axis is not known.
        shape = {t.unlabelled() for v in sources for t in v.shape}
        if filtered:
            varies = frozenset().union(*(v.vsrc for v in sources))
            if varies:
                shape.add(Taint("RTL104", "filtering comprehension", self.loc(node), varies))
        return Value(
            ty=ty, vsrc=frozenset().union(*(v.vsrc for v in sources)), shape=frozenset(shape)
        )

    e_SetComp = e_ListComp
    e_GeneratorExp = e_ListComp
    e_DictComp = e_ListComp

    def e_BinOp(self, node: ast.BinOp) -> Value:
        left, right = self.expr(node.left), self.expr(node.right)
        return self.arith(left, right, node.op, (node.left, node.right))

    def arith(
        self,
        left: Value,
        right: Value,
        op: ast.operator,
        nodes: tuple[ast.AST, ast.AST] | None = None,
    ) -> Value:
        value = self.arith_type(left, right, op)
        if value.ty == ARRAY:
            return value.with_(dtype=_arith_dtype(left, right))
        if value.ty in (LIST, TUPLE) and nodes is not None:
            return value.with_(dims=self.sequence_dims(left, right, op, nodes))
        return value

    def sequence_dims(
        self, left: Value, right: Value, op: ast.operator, nodes: tuple[ast.AST, ast.AST]
    ) -> Dims | None:
        """The length of ``a + b`` and ``[x] * n`` for lists and tuples."""
        atoms: Atoms = {}
        if isinstance(op, ast.Add):
            total = _add(
                self.length_of(nodes[0], left, 0, atoms),
                self.length_of(nodes[1], right, 0, atoms),
                1,
            )
        elif isinstance(op, ast.Mult):
            seq, seq_node, count = (
                (left, nodes[0], nodes[1])
                if left.ty in (LIST, TUPLE)
                else (right, nodes[1], nodes[0])
            )
            total = _mul(
                self.length_of(seq_node, seq, 0, atoms),
                self.poly(count, atoms),
            )
        else:
            return None
        return Dims((self.length(total, atoms),))

    def arith_type(self, left: Value, right: Value, op: ast.operator) -> Value:
        tys = {left.ty, right.ty}
        sequences = {LIST, TUPLE}
        if tys & {ARRAY, NP_ARRAY, "mask", JIT_OUT}:
            ty = ARRAY
        elif tys & {JIT_OUT_WEAK} and tys <= {INT, FLOAT, BOOL, JIT_OUT_WEAK}:
            ty = JIT_OUT_WEAK  # weak stays weak: arithmetic with Python scalars
        elif (isinstance(op, ast.Div) and tys <= {INT, FLOAT, BOOL}) or (
            FLOAT in tys and tys <= {INT, FLOAT, BOOL}
        ):
            ty = FLOAT
        elif tys == {INT} or tys == {INT, BOOL}:
            ty = INT
        elif tys & {FLOAT, FLOAT_LIKE} and tys <= {INT, FLOAT, BOOL, FLOAT_LIKE, UNKNOWN}:
            # `base_lr * 0.95 ** epoch` with an unannotated base_lr: most likely a float.
            ty = FLOAT_LIKE
        elif isinstance(op, ast.Add) and left.ty in sequences and right.ty == left.ty:
            ty = left.ty
        elif (
            isinstance(op, ast.Mult)
            and len(tys & sequences) == 1
            and tys <= {*sequences, INT, UNKNOWN}
        ):
            ty = (tys & sequences).pop()  # [x] * n
        else:
            ty = UNKNOWN
        # With a Python scalar, or joining sequences, each axis stays where it was.
        aligned = ty in sequences or bool(tys & {INT, FLOAT, BOOL, COMPLEX})
        value = combine([left, right], ty=ty, aligned=aligned)
        if aligned and ty == ARRAY:
            return value.with_(dims=left.dims if left.ty not in SCALARS else right.dims)
        return value

    def e_UnaryOp(self, node: ast.UnaryOp) -> Value:
        operand = self.expr(node.operand)
        return operand.with_(ty=BOOL if isinstance(node.op, ast.Not) else operand.ty, items=())

    def e_BoolOp(self, node: ast.BoolOp) -> Value:
        values = [self.expr(v) for v in node.values]
        out = values[0]
        for value in values[1:]:
            out = join(out, value)
        return out

    def e_Compare(self, node: ast.Compare) -> Value:
        values = [self.expr(node.left), *(self.expr(c) for c in node.comparators)]
        out = combine(values, keep_shape=False)
        scalars = {INT, FLOAT, BOOL, STR, NONE, COMPLEX}
        if all(v.ty in scalars for v in values):
            return out.with_(ty=BOOL)
        return out.with_(ty="mask", dtype="bool")

    def e_IfExp(self, node: ast.IfExp) -> Value:
        self.expr(node.test)
        return join(self.expr(node.body), self.expr(node.orelse))

    def e_NamedExpr(self, node: ast.NamedExpr) -> Value:
        value = self.expr(node.value)
        self.bind(node.target, value, node.value)
        return value

    def e_Starred(self, node: ast.Starred) -> Value:
        return self.expr(node.value)

    def e_Await(self, node: ast.Await) -> Value:
        return self.expr(node.value)

    def e_Yield(self, node: ast.Yield | ast.YieldFrom) -> Value:
        value = self.expr(node.value) if node.value is not None else Value(ty=NONE)
        if isinstance(node, ast.YieldFrom):
            value = _unpacked(value)
        self.yields = value if self.yields is None else join(self.yields, value)
        return UNKNOWN_VALUE

    e_YieldFrom = e_Yield

    def e_JoinedStr(self, node: ast.JoinedStr) -> Value:
        values = [self.expr(v) for v in node.values]
        return combine(values, ty=STR, keep_shape=False)

    # -- lengths: what is known of sizes, and what a length known exactly explains away -------------
    def poly(self, node: ast.AST | None, atoms: Atoms) -> Poly:
        return _poly(node, atoms, self.defs, reader=self)

    def source(self, node: ast.AST) -> str:
        return self.mod.pos.text(node, limit=sys.maxsize)

    def size_poly(self, node: ast.AST | None) -> tuple[Poly, Atoms]:
        atoms: Atoms = {}
        return self.poly(node, atoms), atoms

    def length_read(self, node: ast.AST, atoms: Atoms) -> Poly | None:
        read = _length_read(node)
        if read is None:
            return None
        array, axis = read
        return self.length_of(array, self.quiet(array), axis, atoms)

    def length_of(self, node: ast.AST, value: Value, axis: int, atoms: Atoms) -> Poly:
        """The length of axis ``axis`` of ``value`` (the value of ``node``); its atoms go to ``atoms``.
        Unknown, it is an atom of its own: ``len(x)`` is the same atom wherever x is the same."""
        length = value.dims.length(axis) if value.dims is not None else None
        if length is not None:
            atoms.update(length.atoms)
            return length.poly
        name = _length_atom(node, axis, self.defs, self)
        atoms[name] = axis_sources(value, axis)
        return {(name,): 1}

    def atom_sources(self, poly: Poly, atoms: Atoms) -> dict[str, frozenset[Src]]:
        """What makes each atom left in ``poly`` change."""
        out: dict[str, frozenset[Src]] = {}
        for name in _atoms_in(poly):
            atom = atoms.get(name)
            if isinstance(atom, frozenset):
                out[name] = atom
            else:
                out[name] = self.quiet(atom).vsrc if atom is not None else EMPTY
        return out

    def length(self, poly: Poly, atoms: Atoms) -> Length:
        return Length.of(poly, self.atom_sources(poly, atoms))

    def with_length(
        self,
        value: Value,
        axis: int,
        length: Length,
        own: frozenset[str] = EMPTY,
        made: Taint | None = None,
    ) -> Value:
        """``value`` whose axis ``axis`` is now exactly ``length`` long.

        What made that axis change before matters only as far as it still moves the length: a taint
        on the axis keeps the sources of the atoms left in it, and a dependency stops bringing
        changes of that axis when none of its length is left (a ragged chunk padded back to full
        size, a fixed window of a longer array). ``made``, the operation's own taint, gets what the
        atoms of its own arguments (``own``) still add.
        """
        atoms = dict(length.atoms)
        left = length.sources
        shape: set[Taint] = set()
        covered: frozenset[Src] = EMPTY
        for taint in value.shape:
            if taint.axis != axis:
                shape.add(taint)
                continue
            kept = taint.sources & left
            if kept:
                shape.add(taint if kept == taint.sources else taint.with_sources(kept))
                covered |= kept
        if made is not None:
            extra = frozenset().union(*(atoms[a] for a in own if a in atoms)) - covered
            if extra:
                shape.add(replace(made, sources=extra, axis=axis))
        deps = frozenset(_cut(dep, axis, bool(atoms), left) for dep in value.deps)
        dims = (value.dims or _NO_DIMS).with_length(axis, length)
        return value.with_(shape=frozenset(shape), deps=deps, dims=dims)

    # -- subscripts: where slices change shapes ------------------------------------------------------
    def e_Subscript(self, node: ast.Subscript) -> Value:
        read = _length_read(node)
        if read is not None:  # x.shape[k]: an int, as varying as that axis
            array, axis = read
            return Value(ty=INT, vsrc=axis_sources(self.expr(array), axis))
        base = self.expr(node.value)
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        # Only plain slices keep the base's axes where they were (an index, None or ... moves them).
        basic = all(isinstance(part, ast.Slice) for part in parts)
        taints = set(base.shape)
        vsrc = set(base.vsrc)
        is_slice = False
        idx = UNKNOWN_VALUE
        cut: list[tuple[int, Length | None]] = []
        for axis, part in enumerate(parts):
            if isinstance(part, ast.Slice):
                is_slice = True
                taints.update(self.slice_taints(node, part, axis if basic else None))
                for bound in (part.lower, part.upper, part.step):
                    vsrc |= self.expr(bound).vsrc
                if basic and (part.lower or part.upper or part.step):
                    cut.append((axis, self.slice_length(node, part, axis, base)))
            else:
                idx = self.expr(part)
                vsrc |= idx.vsrc
                if base.ty not in (LIST, TUPLE, DICT):
                    taints |= idx.shape  # x[positions]: as many rows as the index has
                if (
                    idx.ty == "mask"
                    and (idx.vsrc or idx.deps)
                    and base.ty not in (LIST, TUPLE, DICT)
                ):
                    sources = idx.vsrc | shape_sources(idx)
                    taints.add(
                        Taint(
                            "RTL104",
                            f"boolean mask {self.mod.pos.text(node)}",
                            self.loc(node),
                            sources,
                        )
                    )
        if not is_slice and base.ty in (LIST, TUPLE, DICT):
            if (
                base.items
                and isinstance(index, ast.Constant)
                and isinstance(index.value, int)
                and -len(base.items) <= index.value < len(base.items)
            ):
                return base.items[index.value]
            if base.ty == TUPLE and base.shape:
                return _unpacked(base)  # jnp.nonzero(x)[0]: one of a tuple of arrays
            return _element(base)
        value = base.with_(vsrc=frozenset(vsrc), shape=frozenset(taints), items=())
        if not is_slice and _positions(idx):
            # x[positions] with a 1-D integer array: as many rows as positions, the rest as x.
            atoms: Atoms = {}
            rows = self.length(self.length_of(index, idx, 0, atoms), atoms)
            return self.with_length(value, 0, rows)
        if not basic:
            return unaligned(value)
        for axis, length in cut:
            if length is not None:
                value = self.with_length(value, axis, length)
            elif value.dims is not None:
                value = value.with_(dims=value.dims.with_length(axis, None))
        return value

    def slice_taints(self, node: ast.Subscript, part: ast.Slice, axis: int | None) -> list[Taint]:
        atoms: Atoms = {}
        lower = self.poly(part.lower, atoms)
        clamp = _min_call(part.upper, self.defs)
        others: list[Poly] = []
        if clamp is not None:
            # x[i:min(i + bs, n)]: at most bs wide, shorter where n clamps it (the last chunk).
            widths = [_add(self.poly(a, atoms), lower, -1) for a in clamp.args]
            steady = [w for w in widths if not _atoms_in(w) & (_atoms_in(lower) | {_END})]
            if not steady:
                clamp = None
            else:
                width = steady[0]
                others = [w for w in widths if w is not width]
        if clamp is None:
            end: Poly = {(_END,): 1}
            upper = self.poly(part.upper, atoms) if part.upper is not None else end
            width = _add(upper, lower, -1)
        sources = self.varying(width, atoms)
        out = []
        if sources:
            out.append(
                Taint(
                    "RTL101",
                    f"slice {self.mod.pos.text(node)}",
                    self.loc(node),
                    frozenset(sources),
                    axis,
                )
            )
        strided, ragged = self.ragged_taint(node, lower, width, axis)
        if ragged is not None:
            out.append(ragged)
        elif clamp is not None and not strided:
            clamped = frozenset().union(*(self.varying(w, atoms) for w in others))
            if clamped:
                what = f"chunk {self.mod.pos.text(node)}"
                out.append(Taint("RTL103", what, self.loc(node), clamped, axis))
        return out

    def varying(self, poly: Poly, atoms: Atoms) -> frozenset[Src]:
        """What makes ``poly`` change: the sources of its atoms (the base's own end excluded: its
        changes are the base's)."""
        sources: frozenset[Src] = EMPTY
        for atom, atom_sources in self.atom_sources(poly, atoms).items():
            if atom != _END:
                sources = sources | atom_sources
        return sources

    def ragged_taint(
        self, node: ast.Subscript, lower: Poly, width: Poly, axis: int | None
    ) -> tuple[bool, Taint | None]:
        """Whether a range loop strides over the chunk x[i:i+bs] (or x[i*bs:(i+1)*bs] over
        range(ceil(n / bs))), and the RTL103 taint when its last chunk can be short."""
        if not width or not lower:
            return False, None
        lower_names = _atoms_in(lower)
        for index in reversed(self.loops):
            info = self.ranges.get(index)
            if info is None or info.var not in lower_names:
                continue
            atoms: Atoms = {}
            if info.step is not None and self.poly(info.step, atoms) == width:
                if _full_chunks(info.stop, info.step, self.defs):
                    return True, None
                what = f"chunk {self.mod.pos.text(node)} over range(..., {self.mod.pos.text(info.step)})"
                return True, Taint(
                    "RTL103", what, self.loc(node), frozenset({LoopSrc(index)}), axis
                )
            if info.step is None and _ceil_like(info.stop, self.defs):
                what = f"chunk {self.mod.pos.text(node)} over {self.mod.pos.text(info.stop)} chunks (rounded up)"
                return True, Taint(
                    "RTL103", what, self.loc(node), frozenset({LoopSrc(index)}), axis
                )
        return False, None

    def slice_length(
        self, node: ast.Subscript, part: ast.Slice, axis: int, base: Value
    ) -> Length | None:
        """The exact length of a slice, when it visibly stays inside the base: a window
        x[s:s + w] over range(a, len(x) - w + 1, ...), x[:k] of an x at least k long, x[1:]."""
        if part.step is not None:
            return None
        atoms: Atoms = {}
        whole = self.length_of(node.value, base, axis, atoms)
        lower = self.bound(part.lower, whole, atoms)
        upper = self.bound(part.upper, whole, atoms) if part.upper is not None else whole
        least, most = lower, upper
        loop = self.range_over(lower)
        if loop is not None:
            # The window moves with the loop variable: its first and last positions bound it.
            var, info = loop
            first = self.poly(info.start, atoms)
            last = _add(self.poly(info.stop, atoms), {(): 1}, -1)
            least = _substitute(lower, var, first)
            most = _substitute(upper, var, last) if least is not None else None
        if least is None or most is None:
            return None
        start, overshoot = _constant(least), _constant(_add(most, whole, -1))
        if start is None or start < 0 or overshoot is None or overshoot > 0:
            return None
        return self.length(_add(upper, lower, -1), atoms)

    def bound(self, node: ast.AST | None, whole: Poly, atoms: Atoms) -> Poly:
        """A slice bound as a position: a negative literal counts from the end."""
        poly = self.poly(node, atoms)
        value = _constant(poly)
        return _add(whole, poly, 1) if value is not None and value < 0 else poly

    def range_over(self, poly: Poly) -> tuple[str, _RangeLoop] | None:
        """The innermost enclosing ``for v in range(...)`` (positive step) whose ``v`` is in ``poly``."""
        names = _atoms_in(poly)
        for index in reversed(self.loops):
            info = self.ranges.get(index)
            if info is None or info.var not in names:
                continue
            # A step that is not a literal is taken as positive: strides are.
            step = _constant(_poly(info.step, {}, self.defs)) if info.step is not None else 1
            return (info.var, info) if step is None or step > 0 else None
        return None

    def note_range(self, index: int, node: ast.For | ast.comprehension) -> None:
        call = node.iter
        if not (isinstance(call, ast.Call) and isinstance(node.target, ast.Name)):
            return
        if self.mod.canonical(_dotted(call.func) or "") != "range" or call.keywords:
            return
        args = call.args
        if len(args) == 1:
            self.ranges[index] = _RangeLoop(node.target.id, None, args[0], None)
        elif len(args) >= 2:
            step = args[2] if len(args) > 2 else None
            self.ranges[index] = _RangeLoop(node.target.id, args[0], args[1], step)

    def quiet(self, node: ast.AST) -> Value:
        """Evaluate without recording call sites (for re-reading a sub-expression)."""
        was = self.recording
        self.recording = False
        try:
            return self.expr(node)
        finally:
            self.recording = was

    # -- iteration ----------------------------------------------------------------------------------
    def item_of(self, iterable: Value, index: int, node: ast.AST) -> Value:
        if type(node) in _DISPLAYS and _same_literals(node):
            return self.quiet(node.elts[0])  # type: ignore[attr-defined]  # (4, 4, 4): one value
        src = LoopSrc(index)
        call = node if isinstance(node, ast.Call) else None
        name = self.mod.canonical(_dotted(call.func) or "") if call else ""
        if name in ("range",):
            return Value(ty=INT, vsrc=iterable.vsrc | {src})
        if name == "enumerate" and call and call.args:
            inner = self.quiet(call.args[0])
            return Value(
                ty=TUPLE,
                vsrc=inner.vsrc | {src},
                items=(
                    Value(ty=INT, vsrc=frozenset({src})),
                    self.item_of(inner, index, call.args[0]),
                ),
            )
        if name == "zip" and call:
            items = tuple(self.item_of(self.quiet(arg), index, arg) for arg in call.args)
            return combine(list(items), ty=TUPLE).with_(items=items)
        shape = set()
        for taint in iterable.shape:
            if ItemSrc() in taint.sources:
                shape.add(taint.with_sources((taint.sources - {ItemSrc()}) | {src}))
        deps = set()
        for dep in iterable.deps:
            if isinstance(dep, RetDep):
                deps.add(IterDep(dep.call, index))
        return Value(vsrc=iterable.vsrc | {src}, shape=frozenset(shape), deps=frozenset(deps))

    # -- calls --------------------------------------------------------------------------------------
    def e_Call(self, node: ast.Call) -> Value:
        func = node.func
        dotted = _dotted(func)
        canon = self.mod.canonical(dotted) if dotted else ""
        # Evaluate the receiver first (method calls), then the arguments, in source order.
        receiver = self.expr(func.value) if isinstance(func, ast.Attribute) else None
        callee_value = self.expr(func) if not isinstance(func, ast.Attribute | ast.Name) else None
        args = [self.expr(a) for a in node.args]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg}
        for k in node.keywords:
            if k.arg is None:
                self.expr(k.value)

        self.note_traced(node, canon)
        wrapper = self.mod.wrapper(func)
        if wrapper is not None and node.args:
            fresh = _fresh_kind(args[0], node.args[0], self.receiver_of(node.args[0]))
            site = self.new_jit(
                wrapper,
                node,
                node.keywords,
                target=self.callee_ref(node.args[0]),
                target_text=self.mod.pos.text(node.args[0]),
                fresh=fresh,
                fresh_sources=self.context_src() if fresh == "bound method" else args[0].fresh,
                lambda_node=node.args[0] if isinstance(node.args[0], ast.Lambda) else None,
            )
            return Value(ty=JIT, site=site, fresh=self.context_src())
        if canon in _PARTIALS and node.args:
            wrapped = self.mod.wrapper(node.args[0])
            if (
                wrapped is not None
            ):  # partial(jax.jit, static_argnums=...) used as a decorator factory
                return UNKNOWN_VALUE
            return Value(ty=PARTIAL, fresh=self.context_src(), vsrc=combine(args[1:]).vsrc)
        if canon in _TRANSFORMS or (
            canon.startswith("jax.")
            and canon.rsplit(".", 1)[-1]
            in (
                "grad",
                "vmap",
                "value_and_grad",
            )
        ):
            return Value(ty=TRANSFORM, fresh=self.context_src())

        known = self.known_call(node, canon, receiver, args, kwargs)
        if known is not None:
            return known
        callee = self.callee_of(func, dotted, receiver, callee_value)
        if callee is not None and callee[0] == "name" and not self.defined(callee[1]):
            callee = None
        index = self.record(node, callee, args, kwargs) if callee is not None else None
        if callee is not None and callee[0] in ("name", "qual", "method", "self"):
            ty = UNKNOWN
            fresh = EMPTY
            ref = None
            local = self.env.get(dotted or "")
            if local is not None and local.ty == CLASS:
                ty, ref, fresh = INSTANCE, local.ref, self.context_src()
            elif callee[0] == "name" and (
                f"{self.mod.module}.{dotted}" in self.mod.summary.classes
                or _looks_like_class(dotted or "")
            ):
                ty, ref, fresh = INSTANCE, dotted, self.context_src()
            elif callee[0] == "name" and self.is_jitted(dotted or ""):
                ty = _jit_result(args, kwargs).ty
            elif callee[0] == "name":
                ty = self.known_return_type(dotted or "")
            deps = frozenset({RetDep(index)}) if index is not None else EMPTY
            return Value(ty=ty, ref=ref, fresh=fresh, deps=deps, vsrc=_args_vsrc(args, kwargs))
        if callee is not None and callee[0] == "jit":
            return _jit_result(args, kwargs)
        return combine(
            [*args, *kwargs.values(), *([receiver] if receiver else [])], keep_shape=False
        )

    def receiver_of(self, node: ast.AST) -> Value | None:
        """For ``obj.name``, the value of ``obj``."""
        return self.quiet(node.value) if isinstance(node, ast.Attribute) else None

    def note_traced(self, node: ast.Call, canon: str) -> None:
        """Record the functions a transform or lax primitive is handed: they run under its trace. A
        lax primitive called outside jit caches its trace by function identity, so a function made
        anew for it is a trace site of its own, checked like a jit of a fresh function (RTL301)."""
        func = node.func
        traces = TRACING_APIS.get(canon) or (
            TRACING_METHODS.get(func.attr) if isinstance(func, ast.Attribute) else None
        )
        if traces is None or not self.recording:
            return
        given = [node.args[i] for i in traces.positions if i < len(node.args)]
        given += [k.value for k in node.keywords if k.arg in traces.keywords]
        for arg in given:
            for function in arg.elts if isinstance(arg, ast.List | ast.Tuple) else [arg]:
                made = function
                if (
                    isinstance(function, ast.Call)
                    and self.mod.canonical(_dotted(function.func) or "") in _PARTIALS
                    and function.args
                ):
                    function = function.args[0]
                callee = self.callee_ref(function)
                if callee is not None and callee not in self.fn.traces:
                    self.fn.traces.append(callee)
                if traces.caches_by_identity:
                    self.note_lax_site(canon, node, made, callee)

    def note_lax_site(
        self, canon: str, node: ast.Call, made: ast.AST, callee: tuple[str, ...] | None
    ) -> None:
        value = self.quiet(made)
        fresh = _fresh_kind(value, made, self.receiver_of(made))
        sources = self.context_src() if fresh == "bound method" else value.fresh
        if fresh is None or not sources:
            return
        self.new_jit(
            Wrapper(canon, None, None),
            node,
            [],
            target=callee,
            target_text=self.mod.pos.text(made),
            fresh=fresh,
            fresh_sources=sources,
            traces_on_call=True,
        )

    def known_return_type(self, name: str) -> str:
        """The type a function of this module returns, when its body was walked before this one (it
        is defined earlier) and says so: ``cosine_decay(...)`` is an array. Only the type: what
        varies in the result is resolved through the call graph."""
        fn = self.mod.summary.functions.get(f"{self.mod.module}.{name}")
        if fn is None or name in self.env or fn.returns is None:
            return UNKNOWN
        return fn.returns.ty if fn.returns.ty in (ARRAY, NP_ARRAY, JIT_OUT) else UNKNOWN

    def is_jitted(self, name: str) -> bool:
        """Whether ``name`` is a jitted function of this module (``@jax.jit`` or ``f = jax.jit(g)``)."""
        value = self.mod.summary.globals.get(name)
        return value is not None and value.site is not None and name not in self.env

    def defined(self, dotted: str) -> bool:
        """Whether a name could refer to code in the analysed tree (not a builtin or a local value)."""
        head = dotted.partition(".")[0]
        summary = self.mod.summary
        if head in summary.imports:
            return not summary.imports[head].startswith(_EXTERNAL)
        qual = f"{self.mod.module}.{head}"
        return qual in summary.functions or qual in summary.classes or head in summary.globals

    def callee_ref(self, node: ast.AST) -> tuple[str, ...] | None:
        """The function an expression names (what a jit wrapper is applied to)."""
        receiver = self.quiet(node.value) if isinstance(node, ast.Attribute) else None
        return self.callee_of(node, _dotted(node), receiver, None)

    def callee_of(
        self, func: ast.AST, dotted: str | None, receiver: Value | None, callee_value: Value | None
    ) -> tuple[str, ...] | None:
        if callee_value is not None and callee_value.site is not None:
            return ("jit", "", str(callee_value.site))
        replaced = self.env.get(dotted) if dotted and "." in dotted else None
        if replaced is not None and replaced.site is not None:
            return ("jit", "", str(replaced.site))
        if isinstance(func, ast.Attribute) and receiver is not None:
            if receiver.ref == "<self>":
                return ("self", "", func.attr)
            if receiver.ty == INSTANCE and receiver.ref:
                return ("method", receiver.ref, func.attr)
            if receiver.site is not None:
                return None
            if isinstance(func.value, ast.Name) and func.value.id in self.env:
                return None  # a method of a local value we know nothing about
        if isinstance(func, ast.Name):
            local = self.env.get(func.id)
            if local is not None:
                if local.site is not None:
                    return ("jit", "", str(local.site))
                if local.ty in (FUNCTION, CLASS) and local.ref:
                    return ("qual", local.ref)
                if local.param is not None:
                    return ("param", local.param)  # what the callers pass, resolved at link time
                return None
        return ("name", dotted) if dotted else None

    def record(
        self,
        node: ast.Call,
        callee: tuple[str, ...],
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> int | None:
        if not self.recording:
            return None
        star = any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        )
        func = node.func
        receiver_arg = None
        if isinstance(func, ast.Attribute) and callee[0] in ("method", "self"):
            receiver = self.quiet(func.value)
            receiver_arg = Arg(receiver, self.loc(func.value), self.mod.pos.text(func.value))
        site = CallSite(
            # Interned: the same callee is called many times in a module, and a summary pickles
            # one string object once (the heads of the corpus: 165,000 strings to load, not 205,000).
            callee=tuple(sys.intern(part) for part in callee),
            text=sys.intern(self.mod.pos.text(node.func)),
            args=tuple(
                Arg(_plain(value), self.loc(a), self.mod.pos.text(a))
                for value, a in zip(args, node.args, strict=True)
                if not isinstance(a, ast.Starred)
            ),
            kwargs=tuple(
                (k.arg, Arg(_plain(kwargs[k.arg]), self.loc(k.value), self.mod.pos.text(k.value)))
                for k in node.keywords
                if k.arg
            ),
            location=self.loc(node),
            loops=tuple(self.loops) if self.loops else (),
            star=star,
            receiver=receiver_arg,
            functions=self.functions_passed(node),
        )
        self.fn.calls.append(site)
        return len(self.fn.calls) - 1

    def functions_passed(self, node: ast.Call) -> tuple[tuple[int | str, Callee], ...]:
        """The arguments that name a function (a def, a jitted function, a parameter passed on), by
        position or keyword: a callee that calls its parameter calls what these resolve to."""
        given = [(i, a) for i, a in enumerate(node.args) if not isinstance(a, ast.Starred)]
        given += [(k.arg, k.value) for k in node.keywords if k.arg]
        out = []
        for key, arg in given:
            if isinstance(arg, ast.Name | ast.Attribute):
                callee = self.callee_ref(arg)
                if callee is not None:
                    out.append((key, tuple(sys.intern(part) for part in callee)))
        return tuple(out)

    def new_jit(
        self,
        wrapper: Wrapper,
        node: ast.AST,
        keywords: list[ast.keyword],
        target: tuple[str, ...] | None,
        target_text: str,
        fresh: str | None,
        fresh_sources: frozenset[Src] = EMPTY,
        lambda_node: ast.Lambda | None = None,
        decorated: bool = False,
        traces_on_call: bool = False,
    ) -> int:
        kw = {k.arg: k.value for k in keywords if k.arg}
        nums, names = _given(kw, wrapper.argnums), _given(kw, wrapper.argnames)
        argnums, argnames = _literal_ints(nums), _literal_strs(names)
        spec = JitSpec(
            index=len(self.mod.summary.jits),
            wrapper=wrapper.name,
            location=self.loc(node),
            target=target,
            target_text=target_text,
            fresh=fresh if fresh_sources else None,
            fresh_sources=fresh_sources,
            decorated=decorated,
            static_argnums=argnums or (),
            static_argnames=argnames or (),
            static_unknown=argnums is None or argnames is None,
            static_inferred=bool(wrapper.argnums and wrapper.argnames)
            and (nums is None) != (names is None),
            nonarray_static=wrapper.nonarray_static,
            function=self.fn.qualname,
            loops=tuple(self.loops),
            lambda_params=_params(lambda_node.args) if lambda_node is not None else None,
            traces_on_call=traces_on_call,
        )
        existing = self._same_site(spec)
        if existing is not None:
            return existing
        self.mod.summary.jits.append(spec)
        return spec.index

    def _same_site(self, spec: JitSpec) -> int | None:
        # Loop bodies are walked twice: the second walk must find the site of the first.
        for other in reversed(self.mod.summary.jits):
            if other.location == spec.location and other.function == spec.function:
                return other.index
        return None

    def known_call(
        self,
        node: ast.Call,
        canon: str,
        receiver: Value | None,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value | None:
        """Calls whose effect on shapes we know: array constructors, growth, masks, sizes, loaders."""
        module, _, name = canon.rpartition(".")
        func = node.func
        if canon in ("len",) and args:
            return size_of(args[0])
        if canon in ("float",) or (module == "math" and name not in _MATH_INTS):
            return Value(ty=FLOAT, vsrc=_args_vsrc(args, kwargs))
        if module == "math":
            return Value(ty=INT, vsrc=_args_vsrc(args, kwargs))
        if canon in ("int", "round"):
            return Value(ty=INT, vsrc=_args_vsrc(args, kwargs))
        if canon in ("bool",):
            return Value(ty=BOOL, vsrc=_args_vsrc(args, kwargs))
        if canon in ("str", "repr", "format"):
            return Value(ty=STR, vsrc=_args_vsrc(args, kwargs))
        if canon in ("list", "sorted", "tuple") and args:
            atoms: Atoms = {}
            count = self.length(self.length_of(node.args[0], args[0], 0, atoms), atoms)
            # A list of an array's rows: its axes are the array's.
            return args[0].with_(
                ty=LIST if canon != "tuple" else TUPLE, items=(), ref=None, dims=Dims((count,))
            )
        if canon in ("dict",):
            return combine([*args, *kwargs.values()], ty=DICT)
        if canon in ("set", "frozenset"):
            return combine(args, ty=SET if canon == "set" else TUPLE)
        if canon in ("min", "max", "abs", "sum") and module == "":
            return combine(args, ty=args[0].ty if len(args) == 1 else UNKNOWN, keep_shape=False)
        if canon in _LOADER_CLASSES or canon.endswith(".DataLoader"):
            return self.loader(node, "DataLoader", "drop_last", kwargs)
        if module in _ARRAY_MODULES or module in _RANDOM_MODULES or _array_module(module):
            return self.array_call(node, module, name, args, kwargs)
        if isinstance(func, ast.Attribute) and receiver is not None:
            return self.method_call(node, func.attr, receiver, args, kwargs)
        return None

    def loader(
        self, node: ast.Call, kind: str, flag: str, kwargs: dict[str | None, Value]
    ) -> Value:
        flag_node = next((k.value for k in node.keywords if k.arg == flag), None)
        if _is_true(flag_node):
            return Value(ty="loader")
        taint = Taint(
            "RTL103",
            f"{kind} without {flag}=True",
            self.loc(node),
            frozenset({ItemSrc()}),
        )
        return Value(ty="loader", shape=frozenset({taint}))

    def array_call(
        self,
        node: ast.Call,
        module: str,
        name: str,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        value = self.array_shape(node, module, name, args, kwargs)
        if value.ty in (ARRAY, NP_ARRAY) or (value.ty == TUPLE and name in ("nonzero", "where")):
            return value.with_(dtype=_array_dtype(node, name, args))
        return value

    def array_shape(
        self,
        node: ast.Call,
        module: str,
        name: str,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        is_np = module == "numpy" or module.startswith("numpy.")
        ty = NP_ARRAY if is_np else ARRAY
        random = module.endswith("random")
        table = _RANDOM_CONSTRUCTORS if random else _CONSTRUCTORS
        if name in table:
            return self.construct(node, ty, table[name], args, kwargs)
        if name in ("zeros_like", "ones_like", "empty_like", "full_like"):
            return args[0].with_(ty=ty, items=()) if args else Value(ty=ty)
        if name in _DATA_DEPENDENT or (
            name == "where" and len(node.args) == 1 and not node.keywords
        ):
            if "size" in kwargs:
                return Value(ty=ty, vsrc=_args_vsrc(args, kwargs))
            sources = _args_vsrc(args, kwargs) | frozenset().union(
                *(shape_sources(a) for a in args)
            )
            made = TUPLE if name in ("nonzero", "where") else ty
            if sources:
                taint = Taint("RTL104", f"{self.mod.pos.text(node)}", self.loc(node), sources)
                return Value(ty=made, vsrc=sources, shape=frozenset({taint}))
            return Value(ty=made)
        if name in ("split", "array_split") and name == "array_split":
            along = None if len(node.args) > 2 or "axis" in kwargs else 0
            taint = Taint(
                "RTL103",
                f"{self.mod.pos.text(node)} (uneven pieces)",
                self.loc(node),
                frozenset({ItemSrc()}),
                along,
            )
            return Value(ty=LIST, shape=frozenset({taint}))
        if name == "reshape" and len(node.args) >= 2:
            return self.reshape(node, args[0], args[1:], node.args[1:], ty)
        if name == "pad" and len(node.args) >= 2:
            return self.pad(node, ty, args)
        if name in _REDUCTIONS:
            keep = "axis" in kwargs or len(node.args) > 1
            return combine(args, ty=ty, keep_shape=keep)
        if name in _JOINS:
            joined = self.join(node, name, ty, args)
            if joined is not None:
                return joined
        if name in ("array", "asarray") and args and not _is_display(node.args[0]):
            # An array made from an array (or from a list, one row per item) keeps its axes.
            made = args[0]
            return Value(
                ty=ty,
                vsrc=_args_vsrc(args, kwargs),
                shape=made.shape,
                deps=made.deps,
                dims=made.dims,
            )
        if name in _FROM_LIST or name in _GROWERS:
            return combine([*args, *kwargs.values()], ty=ty).with_(items=())
        if name in ("where", "maximum", "minimum", "dot", "matmul", "einsum", "outer", "kron"):
            return combine(args, ty=ty)
        if name in _NOT_ARRAYS or name[:1].isupper():
            # Shapes, dtypes, predicates and classes: values about arrays, not arrays.
            ty = TUPLE if name == "shape" else UNKNOWN
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs) | _shapes_of(args))
        if name in _ELEMENTWISE and args and all(a.ty in SCALARS for a in args[1:]):
            # One array, element by element (a scalar or two beside it): each axis stays.
            return combine(args, ty=ty, aligned=True).with_(dims=args[0].dims)
        # Elementwise and other array functions: the result has the shape of the inputs.
        return combine(args, ty=ty) if args else Value(ty=ty)

    def reshape(
        self, node: ast.Call, base: Value, dims: list[Value], written: list[ast.expr], ty: str
    ) -> Value:
        lens = self.reshaped_lengths(written)
        base = unaligned(base)
        axis = None
        if lens is not None:
            # Every length is given: an array of another size would not reshape at all, so what
            # changed the base's size changes the given lengths that vary, and only those.
            varying = [k for k, length in enumerate(lens) if length.sources]
            if not varying:
                return Value(ty=ty, vsrc=base.vsrc, dims=Dims(tuple(lens), ranked=True))
            if len(varying) == 1:
                axis = varying[0]
                base = base.with_(shape=frozenset(replace(t, axis=axis) for t in base.shape))
            base = base.with_(dims=Dims(tuple(lens), ranked=True))
        sources = frozenset().union(*(d.vsrc for d in dims))
        if sources:
            taint = Taint("RTL105", self.mod.pos.text(node), self.loc(node), sources, axis)
            return base.with_(ty=ty, shape=base.shape | {taint}, items=())
        return base.with_(ty=ty, items=())

    def reshaped_lengths(self, written: list[ast.expr]) -> list[Length] | None:
        """The lengths a reshape gives, when each is written out as an int (none is -1)."""
        if len(written) == 1 and isinstance(written[0], ast.Tuple | ast.List):
            written = written[0].elts
        if not written or any(isinstance(e, ast.Starred) or not self.int_like(e) for e in written):
            return None
        polys = [self.size_poly(e) for e in written]
        if any(_constant(poly) == -1 for poly, _ in polys):
            return None
        return [self.length(poly, atoms) for poly, atoms in polys]

    # -- arrays of a known length: constructors, padding, joins ----------------------------------------
    def construct(
        self,
        node: ast.Call,
        ty: str,
        sized: _Sized,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        lens = self.made_lengths(node, sized, args, kwargs)
        if lens is None:  # a shape we cannot read axis by axis (a tuple in a variable)
            size = _size_argument(node, args, kwargs, sized.keyword, sized.position)
            if size.vsrc:
                taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), size.vsrc)
                return Value(ty=ty, vsrc=size.vsrc, shape=frozenset({taint}))
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs))
        dims = Dims(tuple(lens), ranked=True)
        varying = [axis for axis, length in enumerate(lens) if length.sources]
        if not varying:
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs), dims=dims)
        sources = frozenset().union(*(lens[axis].sources for axis in varying))
        axis = varying[0] if len(varying) == 1 else None
        taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), sources, axis)
        return Value(ty=ty, vsrc=sources, shape=frozenset({taint}), dims=dims)

    def made_lengths(
        self,
        node: ast.Call,
        sized: _Sized,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> list[Length] | None:
        """The lengths of the axes of an array a constructor makes; None when they cannot be read."""
        if sized.kind == "dims":
            return [self.length(*self.size_poly(a)) for a in node.args]
        if sized.kind == "range":
            made = self.arange_length(node)
            return [made] if made is not None else None
        arg = _argument(node, sized.keyword, sized.position)
        if sized.kind == "square":
            if arg is None:
                return None
            side = self.length(*self.size_poly(arg))
            second = (
                _argument(node, sized.second, (sized.position or 0) + 1) if sized.second else None
            )
            return [side, self.length(*self.size_poly(second)) if second is not None else side]
        if arg is None:
            if sized.kind == "count":
                return [constant_length(sized.default)] if sized.default is not None else None
            return []
        if sized.kind == "shape" and isinstance(arg, ast.Tuple | ast.List):
            if any(isinstance(e, ast.Starred) for e in arg.elts):
                return None
            return [self.length(*self.size_poly(e)) for e in arg.elts]
        if not self.int_like(arg):
            return None
        return [self.length(*self.size_poly(arg))]

    def int_like(self, node: ast.AST) -> bool:
        """Whether a size argument is one int (not a tuple of them): an int, arithmetic, a length."""
        value = self.quiet(node)
        if value.ty == INT:
            return True
        if value.ty in (TUPLE, LIST) or value.items:
            return False
        if isinstance(node, ast.Name) and node.id not in self.defs:
            # A parameter or loop variable of unknown type: an int, unless its name says shape.
            return value.ty == UNKNOWN and "shape" not in node.id.lower()
        node = _definition(node, self.defs)
        return (
            isinstance(node, ast.BinOp | ast.UnaryOp)
            or (isinstance(node, ast.Constant) and type(node.value) is int)
            or _length_read(node) is not None
        )

    def arange_length(self, node: ast.Call) -> Length | None:
        """``arange(stop)`` / ``arange(start, stop[, step])``: (stop - start) / step elements."""
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        positional = list(node.args)
        if len(positional) == 1:
            positional.insert(0, keywords.get("start"))  # type: ignore[arg-type]
        start, stop, step = (
            positional[i] if i < len(positional) else keywords.get(name)
            for i, name in enumerate(("start", "stop", "step"))
        )
        if stop is None:
            return None
        atoms: Atoms = {}
        width = _add(
            self.poly(stop, atoms),
            self.poly(start, atoms),
            -1,
        )
        if step is None:
            return self.length(width, atoms)
        stride = self.poly(step, atoms)
        by = _constant(stride)
        if by is not None and by > 0 and all(v % by == 0 for v in width.values()):
            return self.length({k: v // by for k, v in width.items()}, atoms)
        # Rounded up, or a step that is not a literal: an atom of its own, changing with its parts.
        sources = self.varying(_add(width, stride, 1), atoms)
        name = f"arange@{node.lineno}:{node.col_offset}"
        return Length.of({(name,): 1}, {name: sources})

    def pad(self, node: ast.Call, ty: str, args: list[Value]) -> Value:
        """``pad(x, widths)``: each axis as long as before plus its widths."""
        base, widths = args[0], args[1]
        value = base.with_(ty=ty, items=(), ref=None)
        parsed = _pad_widths(node.args[1])
        if parsed is not None:
            pairs, every = parsed
            if every:
                rank = len(base.dims.lens) if base.dims is not None and base.dims.ranked else None
                pairs = pairs * rank if rank is not None else []
            if pairs:
                made = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), EMPTY)
                for axis, (before, after) in enumerate(pairs):
                    atoms: Atoms = {}
                    whole = self.length_of(node.args[0], base, axis, atoms)
                    added = _add(
                        self.poly(before, atoms),
                        self.poly(after, atoms),
                        1,
                    )
                    own = frozenset(_atoms_in(added) - _atoms_in(whole))
                    length = self.length(_add(whole, added, 1), atoms)
                    value = self.with_length(value, axis, length, own, made)
                assert value.dims is not None
                return value.with_(dims=Dims(value.dims.lens[: len(pairs)], True))
        if widths.vsrc:  # widths we cannot read axis by axis
            taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), widths.vsrc)
            return value.with_(shape=value.shape | {taint}, dims=None)
        return value.with_(dims=None)

    def join(self, node: ast.Call, name: str, ty: str, args: list[Value]) -> Value | None:
        """``concatenate``, ``stack``, ``hstack``... of a list display: the lengths along the axis add
        up (or the parts count, on a new axis). None when the parts or the axis cannot be read."""
        parts = node.args[0] if node.args else None
        if not isinstance(parts, ast.List | ast.Tuple) or not parts.elts:
            return None
        if any(isinstance(e, ast.Starred) for e in parts.elts):
            return None
        values = list(args[0].items)
        if len(values) != len(parts.elts):
            values = [self.quiet(e) for e in parts.elts]
        ranks = {len(v.dims.lens) if v.dims is not None and v.dims.ranked else None for v in values}
        rank = ranks.pop() if len(ranks) == 1 else None
        (kind, axis), one_d = _JOINS[name]
        if one_d is not None:
            if rank is None:
                return None
            if rank == 1:
                kind, axis = one_d
        if name in ("concatenate", "stack"):
            given = _argument(node, "axis", 1)
            if given is not None:
                literal = _constant(_poly(given, {}))
                if literal is None or not isinstance(given, ast.Constant | ast.UnaryOp):
                    return None
                axis = int(literal)
        if axis < 0:
            if rank is None:
                return None
            axis += rank + (1 if kind == "new" else 0)
        lens = _common_lengths(values)
        value = combine(values, ty=ty, aligned=True)
        if kind == "new":
            shifted = frozenset(
                t if t.axis is None or t.axis < axis else replace(t, axis=t.axis + 1)
                for t in value.shape
            )
            lens += (None,) * (axis - len(lens))
            new_lens = (*lens[:axis], constant_length(len(values)), *lens[axis:])
            return unaligned(value).with_(shape=shifted, dims=Dims(new_lens, rank is not None))
        atoms: Atoms = {}
        total: Poly = {}
        for element, part in zip(parts.elts, values, strict=True):
            total = _add(total, self.length_of(element, part, axis, atoms), 1)
        value = value.with_(dims=Dims(lens, rank is not None))
        return self.with_length(value, axis, self.length(total, atoms))

    def resized(
        self, receiver: ast.AST, current: Value, node: ast.Call, args: list[Value]
    ) -> Value | None:
        """A list after ``append``/``extend``/``clear``..., when its new length is known without an
        old unknown one; None otherwise."""
        func = node.func
        assert isinstance(func, ast.Attribute)
        atoms: Atoms = {}
        old = self.length_of(receiver, current, 0, atoms)
        change = _LIST_RESIZE[func.attr]
        if change is None:  # extend: by as many as it is given
            if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
                return None
            added = self.length_of(node.args[0], args[0], 0, atoms)
        else:
            added = {(): change} if change else {}
        new = {} if func.attr == "clear" else _add(old, added, 1)
        if _length_atom(receiver, 0, self.defs, self) in _atoms_in(new):
            return None
        own = frozenset(_atoms_in(added) - _atoms_in(old))
        text = self.mod.pos.text(node)
        made = Taint("RTL102", _clip(text), self.loc(node), EMPTY)
        return self.with_length(current, 0, self.length(new, atoms), own, made)

    def method_call(
        self,
        node: ast.Call,
        method: str,
        receiver: Value,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value | None:
        func = node.func
        assert isinstance(func, ast.Attribute)
        if method in _LIST_RESIZE and isinstance(func.value, ast.Name):
            name = func.value.id
            current = self.env.get(name)
            if current is not None and current.ty in (LIST, UNKNOWN):
                current = current.with_(ty=LIST, ref=None)
                resized = self.resized(func.value, current, node, args)
                # A list kept from one iteration to the next grows with each; one made in this
                # iteration grows only when its new length still depends on an unknown one.
                kept = bool(self.loops) and name not in self.assigned.get(self.loops[-1], ())
                if method in _LIST_GROW_METHODS and self.loops and (kept or resized is None):
                    # Its length relative to this iteration's start is still worth knowing (a loop
                    # that appends the same number of items each time fills it to a known length).
                    grown = self.grow(current, node, self.mod.pos.text(node))
                    self.env[name] = grown.with_(dims=resized.dims if resized else None)
                elif resized is not None:
                    self.env[name] = resized
            if method in _LIST_GROW_METHODS and self.loops:
                return Value(ty=NONE)
        if receiver.ty == "loader":
            if method == "batch":
                return self.loader(node, ".batch()", "drop_remainder", kwargs)
            if method in _LOADER_PASS_METHODS:
                return receiver
        if method == "batch" and _looks_like_tf_data(func.value):
            return self.loader(node, ".batch()", "drop_remainder", kwargs)
        if receiver.ty in (ARRAY, NP_ARRAY, JIT_OUT) or receiver.shape or receiver.deps:
            if method == "reshape" and node.args:
                return self.reshape(node, receiver, args, node.args, receiver.ty)
            if method in _REDUCTIONS or method in _INDEX_FUNCTIONS:
                keep = "axis" in kwargs or bool(node.args) or method not in _REDUCTIONS
                value = combine([receiver, *args], ty=receiver.ty, keep_shape=keep)
                return value.with_(dtype="int32") if method in _INDEX_FUNCTIONS else value
            if method == "astype" and node.args:
                return receiver.with_(items=(), ty=ARRAY, dtype=_dtype_name(node.args[0]))
            if method in _ARRAY_METHODS_KEEP:
                return receiver.with_(items=())
            if method in _ARRAY_METHODS_MOVE:
                return unaligned(receiver).with_(items=())
        if method == "get" and receiver.ty == DICT:
            return _element(receiver)
        return None


_DTYPES = {
    "float16": "float16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float64": "float32",  # without x64, jax stores float64 requests as float32
    "float": "float32",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int32",
    "int": "int32",
    "uint8": "uint8",
    "uint32": "uint32",
    "bool": "bool",
    "bool_": "bool",
    "complex64": "complex64",
    "complex128": "complex64",
}
# Functions that return positions (indices), whatever the dtype of their input: int32 arrays (a tuple
# of them for nonzero and one-argument where).
_INDEX_FUNCTIONS = {
    "argmax",
    "argmin",
    "argsort",
    "argpartition",
    "searchsorted",
    "nonzero",
    "flatnonzero",
    "argwhere",
    "digitize",
    "bincount",
    "lexsort",
}
# Functions applied element by element: with one array argument, the result has its shape and axes.
_ELEMENTWISE = {
    "abs",
    "absolute",
    "negative",
    "sign",
    "exp",
    "expm1",
    "exp2",
    "log",
    "log1p",
    "log2",
    "log10",
    "sqrt",
    "square",
    "power",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "arcsin",
    "arccos",
    "arctan",
    "floor",
    "ceil",
    "rint",
    "round",
    "trunc",
    "clip",
    "nan_to_num",
    "isnan",
    "isfinite",
    "isinf",
    "conj",
    "real",
    "imag",
    "float32",
    "float64",
    "float16",
    "bfloat16",
    "int32",
    "int64",
    "int8",
    "uint8",
    "bool_",
}
_FLOAT_MAKERS = {"zeros", "ones", "empty", "eye", "identity", "linspace", "normal", "uniform"}
_SCALAR_DTYPE = {INT: "int32", FLOAT: "float32", BOOL: "bool"}


def _dtype_name(node: ast.AST) -> str | None:
    """``jnp.float32``, ``np.int64``, ``"int32"``, ``bool`` as jax's (32-bit) dtype name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _DTYPES.get(node.value)
    dotted = _dotted(node)
    return _DTYPES.get(dotted.rpartition(".")[2]) if dotted else None


def _array_dtype(node: ast.Call, name: str, args: list[Value]) -> str | None:
    """The dtype of an array made by a jax.numpy / numpy call, when the call shows it."""
    for keyword in node.keywords:
        if keyword.arg == "dtype":
            return _dtype_name(keyword.value)
    if name in _INDEX_FUNCTIONS or (name == "where" and len(node.args) == 1):
        return "int32"
    if name in _DTYPES:
        return _DTYPES[name]
    if name in _FLOAT_MAKERS:
        return "float32"
    if name == "randint":
        return "int32"
    if name == "full" and len(args) > 1:
        return _SCALAR_DTYPE.get(args[1].ty) or args[1].dtype
    if name == "arange":
        tys = {a.ty for a in args}
        return "float32" if FLOAT in tys else ("int32" if tys == {INT} else None)
    if name in ("array", "asarray") and args:
        first = args[0]
        if first.items:
            tys = {item.ty for item in first.items}
            if tys <= {INT}:
                return "int32"
            if tys <= {INT, FLOAT}:
                return "float32"
            if tys == {BOOL}:
                return "bool"
            return None
        return _SCALAR_DTYPE.get(first.ty) or first.dtype
    if name in ("zeros_like", "ones_like", "empty_like") and args:
        return args[0].dtype
    dtypes = {a.dtype for a in args if a.ty in (ARRAY, NP_ARRAY, "mask")}
    return dtypes.pop() if len(dtypes) == 1 else None


def _arith_dtype(left: Value, right: Value) -> str | None:
    """Array arithmetic: equal dtypes stay; a Python scalar takes the array's dtype (weak typing)."""
    arrays = [v for v in (left, right) if v.ty in (ARRAY, NP_ARRAY, "mask")]
    scalars = [v for v in (left, right) if v.ty in (INT, FLOAT, BOOL)]
    dtypes = {v.dtype for v in arrays}
    if len(dtypes) != 1 or len(arrays) + len(scalars) != 2:
        return None
    dtype = dtypes.pop()
    if dtype and dtype.startswith(("int", "uint")) and any(v.ty == FLOAT for v in scalars):
        return "float32"
    return dtype


_BIG_DISPLAY = 64
_RECURSION_LIMIT = 12_000


_DISPLAYS = (ast.Tuple, ast.List, ast.Set)


def _same_literals(node: ast.AST) -> bool:
    """A display of literal items that are all equal: iterating it gives one value again and again."""
    if not isinstance(node, ast.Tuple | ast.List | ast.Set) or not node.elts:
        return False
    first = ast.dump(node.elts[0])
    return all(_is_constant_data(e) and ast.dump(e) == first for e in node.elts)


def _is_constant_data(node: ast.AST) -> bool:
    """A literal or a flat tuple/list of literals (a row of a data table)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List):
        return all(isinstance(e, ast.Constant) for e in node.elts)
    return False


# Expressions whose value is one of their operands, unchanged.
_SAME_VALUE = (ast.Name, ast.NamedExpr, ast.Starred, ast.Await, ast.IfExp, ast.BoolOp)
_MATH_INTS = {"floor", "ceil", "trunc", "isqrt", "comb", "perm", "factorial", "gcd", "lcm"}
_NOT_ARRAYS = {
    "shape",
    "ndim",
    "size",
    "result_type",
    "dtype",
    "issubdtype",
    "promote_types",
    "can_cast",
    "finfo",
    "iinfo",
    "iscomplexobj",
    "isrealobj",
    "isscalar",
    "isdtype",
    "broadcast_shapes",
    "get_printoptions",
}


def _shapes_of(values: list[Value]) -> frozenset[Src]:
    return frozenset().union(*(shape_sources(v) for v in values))


def _element(value: Value) -> Value:
    """An item of a container value: we know only that it varies with the container."""
    if value.ty == TUPLE and value.dtype is not None:  # nonzero(x): a tuple of int32 arrays
        return Value(vsrc=value.vsrc, deps=_param_deps(value), ty=ARRAY, dtype=value.dtype)
    return Value(vsrc=value.vsrc, deps=_param_deps(value))


def _unpacked(value: Value, item: int | None = None) -> Value:
    """Element ``item`` of the values unpacked from ``value`` (``xb, yb = batch``).

    The element of a call's result is resolved at link time; otherwise it keeps every shape change.
    Unpacking a tuple or a batch keeps axes where they were; unpacking an array gives its rows.
    """
    deps = frozenset(
        replace(d, item=item) if isinstance(d, RetDep | IterDep) and item is not None else d
        for d in value.deps
    )
    if value.ty in JIT_RESULTS:  # the parts of a jitted function's result are jax arrays too
        return Value(ty=value.ty, vsrc=value.vsrc, shape=value.shape, deps=deps)
    if value.ty == TUPLE and value.dtype is not None:  # nonzero(x): a tuple of int32 arrays
        return Value(vsrc=value.vsrc, shape=value.shape, deps=deps, ty=ARRAY, dtype=value.dtype)
    element = Value(vsrc=value.vsrc, shape=value.shape, deps=deps)
    return unaligned(element) if value.ty in (ARRAY, NP_ARRAY) else element


def _param_deps(value: Value) -> frozenset:
    """The parameters a part of ``value`` (an item, an attribute) comes from: its axes are its own."""
    if not value.deps:
        return EMPTY
    return frozenset(unaligned_dep(d) for d in value.deps if isinstance(d, ParamDep))


def _args_vsrc(args: list[Value], kwargs: dict[str | None, Value]) -> frozenset[Src]:
    out: set[Src] = set()
    for value in [*args, *kwargs.values()]:
        out |= value.vsrc
    return frozenset(out)


def _argument(node: ast.Call, keyword: str | None, position: int | None) -> ast.AST | None:
    """The expression passed for a parameter, by keyword or at its position."""
    for k in node.keywords:
        if keyword is not None and k.arg == keyword:
            return k.value
    if position is not None and position < len(node.args):
        arg = node.args[position]
        if not any(isinstance(a, ast.Starred) for a in node.args[: position + 1]):
            return arg
    return None


def _is_display(node: ast.AST) -> bool:
    return isinstance(node, ast.List | ast.Tuple | ast.ListComp | ast.GeneratorExp)


def _pad_widths(node: ast.AST) -> tuple[list[tuple[ast.AST, ast.AST]], bool] | None:
    """``pad``'s widths as (before, after) per axis, and whether one pair stands for every axis:
    ``n``, ``(a, b)``, ``((a, b),)`` are every axis; ``((a0, b0), (a1, b1))`` one pair per axis."""

    def pair(item: ast.AST) -> tuple[ast.AST, ast.AST] | None:
        if not isinstance(item, ast.Tuple | ast.List):
            return item, item
        if len(item.elts) == 2 and not any(isinstance(e, ast.Starred) for e in item.elts):
            return item.elts[0], item.elts[1]
        if len(item.elts) == 1 and not isinstance(item.elts[0], ast.Starred):
            return item.elts[0], item.elts[0]
        return None

    if not isinstance(node, ast.Tuple | ast.List):
        return [(node, node)], True
    nested = [isinstance(e, ast.Tuple | ast.List) for e in node.elts]
    if node.elts and all(nested):
        pairs = [pair(e) for e in node.elts]
        if any(p is None for p in pairs):
            return None
        return pairs, len(pairs) == 1  # type: ignore[return-value]
    if not any(nested):
        only = pair(node)
        return ([only], True) if only is not None else None
    return None


def _common_lengths(values: list[Value]) -> tuple[Length | None, ...]:
    """Per axis, the length all ``values`` share (None where they differ or it is unknown)."""
    dims = [v.dims.lens if v.dims is not None else () for v in values]
    longest = max(len(d) for d in dims)
    out = []
    for axis in range(longest):
        seen = {d[axis] if axis < len(d) else None for d in dims}
        out.append(seen.pop() if len(seen) == 1 else None)
    return tuple(out)


def _size_argument(
    node: ast.Call,
    args: list[Value],
    kwargs: dict[str | None, Value],
    keyword: str | None,
    position: int | None,
) -> Value:
    if keyword is None and position is None:
        return combine(args, keep_shape=False)
    if keyword in kwargs:
        return kwargs[keyword]
    if position is not None and position < len(args):
        return args[position]
    return Value()


def _has_carry(value: Value) -> bool:
    return any(isinstance(s, CarrySrc) for s in value.vsrc) or any(
        any(isinstance(s, CarrySrc) for s in t.sources) for t in value.shape
    )


def _drop_carry(value: Value) -> Value:
    if not _has_carry(value):
        return value
    return value.with_(
        vsrc=frozenset(s for s in value.vsrc if not isinstance(s, CarrySrc)),
        shape=frozenset(
            t.with_sources(frozenset(s for s in t.sources if not isinstance(s, CarrySrc)))
            for t in value.shape
        ),
    )


def _plain(value: Value) -> Value:
    """A value as a summary keeps it: lengths are facts of the walk, named by this function's atoms."""
    return value if value.dims is None else value.with_(dims=None)


def _export(value: Value | None, item: bool = False) -> Value | None:
    """A return (or yield) value as callers see it: the function's own loops are not theirs."""
    if value is None:
        return None

    def local(src: Src) -> bool:
        return isinstance(src, LoopSrc | CarrySrc)

    def convert(sources: frozenset[Src]) -> frozenset[Src]:
        kept = frozenset(s for s in sources if not local(s))
        if item and any(isinstance(s, LoopSrc) for s in sources):
            kept |= {ItemSrc()}
        return kept

    shape = set()
    for taint in value.shape:
        sources = convert(taint.sources)
        if sources:
            shape.add(taint.with_sources(sources))
    items = tuple(_export(i, item) or UNKNOWN_VALUE for i in value.items)
    return value.with_(
        vsrc=convert(value.vsrc),
        shape=frozenset(shape),
        fresh=convert(value.fresh),
        items=items,
        dims=None,  # its atoms are this function's
    )


def _grows_itself(name: str, source: ast.AST, mod: _ModulePass) -> bool:
    """``acc = concatenate([acc, x])``, ``xs = xs + [x]``: a value rebuilt larger from itself."""
    if isinstance(source, ast.BinOp) and isinstance(source.op, ast.Add):
        operands = (source.left, source.right)
        other = source.right if _is_name(source.left, name) else source.left
        return any(_is_name(o, name) for o in operands) and isinstance(
            other, ast.List | ast.Tuple | ast.ListComp
        )
    if isinstance(source, ast.Call):
        canon = mod.canonical(_dotted(source.func) or "")
        if canon.rpartition(".")[2] in _GROWERS and (
            canon.rpartition(".")[0] in _ARRAY_MODULES or _array_module(canon.rpartition(".")[0])
        ):
            for arg in source.args[:1]:
                elements = arg.elts if isinstance(arg, ast.List | ast.Tuple) else [arg]
                if any(_is_name(e, name) for e in elements):
                    return True
            return any(_is_name(a, name) for a in source.args[:1])
    return False


def _jit_result(args: list[Value], kwargs: dict[str | None, Value]) -> Value:
    """A jitted function's result: arrays, weakly typed only when every input was a Python scalar
    (a weak input stays weak through jit unless it meets a strong one)."""
    given = [a for a in (*args, *kwargs.values()) if a.ty not in (NONE, STR)]  # not leaves
    weak = given and all(a.ty in (INT, FLOAT, BOOL, JIT_OUT_WEAK) for a in given)
    return Value(ty=JIT_OUT_WEAK if weak else JIT_OUT, vsrc=_args_vsrc(args, kwargs))


def _kind_flip(start: Value, then: Value) -> tuple[str, str, str] | None:
    for code, kind_of, _ in FLIP_KINDS:
        a, b = kind_of(start), kind_of(then)
        if kinds_differ(a, b):
            return code, a, b  # type: ignore[return-value]
    return None


def _none_test(test: ast.AST) -> tuple[str, int] | None:
    """For ``if x is None:`` / ``if x is not None:``, the name and the branch where it is not None."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is | ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left.id, 0 if isinstance(test.ops[0], ast.IsNot) else 1
    return None


def _not_none(value: Value) -> Value:
    """The value where a test has ruled out None: a start as None no longer flips its structure."""
    kept = frozenset(
        t for t in value.shape if not (t.code == "RTL403" and " starts as None and is " in t.what)
    )
    return value if kept == value.shape else value.with_(shape=kept)


def _iterations(iterable: ast.AST | None) -> int | None:
    """How many times a loop over ``iterable`` runs, when the source spells it out: a display of
    items or ``range`` of literal integers (``enumerate``/``zip`` of those keep the count)."""
    if isinstance(iterable, ast.List | ast.Tuple | ast.Set) and not any(
        isinstance(e, ast.Starred) for e in iterable.elts
    ):
        return len(iterable.elts)
    if not isinstance(iterable, ast.Call) or not isinstance(iterable.func, ast.Name):
        return None
    args = iterable.args
    if iterable.func.id == "range" and args and not iterable.keywords:
        bounds = _literal_ints(ast.Tuple(elts=args))
        if bounds is not None:
            return len(range(*bounds)) if len(bounds) <= 3 and bounds[-1:] != (0,) else None
    if iterable.func.id in ("enumerate", "reversed") and args:
        return _iterations(args[0])
    if iterable.func.id == "zip" and args:
        counts = [_iterations(a) for a in args]
        known = [c for c in counts if c is not None]
        return min(known) if known else None
    return None


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _array_module(module: str) -> bool:
    return module.startswith(("jax.numpy", "numpy", "jax.random", "jax.lax"))


def _looks_like_class(dotted: str) -> bool:
    last = dotted.rpartition(".")[2]
    return bool(last) and last[0].isupper() and not last.isupper()


def _looks_like_tf_data(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "tf.data" in text or "from_tensor_slices" in text or "Dataset" in text or "tfds" in text


def _fresh_kind(value: Value, node: ast.AST, receiver: Value | None) -> str | None:
    """What kind of new function object ``node`` makes each time it runs, if it makes one. Reading a
    method off an object (``self.step``, ``unit.adjust`` for an instance made here) makes a new bound
    method each time; a module's function (``np.sum``) or a class's is the same object. A parameter
    may hold either (tests pass modules: ``pipeline.step``), so it is not taken as an object."""
    if value.ty == LAMBDA:
        return "lambda"
    if value.ty == PARTIAL:
        return "partial"
    if value.ty == TRANSFORM:
        return "transformed function"
    if value.ty == FUNCTION and value.fresh:
        return "nested def"
    if receiver is not None and (receiver.ref == "<self>" or receiver.ty == INSTANCE):
        return "bound method"
    return None


def _full_chunks(stop: ast.AST | None, step: ast.AST | None, defs: dict[str, ast.AST]) -> bool:
    """Whether every chunk of ``range(start, stop, step)`` is visibly full.

    Either ``stop`` is a multiple of ``step`` (``n - n % bs``, ``n // bs * bs``, literals), or the range
    stops a whole chunk before the end (``range(0, n - bs + 1, bs)``).
    """
    if stop is None or step is None:
        return False
    atoms: dict[str, ast.AST] = {}
    step_poly = _poly(step, atoms, defs)
    stop_poly = _poly(stop, atoms, defs)
    if len(step_poly) == 1:
        ((monomial, coefficient),) = step_poly.items()
        if monomial and stop_poly.get(monomial, 0) == -coefficient:
            return True
    stop = _definition(stop, defs)
    try:
        a, b = ast.literal_eval(stop), ast.literal_eval(step)
        if isinstance(a, int) and isinstance(b, int) and b:
            return a % b == 0
    except (ValueError, SyntaxError, TypeError):
        pass
    step_text = ast.unparse(step)
    text = ast.unparse(stop).replace(" ", "")
    s = step_text.replace(" ", "")
    return f"//{s}*{s}" in text or f"%{s}" in text or f"*{s}" == text[-len(s) - 1 :]


def _ceil_like(stop: ast.AST | None, defs: dict[str, ast.AST]) -> bool:
    if stop is None:
        return False
    text = ast.unparse(_definition(stop, defs)).replace(" ", "")
    return "ceil" in text or text.startswith("-(-") or bool(re.search(r"-1\)//|//\w+\+1\b", text))


def _definition(node: ast.AST, defs: dict[str, ast.AST]) -> ast.AST:
    if isinstance(node, ast.Name) and node.id in defs:
        return defs[node.id]
    return node


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


__all__ = ["SummaryOptions", "module_text", "summarise"]
