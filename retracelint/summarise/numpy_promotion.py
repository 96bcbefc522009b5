"""NumPy's type promotion as data: the dtype of what NumPy computes on the host, before jax sees it.

NumPy (2.x, NEP 50) promotes arrays and NumPy scalars by the safe casts between their dtypes (the
graph below, ml_dtypes' ``bfloat16`` included as it registers its casts) and takes the least type
both can be cast to, preferring the lower kind (``int8`` with ``uint8`` is ``int16``, not
``float16``). Python numbers are weak: an ``int`` takes an array's dtype, a ``float`` an inexact
array's, and make an integer array ``float64``/``complex128``. Unlike jax, an integer meeting a float
widens it (``int32`` with ``float32`` is ``float64``) and a float64 stays float64 on the host: jax
narrows it only when it receives the array (``values.canonical_dtype``). A few functions compute in
another precision than their operands' promoted dtype, and those with float loops only make integers
floats (``computed_in``). tests/test_numpy_promotion.py
compares every pair of this table's types, typed and weak, with NumPy itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from retracelint.summarise.promotion import Typed, kind, upper_bounds

# The safe casts: each dtype to those it casts to without loss, just above it.
_SAFE_CASTS: dict[str, tuple[str, ...]] = {
    "bool": ("uint8", "int8"),
    "uint8": ("uint16", "int16", "float16", "bfloat16"),
    "int8": ("int16", "float16", "bfloat16"),
    "uint16": ("uint32", "int32", "float32"),
    "int16": ("int32", "float32"),
    "uint32": ("uint64", "int64", "float64"),
    "int32": ("int64", "float64"),
    "uint64": ("float64",),
    "int64": ("float64",),
    "float16": ("float32",),
    "bfloat16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "complex64": ("complex128",),
    "complex128": (),
}
_BOUNDS = upper_bounds(_SAFE_CASTS)
# Of two least bounds NumPy takes the one of the lower kind; a Python int takes any integer dtype.
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}

# What a Python number gives with an array of a lower kind (NEP 50): the default int or float, and
# the complex of the float's precision.
_WEAK_DEFAULT = {"i": "int64", "f": "float64", "c": "complex128"}
_COMPLEX_OF = {"float16": "complex64", "bfloat16": "complex64", "float32": "complex64"}

# Functions that do not compute in their operands' promoted dtype (measured on NumPy 2.4 with
# ml_dtypes 0.5): some work in float64 whatever they are given; ml_dtypes registers no ``clip`` or
# ``matmul`` loop for bfloat16, so NumPy casts it to float32 first (``np.clip(frames_bf16, 0.0, 1.0)``
# is float32, where ``frames_bf16 / 255`` stays bfloat16).
IN_FLOAT64 = frozenset({"interp", "cov", "corrcoef"})
BFLOAT16_IN_FLOAT32 = frozenset({"clip", "matmul"})
# Of integers and bools: ufuncs with float loops only compute in the least float that holds them
# (``np.sqrt`` of int8 is float16, of int32 float64), the averages in float64.
FLOAT_UFUNCS = frozenset(
    {
        *("sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p"),
        *("sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh"),
        *("arctan2", "hypot", "logaddexp", "deg2rad", "rad2deg"),
    }
)
TRUE_DIVIDES = frozenset({"divide", "true_divide"})  # as ``/``: ``true_divide``
AVERAGES = frozenset({"mean", "std", "var", "average", "median", "nanmean", "nanstd", "nanvar"})


def result_type(operands: Iterable[Typed]) -> str | None:
    """The dtype NumPy gives arithmetic on ``operands`` (weak ones: Python numbers); None when a dtype
    is one this table does not know."""
    operands = list(operands)
    strong = {t.dtype for t in operands if not t.weak or t.dtype == "bool"}
    weak = {kind(t.dtype) for t in operands if t.weak and t.dtype != "bool"}
    if not operands or any(d not in _SAFE_CASTS for d in strong):
        return None
    if not strong:  # Python numbers only: the default of the highest kind
        return _WEAK_DEFAULT[max(weak, key=_KIND_RANK.__getitem__)]
    dtype = _least_bound(strong)
    if dtype is None or not weak:
        return dtype
    top = max(weak, key=_KIND_RANK.__getitem__)
    if _KIND_RANK[top] <= _KIND_RANK[kind(dtype)]:
        return dtype  # a Python number of a kind the array has takes its dtype
    if top == "c" and kind(dtype) == "f":
        return _COMPLEX_OF.get(dtype, "complex128")
    return _WEAK_DEFAULT[top]


def _least_bound(dtypes: set[str]) -> str | None:
    common = frozenset.intersection(*(_BOUNDS[d] for d in dtypes))
    least = [c for c in common if not any(o != c and c in _BOUNDS[o] for o in common)]
    least.sort(key=lambda d: _KIND_RANK[kind(d)])
    return least[0] if least else None


def computed_in(function: str, dtype: str | None) -> str | None:
    """The dtype NumPy's ``function`` gives for operands that promote to ``dtype``."""
    if function in IN_FLOAT64:
        return "float64"
    if function in TRUE_DIVIDES:
        return true_divide(dtype)
    if dtype is not None and kind(dtype) in "bui":
        if function in FLOAT_UFUNCS:
            return _least_bound({dtype, "float16"})
        return "float64" if function in AVERAGES else dtype
    return "float32" if dtype == "bfloat16" and function in BFLOAT16_IN_FLOAT32 else dtype


def true_divide(dtype: str | None) -> str | None:
    """What NumPy's true division (``/``) gives for operands that promote to ``dtype``: integers and
    bools are divided as float64 (``pixels_uint8 / 255``), inexact types stay."""
    return "float64" if dtype is not None and kind(dtype) in "bui" else dtype
