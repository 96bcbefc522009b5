"""JAX's type promotion as data: the dtype and weak type of what arithmetic on typed values gives.

Copied from jax 0.10.2 (``jax._src.dtypes``: ``_type_promotion_lattice`` in its standard mode,
``lattice_result_type``, ``result_type`` and ``_dtype_to_inexact``), for the dtypes retracelint meets;
the static pass never imports jax (tests/test_promotion.py compares this table with
``jax.numpy.result_type`` under both x64 settings).

A value's type is a dtype name and a weak flag. Python numbers are weakly typed: jax takes them as the
lattice's weak nodes ``int``, ``float`` and ``complex``, which sit below every typed dtype of their kind,
so ``bfloat16 * 0.5`` stays bfloat16 while ``bfloat16 * float32`` is float32. A result is weak only when
it lands on a weak node (an int32 array plus ``1.5`` is a weak float of the default precision). With x64
off, jax first makes every 64-bit dtype its 32-bit kin and never forms a 64-bit type from narrower ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from retracelint.model import Location
from retracelint.values import (
    COMPLEX,
    FLOAT,
    FLOAT_LIKE,
    MADE_STRONG,
    NUMPY_DATA,
    Taint,
    Value,
    array_made,
)
from retracelint.values import canonical_dtype as canonical

# The lattice: each type to the types just above it (jax's ``_type_promotion_lattice(strict=False,
# x64=True)``, leaving out the 2- and 4-bit ints and the float8 types). ``int``/``float``/``complex`` are
# the weak nodes: what a Python number (or an array made from Python numbers only) is.
_LATTICE: dict[str, tuple[str, ...]] = {
    "bool": ("int",),
    "int": ("uint8", "int8"),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": ("float",),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("float",),
    "float": ("bfloat16", "float16", "complex"),
    "bfloat16": ("float32",),
    "float16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "complex": ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
}
# With x64 off jax forms no 64-bit type from narrower ones: uint32 and int32 meet at int32.
_X32_EDGES = {"uint32": ("int32", "uint64")}

WEAK_NODES = {"int": "int64", "float": "float64", "complex": "complex128"}  # weak node -> its dtype
_KIND_NODE = {"i": "int", "u": "int", "f": "float", "c": "complex"}

# What a 64-bit dtype is with x64 off.
WITHOUT_X64 = {
    "int64": "int32",
    "uint64": "uint32",
    "float64": "float32",
    "complex128": "complex64",
}

# The float an integer or bool becomes in functions that need an inexact input (``jnp.sqrt``, ``mean``,
# ``linspace``...): jax's ``_dtype_to_inexact``. Not the default float: an int32 becomes float32 even
# with x64 on.
TO_INEXACT = {
    "bool": "float32",
    "uint8": "float32",
    "int8": "float32",
    "uint16": "float32",
    "int16": "float32",
    "uint32": "float32",
    "int32": "float32",
    "uint64": "float64",
    "int64": "float64",
}


@dataclass(frozen=True)
class Typed:
    """A leaf's dtype and whether it is weakly typed (what jax's cache key holds besides the shape)."""

    dtype: str
    weak: bool = False


def float_either(operands: tuple[Value, Value], shape: frozenset[Taint]) -> frozenset[Taint]:
    """The taints of what arithmetic on two Python numbers gives (``lr * min(1, step / warmup)``):
    a float operand makes a float whether the other is an int or a float, so the other's flips
    between the two (``Taint.numbers``) do not reach the result."""
    floats = [
        v for v in operands if v.ty in (FLOAT, FLOAT_LIKE) and not any(t.numbers for t in v.shape)
    ]
    if not floats:
        return shape
    own = frozenset().union(*(v.shape for v in floats))
    return frozenset(t for t in shape if not t.numbers or t in own)


def upper_bounds(lattice: dict[str, tuple[str, ...]]) -> dict[str, frozenset[str]]:
    """Each type to every type at or above it on ``lattice`` (each type to those just above it)."""
    bounds: dict[str, frozenset[str]] = {}

    def above(node: str) -> frozenset[str]:
        if node not in bounds:
            bounds[node] = frozenset({node}).union(*(above(up) for up in lattice[node]))
        return bounds[node]

    for node in lattice:
        above(node)
    return bounds


_BOUNDS = {False: upper_bounds({**_LATTICE, **_X32_EDGES}), True: upper_bounds(_LATTICE)}


def _node(typed: Typed) -> str:
    """The lattice node of a typed value: its dtype, or the weak node of its kind."""
    return _KIND_NODE[kind(typed.dtype)] if typed.weak else typed.dtype


def kind(dtype: str) -> str:
    if dtype == "bool":
        return "b"
    if dtype.startswith("uint"):
        return "u"
    if dtype.startswith("int"):
        return "i"
    return "c" if dtype.startswith("complex") else "f"


def _least_upper_bound(nodes: set[str], x64: bool) -> str | None:
    ub = _BOUNDS[x64]
    common = frozenset.intersection(*(ub[n] for n in nodes))
    least = (common & nodes) or {c for c in common if common <= ub[c]}
    return next(iter(least)) if len(least) == 1 else None


def result_type(operands: Iterable[Typed], x64: bool) -> Typed | None:
    """What jax gives for arithmetic on ``operands`` (``jnp.result_type``, with the weak flag); None
    when a dtype is one this table does not know."""
    typed = [Typed(canonical(t.dtype, x64), t.weak and t.dtype != "bool") for t in operands]
    if not typed or any(t.dtype not in _LATTICE or t.dtype in WEAK_NODES for t in typed):
        return None
    dtypes = {t.dtype for t in typed}
    if len(typed) == 1:
        return typed[0]
    all_weak = all(t.weak for t in typed)
    if len(dtypes) == 1 and not all_weak:
        return Typed(next(iter(dtypes)))
    if all_weak:
        # the bound of the typed counterparts, made weak (jax's special case)
        bound = _least_upper_bound(dtypes, x64)
        weak = True
    else:
        bound = _least_upper_bound({_node(t) for t in typed}, x64)
        weak = bound in WEAK_NODES
    if bound is None:
        return None
    dtype = WEAK_NODES.get(bound, bound)
    weak = weak and dtype != "bool"
    if weak:  # a weak result has its kind's default dtype
        dtype = WEAK_NODES[_KIND_NODE[kind(dtype)]]
    return Typed(canonical(dtype, x64), weak)


def to_inexact(dtype: str, x64: bool) -> str:
    """The dtype of a function that needs an inexact operand (``jnp.sqrt(x)``) of ``dtype``."""
    return canonical(TO_INEXACT.get(dtype, dtype), x64)


def at_least(dtype: str, floor: str, x64: bool) -> bool:
    """Whether ``dtype`` is at or above ``floor`` on the lattice: what promoting a strongly typed
    ``floor`` operand with others may give."""
    dtype, floor = canonical(dtype, x64), canonical(floor, x64)
    if dtype not in _LATTICE or floor not in _LATTICE:
        return True  # not known: never a flip
    return dtype in _BOUNDS[x64][floor]


# The dtype of a part (``abs``, ``real``, ``imag``, ``angle``) of a complex array: it leaves the
# lattice's order, so a complex floor taken apart is its real counterpart's.
_REAL_PART = {"complex64": "float32", "complex128": "float64"}


def real_part(dtype: str | None) -> str | None:
    """The dtype of a part of an array of ``dtype`` (``jnp.abs(z)``, ``z.real``): a real one."""
    return _REAL_PART.get(dtype, dtype) if dtype is not None else None


def is_complex(dtype: str | None) -> bool:
    return dtype in _REAL_PART or dtype == "complex"


def real_floor(floor: tuple[str, Location] | None) -> tuple[str, Location] | None:
    """``floor`` (``Value.floor``) of a part taken of the array it bounds."""
    return None if floor is None else (_REAL_PART.get(floor[0], floor[0]), floor[1])


# A Python float or complex number as an operand (a float-like value too: ``a / b``, ``x * 0.5``):
# whatever the typed operands are, the result is at least of its kind. Its floor is the lattice's
# weak node of that kind, below every dtype of the kind: an int32 array times 0.5 is a float, a
# bfloat16 one stays bfloat16 (``at_least``).
_NUMBER_NODE = {FLOAT: "float", FLOAT_LIKE: "float", COMPLEX: "complex"}


def floor_of(value: Value, at: Location | None = None) -> tuple[str, Location] | None:
    """The least dtype ``value`` is (``Value.floor``): its own when it is an array of a known dtype
    and surely strong (a constructor's default, a dtype given), with where it was made; for a
    Python float or complex number, the weak node of its kind, told at ``at`` (the expression it
    is an operand of), when given."""
    if at is not None and value.ty in _NUMBER_NODE:
        return _NUMBER_NODE[value.ty], at
    if value.dtype is None:
        floor = value.floor if value.dtype_of is None else None
        # A part of a value whose dtype was not known where it was taken: not a complex one.
        return None if floor is not None and value.parted and is_complex(floor[0]) else floor
    strong = value.weak == MADE_STRONG or value.ty in NUMPY_DATA
    made = array_made(value) or value.made
    if not strong or made is None or value.dtype not in _LATTICE:
        return None
    return value.dtype, made


def promoted_floor(
    values: Iterable[Value], at: Location | None = None, inexact: bool = False
) -> tuple[str, Location] | None:
    """The floor of what promoting ``values`` gives: the lattice's bound of their floors, told where
    an operand of that dtype (else any with a floor) was made, the first in the source: the same
    whatever order a caller's set of dependencies is merged in. With ``at`` (where the promotion
    is written), a Python float or complex operand bounds it from below by its kind's weak node;
    ``inexact``: the operation makes integers floats (true division, ``sqrt``, ``mean``)."""
    floors = [f for v in values if (f := floor_of(v, at)) is not None]
    if inexact and at is not None:
        floors.append(("float", at))
    if len(floors) < 2:
        return floors[0] if floors else None
    bound = result_type([_floor_typed(dtype) for dtype, _ in floors], x64=True)
    if bound is None:
        return None
    dtype = _node(bound) if bound.weak else bound.dtype
    at_dtype = [where for floor, where in floors if floor == dtype] or [w for _, w in floors]
    # By the whole place: two operands can start at one column (`x` and `x * 2`).
    return dtype, min(at_dtype)


def lifted(dtype: str, floor: tuple[str, Location] | None) -> Typed | None:
    """What a value of ``dtype`` (a helper's int32 result) is once promoted with what bounds it
    from below where it is used (``floor``: ``/ 10.0``'s weak float node, a float32 operand's
    dtype), when that is another dtype; None when it stays ``dtype`` or the table does not know."""
    if floor is None:
        return None
    bound = result_type([Typed(dtype), _floor_typed(floor[0])], x64=True)
    return bound if bound is not None and bound.dtype != dtype else None


def _floor_typed(dtype: str) -> Typed:
    """A floor as an operand of the promotion: a weak node is a Python number of its kind."""
    return Typed(WEAK_NODES[dtype], True) if dtype in WEAK_NODES else Typed(dtype)


def kind_rank(dtype: str) -> int:
    """0 for integers and bools, 1 for floats, 2 for complex (a weak node as its kind): what no
    cast back undoes without losing a fraction or an imaginary part."""
    return {"c": 2, "f": 1}.get(kind(dtype), 0)
