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
from fractions import Fraction
from functools import lru_cache

from retracelint.jitspec import BUILTIN_WRAPPERS, TRACING_APIS, TRACING_METHODS, Wrapper
from retracelint.model import Location
from retracelint.summary import (
    Arg,
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
    SET,
    STR,
    TRANSFORM,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    WEAK,
    CallSrc,
    CarrySrc,
    ItemSrc,
    IterDep,
    LoopSrc,
    ParamDep,
    ParamSrc,
    RetDep,
    Src,
    Taint,
    Value,
    combine,
    join,
    kinds_differ,
    shape_sources,
    size_of,
)

_ARRAY_MODULES = ("jax.numpy", "numpy", "jnp", "np")
_RANDOM_MODULES = ("jax.random", "numpy.random")
_CONSTRUCTORS = {
    "zeros": ("shape", 0),
    "ones": ("shape", 0),
    "empty": ("shape", 0),
    "full": ("shape", 0),
    "eye": ("N", 0),
    "identity": ("n", 0),
    "arange": (None, None),  # every argument is a bound
    "linspace": ("num", 2),
    "tri": ("N", 0),
}
_RANDOM_CONSTRUCTORS = {
    "normal": ("shape", 1),
    "uniform": ("shape", 1),
    "bernoulli": ("shape", 2),
    "randint": ("shape", 1),
    "truncated_normal": ("shape", 3),
    "categorical": ("shape", 3),
    "permutation": (None, 1),
    "rand": (None, None),
    "randn": (None, None),
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
_ARRAY_METHODS_KEEP = {
    "astype",
    "squeeze",
    "flatten",
    "ravel",
    "transpose",
    "copy",
    "clip",
    "round",
    "block_until_ready",
    "T",
}
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


def _carried_out(values: dict[str, Value], assigned: set[str], src: Src) -> dict[str, Value]:
    """The environment after one walk of a loop body, carry markers dropped: a name the body assigns
    from its own value at the previous iteration varies per iteration (``src``)."""
    out = {}
    for name, value in values.items():
        carried = name in assigned and _has_carry(value)
        value = _drop_carry(value)
        out[name] = value.with_(vsrc=value.vsrc | {src}) if carried else value
    return out


def _assigned_names(body: list[ast.stmt]) -> set[str]:
    """Names bound anywhere in a block (not descending into nested defs), for loop-carried analysis."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return names


# ---------------------------------------------------------------------------------------------------
# Slice widths as polynomials: x[i:i+bs] has width bs whatever i is, x[:i] has width i.

Poly = dict[tuple[str, ...], Fraction]


def _poly(
    node: ast.AST | None,
    atoms: dict[str, ast.AST],
    defs: dict[str, ast.AST] | None = None,
    depth: int = 0,
) -> Poly:
    """``node`` as a polynomial over opaque atoms; names assigned arithmetic locally are expanded."""
    if node is None:
        return {}
    if isinstance(node, ast.Name) and defs and depth < 4:
        definition = defs.get(node.id)
        if isinstance(definition, ast.BinOp | ast.UnaryOp | ast.Constant):
            return _poly(definition, atoms, defs, depth + 1)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        return {(): Fraction(node.value)} if node.value else {}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return {k: -v for k, v in _poly(node.operand, atoms, defs, depth).items()}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        left, right = _poly(node.left, atoms, defs, depth), _poly(node.right, atoms, defs, depth)
        sign = 1 if isinstance(node.op, ast.Add) else -1
        return _add(left, right, sign)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left, right = _poly(node.left, atoms, defs, depth), _poly(node.right, atoms, defs, depth)
        out: Poly = {}
        for lk, lv in left.items():
            for rk, rv in right.items():
                key = tuple(sorted(lk + rk))
                out[key] = out.get(key, Fraction(0)) + lv * rv
        return {k: v for k, v in out.items() if v}
    text = _dotted(node) or ast.unparse(node)
    atoms[text] = node
    return {(text,): Fraction(1)}


def _add(left: Poly, right: Poly, sign: int) -> Poly:
    out = dict(left)
    for k, v in right.items():
        out[k] = out.get(k, Fraction(0)) + sign * v
    return {k: v for k, v in out.items() if v}


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
            if current.ty in (LIST, TUPLE) and isinstance(node.op, ast.Add) and self.loops:
                current = self.grow(current, node, f"{node.target.id} += ...")
            self.env[node.target.id] = self.arith(current, rhs, node.op)
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

        self.loop(index, node.body, bind_target)
        self.block(node.orelse)

    s_AsyncFor = s_For

    def s_While(self, node: ast.While) -> None:
        index = self.new_loop(node, f"while {self.mod.pos.text(node.test)}")
        self.loop(index, node.body, lambda: self.expr(node.test))
        self.block(node.orelse)

    def new_loop(self, node: ast.AST, text: str) -> int:
        # Enclosing loops walk their body twice: the same loop statement keeps its index.
        index = self.loop_ids.get(id(node))
        if index is None:
            index = self.loop_ids[id(node)] = len(self.fn.loops)
            iterable = getattr(node, "iter", None)
            over_axes = iterable is not None and _AXES.search(ast.unparse(iterable)) is not None
            count = _iterations(iterable)
            self.fn.loops.append(LoopInfo(index, self.loc(node), text, over_axes, count))
        return index

    def loop(self, index: int, body: list[ast.stmt], head: object) -> None:
        """Walk a loop body twice: the first pass finds what each iteration carries into the next.

        Inside an enclosing loop's first (silent) pass one walk is enough, which keeps nested loops
        linear in depth rather than exponential.
        """
        if not self.recording:
            self.silent_loop(index, body, head)
            return
        assigned = _assigned_names(body)
        before = self.env
        made_before = dict(self.defs)
        self.loops.append(index)
        was_recording = self.recording
        self.recording = False
        first = self.walk_carrying(body, head, before, assigned)
        self.env = _joined(before, _carried_out(first, assigned, LoopSrc(index)))
        self.note_carried_flips(index, before, first, made_before)
        self.recording = was_recording
        head()  # type: ignore[operator]
        self.block(body)
        after = self.env
        self.loops.pop()
        self.env = _joined(before, after)

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

    def silent_loop(self, index: int, body: list[ast.stmt], head: object) -> None:
        """One walk of a loop body that only tracks what it carries (no call sites are recorded)."""
        assigned = _assigned_names(body)
        before = self.env
        self.loops.append(index)
        after = self.walk_carrying(body, head, before, assigned)
        self.loops.pop()
        self.env = _joined(before, _carried_out(after, assigned, LoopSrc(index)))

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
            ):
                value = self.grow(value, source, ast.unparse(source))
            self.env[target.id] = value
            if source is not None:
                self.defs[target.id] = source
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
        taint = Taint("RTL102", _clip(text), self.loc(node), frozenset({LoopSrc(self.loops[-1])}))
        return value.with_(shape=value.shape | {taint}, items=())

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
        if node.attr in ("T", "real", "imag", "mT"):
            return base.with_(items=(), ref=None)
        return Value(vsrc=base.vsrc, deps=_param_deps(base))

    def e_Lambda(self, node: ast.Lambda) -> Value:
        return Value(ty=LAMBDA, fresh=self.context_src())

    def e_List(self, node: ast.List | ast.Tuple | ast.Set) -> Value:
        ty = {ast.List: LIST, ast.Tuple: TUPLE, ast.Set: SET}[type(node)]
        if len(node.elts) > _BIG_DISPLAY and all(map(_is_constant_data, node.elts)):
            return Value(ty=ty)  # a data table: nothing in it varies, and walking it costs seconds
        items = tuple(self.expr(element) for element in node.elts)
        value = combine(list(items), ty=ty)
        return value.with_(items=items if len(items) <= 16 else ())

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
        saved = dict(self.env)
        depth = len(self.loops)
        sources: list[Value] = []
        filtered = False
        text = self.mod.pos.text
        for comp in node.generators:
            # Each `for` of a comprehension is a loop: what the element calls runs once per item.
            iterable = self.expr(comp.iter)
            sources.append(iterable)
            index = self.new_loop(comp, f"for {text(comp.target)} in {text(comp.iter)}")
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
        self.env = saved
        ty = {ast.ListComp: LIST, ast.SetComp: SET, ast.DictComp: DICT}.get(type(node), UNKNOWN)
        shape = set().union(*(v.shape for v in sources))
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
        return self.arith(self.expr(node.left), self.expr(node.right), node.op)

    def arith(self, left: Value, right: Value, op: ast.operator) -> Value:
        value = self.arith_type(left, right, op)
        return value.with_(dtype=_arith_dtype(left, right)) if value.ty == ARRAY else value

    def arith_type(self, left: Value, right: Value, op: ast.operator) -> Value:
        tys = {left.ty, right.ty}
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
        elif isinstance(op, ast.Add) and left.ty in (LIST, TUPLE) and right.ty == left.ty:
            ty = left.ty
        else:
            ty = UNKNOWN
        return combine([left, right], ty=ty)

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

    # -- subscripts: where slices change shapes ------------------------------------------------------
    def e_Subscript(self, node: ast.Subscript) -> Value:
        base = self.expr(node.value)
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        taints = set(base.shape)
        vsrc = set(base.vsrc)
        is_slice = False
        for part in parts:
            if isinstance(part, ast.Slice):
                is_slice = True
                taints.update(self.slice_taints(node, part))
                for bound in (part.lower, part.upper, part.step):
                    vsrc |= self.expr(bound).vsrc
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
        return base.with_(vsrc=frozenset(vsrc), shape=frozenset(taints), items=())

    def slice_taints(self, node: ast.Subscript, part: ast.Slice) -> list[Taint]:
        atoms: dict[str, ast.AST] = {}
        end: Poly = {(_END,): Fraction(1)}
        upper = _poly(part.upper, atoms, self.defs) if part.upper is not None else end
        lower = _poly(part.lower, atoms, self.defs)
        width = _add(upper, lower, -1)
        sources: set[Src] = set()
        for monomial in width:
            for atom in monomial:
                if atom == _END:
                    continue  # the base's own length: its changes are already in base.shape
                atom_node = atoms.get(atom)
                if atom_node is not None:
                    sources |= self.quiet(atom_node).vsrc
        out = []
        if sources:
            out.append(
                Taint(
                    "RTL101", f"slice {self.mod.pos.text(node)}", self.loc(node), frozenset(sources)
                )
            )
        ragged = self.ragged_taint(node, lower, width)
        if ragged is not None:
            out.append(ragged)
        return out

    def ragged_taint(self, node: ast.Subscript, lower: Poly, width: Poly) -> Taint | None:
        """x[i:i+bs] over range(0, n, bs), or x[i*bs:(i+1)*bs] over range(ceil(n / bs)): a short last chunk."""
        if not width or not lower:
            return None
        lower_names = {atom for monomial in lower for atom in monomial}
        for index in reversed(self.loops):
            info = self.ranges.get(index)
            if info is None or info.var not in lower_names:
                continue
            atoms: dict[str, ast.AST] = {}
            if info.step is not None and _poly(info.step, atoms, self.defs) == width:
                if not _full_chunks(info.stop, info.step, self.defs):
                    what = f"chunk {self.mod.pos.text(node)} over range(..., {self.mod.pos.text(info.step)})"
                    return Taint("RTL103", what, self.loc(node), frozenset({LoopSrc(index)}))
            elif info.step is None and _ceil_like(info.stop, self.defs):
                what = f"chunk {self.mod.pos.text(node)} over {self.mod.pos.text(info.stop)} chunks (rounded up)"
                return Taint("RTL103", what, self.loc(node), frozenset({LoopSrc(index)}))
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
                Arg(value, self.loc(a), self.mod.pos.text(a))
                for value, a in zip(args, node.args, strict=True)
                if not isinstance(a, ast.Starred)
            ),
            kwargs=tuple(
                (k.arg, Arg(kwargs[k.arg], self.loc(k.value), self.mod.pos.text(k.value)))
                for k in node.keywords
                if k.arg
            ),
            location=self.loc(node),
            loops=tuple(self.loops) if self.loops else (),
            star=star,
            receiver=receiver_arg,
        )
        self.fn.calls.append(site)
        return len(self.fn.calls) - 1

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
            return args[0].with_(ty=LIST if canon != "tuple" else TUPLE, items=(), ref=None)
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
        if value.ty in (ARRAY, NP_ARRAY):
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
            size = _size_argument(node, args, kwargs, *table[name])
            if size.vsrc:
                taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), size.vsrc)
                return Value(ty=ty, vsrc=size.vsrc, shape=frozenset({taint}))
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs))
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
            if sources:
                taint = Taint("RTL104", f"{self.mod.pos.text(node)}", self.loc(node), sources)
                return Value(
                    ty=TUPLE if name in ("nonzero", "where") else ty,
                    vsrc=sources,
                    shape=frozenset({taint}),
                )
            return Value(ty=ty)
        if name in ("split", "array_split") and name == "array_split":
            taint = Taint(
                "RTL103",
                f"{self.mod.pos.text(node)} (uneven pieces)",
                self.loc(node),
                frozenset({ItemSrc()}),
            )
            return Value(ty=LIST, shape=frozenset({taint}))
        if name == "reshape" and len(node.args) >= 2:
            return self.reshape(node, args[0], args[1:], ty)
        if name == "pad" and len(args) >= 2 and args[1].vsrc:
            taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), args[1].vsrc)
            return args[0].with_(ty=ty, shape=args[0].shape | {taint}, items=())
        if name in _REDUCTIONS:
            keep = "axis" in kwargs or len(node.args) > 1
            return combine(args, ty=ty, keep_shape=keep)
        if name in _FROM_LIST or name in _GROWERS:
            return combine([*args, *kwargs.values()], ty=ty).with_(items=())
        if name in ("where", "maximum", "minimum", "dot", "matmul", "einsum", "outer", "kron"):
            return combine(args, ty=ty)
        if name in _NOT_ARRAYS or name[:1].isupper():
            # Shapes, dtypes, predicates and classes: values about arrays, not arrays.
            ty = TUPLE if name == "shape" else UNKNOWN
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs) | _shapes_of(args))
        # Elementwise and other array functions: the result has the shape of the inputs.
        return combine(args, ty=ty) if args else Value(ty=ty)

    def reshape(self, node: ast.Call, base: Value, dims: list[Value], ty: str) -> Value:
        sources = frozenset().union(*(d.vsrc for d in dims))
        if sources:
            taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), sources)
            return base.with_(ty=ty, shape=base.shape | {taint}, items=())
        return base.with_(ty=ty, items=())

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
        if method in _LIST_GROW_METHODS and isinstance(func.value, ast.Name) and self.loops:
            name = func.value.id
            current = self.env.get(name)
            if current is not None and current.ty in (LIST, UNKNOWN):
                self.env[name] = self.grow(
                    current.with_(ty=LIST, ref=None), node, self.mod.pos.text(node)
                )
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
                return self.reshape(node, receiver, args, receiver.ty)
            if method in _REDUCTIONS:
                keep = "axis" in kwargs or bool(node.args)
                return combine([receiver, *args], ty=receiver.ty, keep_shape=keep)
            if method == "astype" and node.args:
                return receiver.with_(items=(), ty=ARRAY, dtype=_dtype_name(node.args[0]))
            if method in _ARRAY_METHODS_KEEP:
                return receiver.with_(items=())
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
    return Value(vsrc=value.vsrc, deps=_param_deps(value))


def _unpacked(value: Value, item: int | None = None) -> Value:
    """Element ``item`` of the values unpacked from ``value`` (``xb, yb = batch``).

    The element of a call's result is resolved at link time; otherwise it keeps every shape change.
    """
    deps = frozenset(
        replace(d, item=item) if isinstance(d, RetDep | IterDep) and item is not None else d
        for d in value.deps
    )
    # The parts of a jitted function's result are jax arrays (or pytrees of them) too.
    ty = value.ty if value.ty in JIT_RESULTS else UNKNOWN
    return Value(ty=ty, vsrc=value.vsrc, shape=value.shape, deps=deps)


def _param_deps(value: Value) -> frozenset:
    return frozenset(d for d in value.deps if isinstance(d, ParamDep))


def _args_vsrc(args: list[Value], kwargs: dict[str | None, Value]) -> frozenset[Src]:
    out: set[Src] = set()
    for value in [*args, *kwargs.values()]:
        out |= value.vsrc
    return frozenset(out)


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
        vsrc=convert(value.vsrc), shape=frozenset(shape), fresh=convert(value.fresh), items=items
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
