"""The type promotion table (retracelint/summarise/promotion.py) says what jax does.

The first tests pin facts a user meets (no jax needed); the last compares every pair and some triples of
the table's types, typed and weak, with ``jax.numpy.result_type`` under both x64 settings.
"""

from __future__ import annotations

import importlib.util
import itertools

import pytest

from retracelint.model import Location
from retracelint.summarise.promotion import (
    _LATTICE,
    WEAK_NODES,
    Typed,
    at_least,
    lifted,
    result_type,
    to_inexact,
)

HAS_JAX = importlib.util.find_spec("jax") is not None
DTYPES = sorted(d for d in _LATTICE if d not in WEAK_NODES)
# Typed operands, and the weak ones a Python number or an array made from Python numbers gives.
OPERANDS = [Typed(d) for d in DTYPES] + [Typed(d, True) for d in ("int64", "float64", "complex128")]


@pytest.mark.parametrize(
    ("operands", "x64", "expected"),
    [
        # a Python float does not widen a half-precision array ...
        ((Typed("bfloat16"), Typed("float64", True)), False, Typed("bfloat16")),
        # ... a float32 array does
        ((Typed("bfloat16"), Typed("float32")), False, Typed("float32")),
        ((Typed("bfloat16"), Typed("float16")), True, Typed("float32")),
        # a strong float64 scalar (a NumPy float64) widens float32 weights under x64 only
        ((Typed("float32"), Typed("float64")), True, Typed("float64")),
        ((Typed("float32"), Typed("float64")), False, Typed("float32")),
        # an int32 array plus a Python float: a weak float of the default precision
        ((Typed("int32"), Typed("float64", True)), False, Typed("float32", True)),
        ((Typed("int32"), Typed("float64", True)), True, Typed("float64", True)),
        # int32 and uint32 form int64 only under x64
        ((Typed("int32"), Typed("uint32")), True, Typed("int64")),
        ((Typed("int32"), Typed("uint32")), False, Typed("int32")),
        # two Python numbers stay weak; a bool is never weak
        ((Typed("int64", True), Typed("float64", True)), False, Typed("float32", True)),
        ((Typed("bool", True), Typed("bool")), True, Typed("bool")),
        ((Typed("float32"),), True, Typed("float32")),
        ((Typed("float8"), Typed("float32")), True, None),
    ],
)
def test_result_type(operands, x64, expected):
    assert result_type(operands, x64) == expected


def test_to_inexact_keeps_an_int32_single_precision_under_x64():
    assert to_inexact("int32", True) == "float32"
    assert to_inexact("int64", True) == "float64"
    assert to_inexact("int64", False) == "float32"
    assert to_inexact("bfloat16", True) == "bfloat16"


def _jax_operand(typed: Typed):
    """What stands for ``typed`` in ``jnp.result_type``: a dtype, or the Python type of a weak one."""
    import jax.numpy as jnp

    if typed.weak:
        return {"int64": int, "float64": float, "complex128": complex}[typed.dtype]
    return jnp.dtype(typed.dtype)


def _jax_says(operands, x64: bool) -> Typed:
    import jax
    from jax._src import dtypes

    with jax.enable_x64(x64):
        dtype, weak = dtypes.result_type(*map(_jax_operand, operands), return_weak_type_flag=True)
    return Typed(str(dtype), bool(weak))


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")
@pytest.mark.parametrize("x64", [False, True])
def test_table_agrees_with_jax(x64):
    combos = [
        *itertools.combinations_with_replacement(OPERANDS, 2),
        *itertools.combinations(OPERANDS[::3], 3),
    ]
    wrong = [
        (ops, mine, jax_says)
        for ops in combos
        if (mine := result_type(ops, x64)) != (jax_says := _jax_says(ops, x64))
    ]
    assert not wrong, wrong[:5]
    assert len(combos) > 150


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")
@pytest.mark.parametrize("x64", [False, True])
def test_a_floor_is_below_what_jax_promotes_it_with(x64):
    """``at_least(d, floor)``, which a floor flip trusts: whatever a strongly typed ``floor`` operand
    meets (typed or a Python number), jax gives a dtype at or above it; and ``at_least`` is not
    trivially true: float32 is not at least float64 under x64, nor bfloat16 at least float16."""
    real = [t for t in OPERANDS if not t.dtype.startswith("complex")]
    wrong = [
        (floor, other, said.dtype)
        for floor in real
        if not floor.weak
        for other in real
        if not at_least((said := _jax_says((floor, other), x64)).dtype, floor.dtype, x64)
    ]
    assert not wrong, wrong[:5]
    assert not at_least("float32", "float64", True) and at_least("float32", "float64", False)
    assert not at_least("bfloat16", "float16", x64)


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")
@pytest.mark.parametrize("x64", [False, True])
def test_shifts_and_bitwise_operators_promote_by_the_table(x64):
    """The integer and uint rows as bit words meet them (``word & ~(1 << slot)``): jax's shifts and
    bitwise operators give the dtype and weak type the lattice gives, a Python int included (traced
    abstractly, ``jax.eval_shape``: nothing is compiled)."""
    import operator

    import jax

    ints = [t for t in OPERANDS if t.dtype.startswith(("int", "uint"))]
    # A bitwise operator and a shift: jax promotes both alike.
    ops = (operator.and_, operator.lshift)
    wrong, seen = [], 0
    with jax.enable_x64(x64):
        for a, b in itertools.product(ints, repeat=2):
            expected = result_type((a, b), x64)
            if (a.weak and b.weak) or expected is None or "int" not in expected.dtype:
                continue  # two Python ints compute in Python; uint64 with int64 is a float
            args = [jax.ShapeDtypeStruct((), t.dtype, weak_type=t.weak) for t in (a, b)]
            for op in ops:
                out = jax.eval_shape(op, *args)
                seen += 1
                if Typed(str(out.dtype), bool(out.weak_type)) != expected:
                    wrong.append((op.__name__, a, b, out))
    assert not wrong, wrong[:5]
    assert seen > 120


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")
@pytest.mark.parametrize("x64", [False, True])
def test_a_python_number_floors_its_kind(x64):
    """The weak nodes as floors (``promoted_floor`` of a Python float or complex operand): whatever
    typed array jax promotes a Python float with, the result is at least ``float`` (a complex one at
    least ``complex``), so an integer state that comes back so is a flip and a float16 one is not."""
    typed = [t for t in OPERANDS if not t.weak]
    for number, node in ((Typed("float64", True), "float"), (Typed("complex128", True), "complex")):
        wrong = [t for t in typed if not at_least(_jax_says((t, number), x64).dtype, node, x64)]
        assert not wrong, (node, wrong)
    assert not at_least("int32", "float", x64) and not at_least("float32", "complex", x64)
    assert at_least("bfloat16", "float", x64) and at_least("complex64", "complex", x64)


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")
@pytest.mark.parametrize("x64", [False, True])
def test_functions_that_make_floats_agree_with_jax(x64):
    """``apis.MAKES_INEXACT`` with ``reduced_dtype``: what ``jnp.sqrt``, ``jnp.mean``, ``jnp.divide``
    ... give an integer or bool array, as jax computes it."""
    import jax
    import jax.numpy as jnp

    from retracelint.summarise.apis import MAKES_INEXACT, reduced_dtype
    from retracelint.values import canonical_dtype

    two = {"arctan2", "hypot", "logaddexp", "divide", "true_divide"}
    wrong = []
    with jax.enable_x64(x64):
        for name in sorted(n for n in MAKES_INEXACT if hasattr(jnp, n)):
            for dtype in ("bool", "uint8", "int8", "int16", "int32", "int64"):
                x = jax.ShapeDtypeStruct((3,), jnp.dtype(dtype))  # traced only, not compiled
                said = str(
                    jax.eval_shape(getattr(jnp, name), *((x, x) if name in two else (x,))).dtype
                )
                mine = canonical_dtype(reduced_dtype(name, dtype) or "", x64)
                if mine != said:
                    wrong.append((name, dtype, mine, said))
    assert not wrong, wrong[:5]


def test_a_value_is_lifted_by_what_bounds_it_where_it_is_used():
    """A helper's int32 result divided by ``10.0`` is a weak float (jax: ``float32``, weak); a
    half-precision one times a Python float stays half; times a float32 array it is float32."""
    at = Location("m.py", 1, 1, 1, 2)
    assert lifted("int32", ("float", at)) == Typed("float64", True)
    assert lifted("float16", ("float", at)) is None
    assert lifted("bfloat16", ("float32", at)) == Typed("float32")
    assert lifted("float32", None) is None
