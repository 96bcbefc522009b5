"""What numpy, jax and lax callables do, as data: which make arrays and where their sizes are, which
grow, join, reduce or keep a shape, which return which dtype. The interpreter reads these tables; adding
an API is a row here."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from retracelint.summarise.syntax import _dotted
from retracelint.values import (
    ARRAY,
    BOOL,
    FLOAT,
    INT,
    NP_ARRAY,
    Value,
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


# jax.tree_util.Partial is a functools.partial too: a new object, hashed by identity.
_PARTIALS = {"functools.partial", "partial", "jax.tree_util.Partial"}


# Attributes of arrays that are no object's field: they vary with the array.
_ARRAY_ATTRIBUTES = {"dtype", "ndim", "itemsize", "nbytes", "at", "sharding", "weak_type", "flat"}


# A new object with the same attributes, or with some of them replaced (keywords).
_COPIES = {"copy.copy", "copy.deepcopy"}
_REPLACES = {"dataclasses.replace"}


# Calls that register a class as a pytree, and how each says which attributes are static.
_PYTREE_REGISTRATIONS = {
    "jax.tree_util.register_pytree_node": "register_pytree_node",
    "jax.tree_util.register_pytree_with_keys": "register_pytree_node",
    "jax.tree_util.register_dataclass": "register_dataclass",
}


_MEMOISER = re.compile(r"cache|memo", re.IGNORECASE)


_LIST_GROW_METHODS = {"append", "extend", "insert"}


_LIST_RESIZE: dict[str, int | None] = {
    "append": 1,
    "insert": 1,
    "extend": None,
    "pop": -1,
    "remove": -1,
    "clear": 0,
}


_LOADER_CLASSES = {"DataLoader", "torch.utils.data.DataLoader"}


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


def _array_module(module: str) -> bool:
    return module.startswith(("jax.numpy", "numpy", "jax.random", "jax.lax"))


def _looks_like_class(dotted: str) -> bool:
    last = dotted.rpartition(".")[2]
    return bool(last) and last[0].isupper() and not last.isupper()


def _looks_like_tf_data(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "tf.data" in text or "from_tensor_slices" in text or "Dataset" in text or "tfds" in text
