"""NumPy's promotion table (retracelint/summarise/numpy_promotion.py) says what NumPy does on the host.

The first tests pin facts a user meets; the others compare every pair of the table's dtypes, typed and
weak (a Python number), with what NumPy itself computes (``np.zeros(1, a) + b``), and the functions that
compute in another precision with those functions. bfloat16 is ml_dtypes' (skipped without it).
"""

from __future__ import annotations

import importlib.util
import itertools

import numpy as np
import pytest

from retracelint.summarise.numpy_promotion import (
    _SAFE_CASTS,
    AVERAGES,
    BFLOAT16_IN_FLOAT32,
    FLOAT_UFUNCS,
    IN_FLOAT64,
    TRUE_DIVIDES,
    computed_in,
    result_type,
)
from retracelint.summarise.promotion import Typed

HAS_ML_DTYPES = importlib.util.find_spec("ml_dtypes") is not None
DTYPES = sorted(d for d in _SAFE_CASTS if HAS_ML_DTYPES or d != "bfloat16")
PYTHON = {
    "int64": 3,
    "float64": 0.5,
    "complex128": 1j,
}  # a weak operand's default dtype: its number


@pytest.mark.parametrize(
    ("operands", "expected"),
    [
        # a Python float keeps a float16 array float16, and makes an int array float64
        ((Typed("float16"), Typed("float64", True)), "float16"),
        ((Typed("int32"), Typed("float64", True)), "float64"),
        # a NumPy float32 scalar widens float16 weights; an int32 array widens float32 data to float64
        ((Typed("float16"), Typed("float32")), "float32"),
        ((Typed("int32"), Typed("float32")), "float64"),
        # small ints meet at the smallest int both fit, not a float
        ((Typed("int8"), Typed("uint8")), "int16"),
        ((Typed("int8"), Typed("float16")), "float16"),
        ((Typed("bfloat16"), Typed("float16")), "float32"),
        ((Typed("float32"), Typed("complex128", True)), "complex64"),
        ((Typed("bool"), Typed("int64", True)), "int64"),
        ((Typed("float8"), Typed("float32")), None),
    ],
)
def test_result_type(operands, expected):
    assert result_type(operands) == expected


def _dtype(name: str) -> np.dtype:
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _numpy_says(a: Typed, b: Typed) -> str:
    left = np.zeros(1, _dtype(a.dtype)) if not a.weak else PYTHON[a.dtype]
    right = np.zeros(1, _dtype(b.dtype)) if not b.weak else PYTHON[b.dtype]
    return str(np.asarray(left + right).dtype)


@pytest.mark.parametrize("first", DTYPES)
def test_every_pair_is_what_numpy_computes(first: str) -> None:
    operands = [Typed(d) for d in DTYPES] + [Typed(d, True) for d in PYTHON]
    wrong = [
        (first, other, result_type([Typed(first), other]), said)
        for other in operands
        if result_type([Typed(first), other]) != (said := _numpy_says(Typed(first), other))
    ]
    assert not wrong


def test_three_operands_agree_with_numpy() -> None:
    # All at once, as a function of several operands promotes them (``a + b + c`` is two promotions).
    for a, b, c in itertools.combinations(["uint8", "int8", "float16", "int32", "float32"], 3):
        said = str(np.result_type(np.zeros(1, a), np.zeros(1, b), np.zeros(1, c)))
        assert result_type([Typed(a), Typed(b), Typed(c)]) == said, (a, b, c)


def _call(function: str, array: np.ndarray) -> np.ndarray:
    calls = {
        "clip": lambda: np.clip(array, 0.0, 1.0),
        "matmul": lambda: array @ array,
        "interp": lambda: np.interp(array, array[0], array[0]),
        "cov": lambda: np.cov(array),
        "corrcoef": lambda: np.corrcoef(array + np.eye(3, dtype=array.dtype)),
    }
    return np.asarray(calls[function]())


@pytest.mark.parametrize("function", sorted(IN_FLOAT64 | BFLOAT16_IN_FLOAT32))
def test_functions_that_compute_in_another_dtype(function: str) -> None:
    for name in [d for d in DTYPES if d.startswith(("float", "bfloat"))]:
        array = np.ones((3, 3)).astype(_dtype(name))
        assert computed_in(function, name) == str(_call(function, array).dtype), name
    assert computed_in("mean", "float16") == "float16"


_INTEGERS = [d for d in DTYPES if d == "bool" or "int" in d]


@pytest.mark.parametrize("function", sorted(FLOAT_UFUNCS | AVERAGES | TRUE_DIVIDES))
def test_integers_become_the_float_numpy_computes_them_in(function: str) -> None:
    compute = getattr(np, function)
    arity = 2 if function in ("arctan2", "hypot", "logaddexp", "divide", "true_divide") else 1
    for name in _INTEGERS:
        array = np.ones(4, dtype=name)
        said = str(np.asarray(compute(*[array] * arity)).dtype)
        assert computed_in(function, name) == said, name


# Host computations as programs write them: what a summary types each one as, and what NumPy makes.
HOST = [
    "np.asarray([1, 2, 3]) * 0.5",
    "np.arange(10) / 2",
    "np.ones(3, np.uint8) / 255",
    "np.float32(1.0) * np.ones(3, np.float16)",
    "np.ones(3, np.float32) + 1.0",
    "np.ones(3, np.int32) + np.ones(3, np.float32)",
    "np.zeros(3, np.int8) + np.zeros(3, np.uint8)",
    "np.ones(3).astype(np.float16) * 2.0",
    "np.ones(3, np.float32) / np.float64(2.0)",
    "np.mean(np.arange(5))",
    "np.sqrt(np.arange(4, dtype=np.int16))",
    "np.clip(np.arange(5), 0.0, 1.0)",
    "np.clip(np.ones(3, np.float16), 0.0, 1.0)",
    "np.maximum(np.ones(3, np.float16), np.float32(0.1))",
    "np.where(np.ones(3) > 0, np.ones(3, np.float32), 0.0)",
    "np.random.default_rng(0).normal(size=3) * np.float32(2)",
]


def test_a_summary_types_host_computations_as_numpy_does() -> None:
    from retracelint.summarise import SummaryOptions, summarise

    source = "import numpy as np\n\n" + "".join(
        f"def f{i}():\n    return {text}\n\n" for i, text in enumerate(HOST)
    )
    summary = summarise(source.encode(), "host.py", "host", False, SummaryOptions())
    typed = [summary.functions[f"host.f{i}"].returns.dtype for i in range(len(HOST))]
    assert typed == [str(np.asarray(eval(text)).dtype) for text in HOST]
