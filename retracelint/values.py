"""The abstract values the summariser computes for expressions, and what makes them vary.

A value is described by *what changes between calls*, not by what it is: its Python-level value may change
(``vsrc``), its shape or pytree structure may change (``shape``: one ``Taint`` per reason), and for objects
compared by identity, whether a fresh object is made each time (``fresh``). Each of these names its sources:
a loop of the enclosing function (varies per iteration), a parameter (varies if the callers make it vary),
the call itself (a fresh object per call of the function), or an item of a generator. Whether a source is
really active is decided later, along the call graph, by ``propagate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from retracelint.model import Location


@dataclass(frozen=True)
class LoopSrc:
    """Varies per iteration of loop ``index`` of the enclosing function."""

    index: int


@dataclass(frozen=True)
class ParamSrc:
    """Varies when the value passed for parameter ``name`` varies."""

    name: str


@dataclass(frozen=True)
class ParamShapeSrc:
    """Varies when the shape (or length) of the value passed for parameter ``name`` varies."""

    name: str


@dataclass(frozen=True)
class CallSrc:
    """A fresh value each time the enclosing function runs."""


@dataclass(frozen=True)
class ItemSrc:
    """Varies per item a generator yields (only in yield summaries)."""


@dataclass(frozen=True)
class CarrySrc:
    """Scratch marker: derived from the value ``name`` had at the head of the loop being analysed."""

    name: str


Src = LoopSrc | ParamSrc | ParamShapeSrc | CallSrc | ItemSrc | CarrySrc


@dataclass(frozen=True)
class Taint:
    """One reason why a value's shape or structure changes: rule code, what, where, and when."""

    code: str
    what: str
    origin: Location
    sources: frozenset[Src]

    def with_sources(self, sources: frozenset[Src]) -> Taint:
        return replace(self, sources=sources)


@dataclass(frozen=True)
class ParamDep:
    """The value is (a view of) parameter ``name``: it inherits that argument's shape changes."""

    name: str


@dataclass(frozen=True)
class RetDep:
    """The value is the result of call ``call`` (an index into the function's call sites)."""

    call: int
    item: int | None = None  # element `item` of the tuple it returns (`a, b = f()`)


@dataclass(frozen=True)
class IterDep:
    """The value is an item of iterating, in loop ``loop``, over the result of call ``call``."""

    call: int
    loop: int
    item: int | None = None  # element `item` of each tuple it yields (`for a, b in batches()`)


Dep = ParamDep | RetDep | IterDep

EMPTY: frozenset = frozenset()

# Coarse types that matter for jit cache keys.
INT, FLOAT, BOOL, STR, NONE, COMPLEX = "int", "float", "bool", "str", "none", "complex"
LIST, TUPLE, DICT, SET = "list", "tuple", "dict", "set"
ARRAY, NP_ARRAY = "array", "ndarray"
LAMBDA, PARTIAL, FUNCTION, TRANSFORM = "lambda", "partial", "function", "transform"
INSTANCE, JIT, UNKNOWN, CLASS = "instance", "jit", "?", "class"
JIT_OUT = "jit-out"  # what a jitted function returns: jax arrays, in a pytree we do not know
JIT_OUT_WEAK = "jit-out-weak"  # the same, from Python scalars only: weakly typed, as they were
PARAM_REF = "param:"  # Value.ref of a parameter itself (not of something derived from it)
FLOAT_LIKE = "float?"  # arithmetic with a float literal and an unknown operand: most likely a float
SCALARS = frozenset({INT, FLOAT, BOOL, COMPLEX})
UNHASHABLE = frozenset({LIST, DICT, SET, ARRAY, NP_ARRAY, JIT_OUT, JIT_OUT_WEAK})
ARRAYS = frozenset({ARRAY, NP_ARRAY, "mask"})
_ANY_ARRAY = ARRAYS | {JIT_OUT, JIT_OUT_WEAK}
JIT_RESULTS = frozenset({JIT_OUT, JIT_OUT_WEAK})


@dataclass(frozen=True)
class Value:
    ty: str = UNKNOWN
    vsrc: frozenset[Src] = EMPTY
    shape: frozenset[Taint] = EMPTY
    deps: frozenset[Dep] = EMPTY
    fresh: frozenset[Src] = EMPTY
    # For instances: the class as written (resolved at link time); for jit objects: the jit site index.
    ref: str | None = None
    site: int | None = None
    # For list/tuple/dict displays: the values of the items (for element access and unpacking).
    items: tuple[Value, ...] = field(default=(), compare=False)
    dtype: str | None = None  # for arrays whose dtype is visible: "float32", "int32", "bool"
    keys: tuple[str, ...] | None = None  # for dict displays with literal string keys (sorted)

    def with_(self, **changes: object) -> Value:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def param(self) -> str | None:
        """The parameter's name when the value is exactly a parameter (not something computed from it)."""
        ref = self.ref
        return ref[len(PARAM_REF) :] if ref and ref.startswith(PARAM_REF) else None

    @property
    def varies(self) -> bool:
        return bool(self.vsrc or self.shape or self.deps)


UNKNOWN_VALUE = Value()


def join(a: Value, b: Value) -> Value:
    """The value that may be either ``a`` or ``b`` (after an if/else, or across loop iterations)."""
    if a is b:
        return a
    ty = (
        a.ty
        if a.ty == b.ty
        else (a.ty if b.ty == UNKNOWN else b.ty if a.ty == UNKNOWN else _either(a.ty, b.ty))
    )
    return Value(
        ty=ty,
        vsrc=_union(a.vsrc, b.vsrc),
        shape=_union(a.shape, b.shape),
        deps=_union(a.deps, b.deps),
        fresh=_union(a.fresh, b.fresh),
        ref=a.ref if a.ref == b.ref else None,
        site=a.site if a.site == b.site else (a.site if b.site is None else b.site),
        items=a.items if a.items == b.items else (),
        dtype=a.dtype if a.dtype == b.dtype else None,
        keys=a.keys if a.keys == b.keys else None,
    )


def _either(a: str, b: str) -> str:
    """The type of a value that is of type ``a`` or ``b`` (both known, different)."""
    return JIT_OUT if {a, b} <= _ANY_ARRAY else UNKNOWN


def combine(values: list[Value], ty: str = UNKNOWN, keep_shape: bool = True) -> Value:
    """A value computed from ``values``: varies when any of them varies."""
    vsrc: set[Src] = set()
    shape: set[Taint] = set()
    deps: set[Dep] = set()
    for value in values:
        vsrc |= value.vsrc
        if keep_shape:
            shape |= value.shape
            deps |= value.deps
    return Value(ty=ty, vsrc=_frozen(vsrc), shape=_frozen(shape), deps=_frozen(deps))


def _union(a: frozenset, b: frozenset) -> frozenset:
    return a if not b or a is b else b if not a else a | b


def _frozen(items: set) -> frozenset:
    """``EMPTY`` itself when there is nothing: most values vary in no way, and one shared empty set is
    pickled once per summary instead of once per value (130,000 fewer objects to load on the corpus)."""
    return frozenset(items) if items else EMPTY


def shape_sources(value: Value) -> frozenset[Src]:
    """What makes the shape (or length) of ``value`` change, as value sources of a size derived from it."""
    out: set[Src] = set()
    for taint in value.shape:
        out |= taint.sources
    for dep in value.deps:
        if isinstance(dep, ParamDep):
            out.add(ParamShapeSrc(dep.name))
    return _frozen(out)


def size_of(value: Value) -> Value:
    """The value of a size (``len(x)``, ``x.shape[0]``) read off ``value``."""
    return Value(ty=INT, vsrc=shape_sources(value))


# -- the parts of a jit signature a value decides -------------------------------------------------
# Two values of one parameter with different kinds are two cache entries: a Python scalar is weakly
# typed and an array is not, dtypes are part of the key, and so is the pytree structure.


WEAK, STRONG = "a weakly typed scalar", "a strongly typed array"


def weak_kind(value: Value) -> str | None:
    """A Python scalar and a jitted function's result made only from Python scalars are weakly
    typed (one cache key); an array made with a dtype is not."""
    if value.ty in (INT, FLOAT, BOOL, JIT_OUT_WEAK):
        return WEAK
    if value.ty in ARRAYS or value.ty == JIT_OUT:
        return STRONG
    return None


def dtype_kind(value: Value) -> str | None:
    if value.ty == INT:
        return "int32"
    if value.ty == FLOAT:
        return "float32"
    return value.dtype if value.ty in ARRAYS else None


_NOT_NONE = "not None"  # a jitted function's result: some pytree of arrays, never None


def structure_kind(value: Value) -> str | None:
    if value.ty == NONE:
        return "None"
    if value.ty == DICT and value.keys is not None:
        return "a dict with keys {" + ", ".join(value.keys) + "}"
    if value.ty in (LIST, TUPLE) and value.items:
        return f"a {value.ty} of {len(value.items)}"
    if value.ty in ARRAYS or value.ty in (INT, FLOAT, BOOL):
        return "an array"
    return _NOT_NONE if value.ty in JIT_RESULTS else None


# (rule, kind of a value, what differs), in the order a flip is explained: a weak-type flip explains
# the dtype flip that comes with it.
FLIP_KINDS = (
    ("RTL401", weak_kind, "weak type"),
    ("RTL402", dtype_kind, "dtype"),
    ("RTL403", structure_kind, "pytree structure"),
)


def kinds_differ(a: str | None, b: str | None) -> bool:
    """Whether two known kinds are surely different cache entries (a jit result is any structure
    but None)."""
    if a is None or b is None or a == b:
        return False
    return (_NOT_NONE not in (a, b)) or "None" in (a, b)
