"""What numpy, jax and lax callables do, as data: which make arrays and where their sizes are, which
grow, join, reduce or keep a shape, which return which dtype. The interpreter reads these tables; adding
an API is a row here."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from retracelint.summarise import numpy_promotion
from retracelint.summarise.promotion import TO_INEXACT, Typed, real_part, result_type, to_inexact
from retracelint.summarise.syntax import _argument, _dotted, _literal_ints, _statements
from retracelint.summary import Param
from retracelint.values import (
    ARRAY,
    ARRAYS,
    BOOL,
    COMPLEX,
    FLOAT,
    INT,
    NP_ARRAY,
    NP_SCALAR,
    NUMPY_DATA,
    STR,
    STRONG,
    UNKNOWN,
    Value,
    weak_class,
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
    # The argument may be an array instead of a length (``permutation(key, x)``): it then keeps the
    # array's shape, so only a surely-int argument is read as a length.
    or_array: bool = False


_CONSTRUCTORS = {
    "zeros": _Sized("shape", "shape", 0),
    "ones": _Sized("shape", "shape", 0),
    "empty": _Sized("shape", "shape", 0),
    "full": _Sized("shape", "shape", 0),
    "eye": _Sized("square", "N", 0, second="M"),
    "identity": _Sized("square", "n", 0),
    "arange": _Sized("range"),
    "linspace": _Sized("count", "num", 2, 50),
    "geomspace": _Sized("count", "num", 2, 50),
    "logspace": _Sized("count", "num", 2, 50),
    "tri": _Sized("square", "N", 0, second="M"),
}
# The array makers whose first argument is the whole shape (``np.zeros((n, longest))``).
SHAPED_MAKERS = frozenset(name for name, sized in _CONSTRUCTORS.items() if sized.kind == "shape")


# Gauss quadrature rules of ``numpy.polynomial`` (``leggauss(deg)``): the nodes and the weights,
# each ``deg`` long; a closure over them is another program per degree.
QUADRATURE_RULES = {
    name: _Sized("count", "deg", 0)
    for name in ("leggauss", "hermgauss", "hermegauss", "laggauss", "chebgauss")
}


def counted(name: str) -> _Sized | None:
    """How ``name`` (``linspace``, by its last name) is told the length of the one axis it makes,
    whatever its other arguments (``linspace(0, n - 1, num_videos)``: ``num_videos`` items)."""
    sized = _CONSTRUCTORS.get(name)
    return sized if sized is not None and sized.kind == "count" else None


# Functions whose result takes lengths from an argument besides its input array's own: the
# argument's keyword and position. What changes those lengths changes the result's shape
# (``tile(cov, (n_robots, 1, 1))``).
_SHAPED_BY_ARGUMENT = {
    "tile": ("reps", 1),
    "broadcast_to": ("shape", 1),
}


@dataclass(frozen=True)
class Resized:
    """A function that resizes an array (an image, a batch of them) to a size it is given: the
    result's axes are that size, whatever the input's were, so a crop of any size resized to
    ``(64, 64)`` is 64 by 64. ``keyword``/``position``: the size argument; given as None
    (``cv2.resize(img, None, fx=0.5, fy=0.5)``) the input is scaled, and its size changes as the
    input's does. ``batch``: the result keeps the input's leading (batch) axis. ``ty``: the kind of
    array it returns."""

    keyword: str
    position: int
    ty: str
    batch: bool = False
    # Its name in ``_TO_INEXACT`` when it interpolates (its dtype rule is there); else it keeps the
    # input's dtype, or makes one not known here (None with ``keeps=False``).
    interpolates: str | None = None
    keeps: bool = False


RESIZES = {
    "cv2.resize": Resized("dsize", 1, NP_ARRAY, keeps=True),
    "skimage.transform.resize": Resized("output_shape", 1, NP_ARRAY),
    "numpy.resize": Resized("new_shape", 1, NP_ARRAY, keeps=True),
    "jax.numpy.resize": Resized("new_shape", 1, ARRAY, keeps=True),
    "jax.image.resize": Resized("shape", 1, ARRAY, interpolates="resize"),
    "tensorflow.image.resize": Resized("size", 1, UNKNOWN, batch=True),
    "torch.nn.functional.interpolate": Resized("size", 1, UNKNOWN, batch=True),
}
# Not ``scipy.ndimage.zoom``: it scales by a factor, and the result's size changes as the input's.

# Functions that give their array's axes in another order, by the axes they are given: the array's
# own lengths, moved, as the methods of ``_ARRAY_METHODS_MOVE`` give them. The axes are no size:
# their count is the array's rank (``np.transpose(x, (1, 0, 2) + tuple(range(3, x.ndim)))``).
AXES_MOVED = frozenset(
    {"transpose", "moveaxis", "swapaxes", "rollaxis", "permute_dims", "matrix_transpose"}
)


_RANDOM_CONSTRUCTORS = {
    "normal": _Sized("shape", "shape", 1),
    "uniform": _Sized("shape", "shape", 1),
    "bernoulli": _Sized("shape", "shape", 2),
    "randint": _Sized("shape", "shape", 1),
    "truncated_normal": _Sized("shape", "shape", 3),
    "categorical": _Sized("shape", "shape", 3),
    "permutation": _Sized("count", None, 1, or_array=True),
    # jax.random.choice(key, a, shape=()): as many draws as `shape` says, whatever the length of `a`.
    "choice": _Sized("shape", "shape", 2),
    "rand": _Sized("dims"),
    "randn": _Sized("dims"),
}


# NumPy's random functions, and the methods of a ``Generator`` or ``RandomState`` (the same names):
# the draws' shape is ``size``, at the position after the distribution's own parameters.
_NUMPY_RANDOM = {
    "normal": _Sized("shape", "size", 2),
    "uniform": _Sized("shape", "size", 2),
    "integers": _Sized("shape", "size", 2),
    "randint": _Sized("shape", "size", 2),
    "random": _Sized("shape", "size", 0),
    "random_sample": _Sized("shape", "size", 0),
    "ranf": _Sized("shape", "size", 0),
    "sample": _Sized("shape", "size", 0),
    "standard_normal": _Sized("shape", "size", 0),
    "standard_exponential": _Sized("shape", "size", 0),
    "standard_cauchy": _Sized("shape", "size", 0),
    "exponential": _Sized("shape", "size", 1),
    "poisson": _Sized("shape", "size", 1),
    "geometric": _Sized("shape", "size", 1),
    "chisquare": _Sized("shape", "size", 1),
    "standard_t": _Sized("shape", "size", 1),
    "standard_gamma": _Sized("shape", "size", 1),
    "rayleigh": _Sized("shape", "size", 1),
    "binomial": _Sized("shape", "size", 2),
    "negative_binomial": _Sized("shape", "size", 2),
    "beta": _Sized("shape", "size", 2),
    "gamma": _Sized("shape", "size", 2),
    "laplace": _Sized("shape", "size", 2),
    "logistic": _Sized("shape", "size", 2),
    "lognormal": _Sized("shape", "size", 2),
    "gumbel": _Sized("shape", "size", 2),
    "vonmises": _Sized("shape", "size", 2),
    "wald": _Sized("shape", "size", 2),
    "f": _Sized("shape", "size", 2),
    "weibull": _Sized("shape", "size", 1),
    "pareto": _Sized("shape", "size", 1),
    "power": _Sized("shape", "size", 1),
    "zipf": _Sized("shape", "size", 1),
    "logseries": _Sized("shape", "size", 1),
    "triangular": _Sized("shape", "size", 3),
    "hypergeometric": _Sized("shape", "size", 3),
    "choice": _Sized("shape", "size", 1),
    "rand": _Sized("dims"),
    "randn": _Sized("dims"),
}


# What a NumPy random draw holds when no dtype is given (the others draw float64): the counts
# (``poisson``, ``binomial``...) are int64. Every draw, counts included, is a new value each time
# it runs: a count drawn to size an array sizes it anew.
_NUMPY_RANDOM_DTYPES = {
    "integers": "int64",
    "randint": "int64",
    "poisson": "int64",
    "binomial": "int64",
    "negative_binomial": "int64",
    "geometric": "int64",
    "hypergeometric": "int64",
    "zipf": "int64",
    "logseries": "int64",
    "choice": None,
}


def _scalar_drawn(dtype: str | None) -> str:
    """What one NumPy random draw (no ``size``) is: a Python ``int`` or ``float`` (a NumPy
    ``int64`` from ``Generator.integers``), hashable either way; ``choice`` draws an item of
    anything."""
    if dtype is None:
        return UNKNOWN
    if dtype.startswith(("int", "uint")):
        return INT
    return BOOL if dtype == "bool" else FLOAT


# Python's ``random`` module: each call draws one new scalar, of this type.
_STDLIB_DRAWS = {
    "random": FLOAT,
    "uniform": FLOAT,
    "triangular": FLOAT,
    "gauss": FLOAT,
    "normalvariate": FLOAT,
    "lognormvariate": FLOAT,
    "expovariate": FLOAT,
    "betavariate": FLOAT,
    "gammavariate": FLOAT,
    "vonmisesvariate": FLOAT,
    "paretovariate": FLOAT,
    "weibullvariate": FLOAT,
    "randint": INT,
    "randrange": INT,
    "getrandbits": INT,
    "choice": UNKNOWN,
}


# Calls that make a NumPy random generator: its methods are the draws of ``_NUMPY_RANDOM``.
_GENERATORS = {"default_rng", "RandomState", "Generator"}


# ``jax.image``: the output shape is given in full.
_IMAGE = {
    "resize": _Sized("shape", "shape", 1),
    "scale_and_translate": _Sized("shape", "shape", 1),
}


def _sized_table(module: str) -> dict[str, _Sized]:
    """The constructors of an array module: where each takes the lengths of what it makes."""
    if module == "numpy.random":
        return _NUMPY_RANDOM
    if module == "jax.random":
        return _RANDOM_CONSTRUCTORS
    if module == "jax.image":
        return _IMAGE
    return _CONSTRUCTORS


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


# Reductions whose first argument after the array is not the axis (``norm(x, ord)``, ``x.item(i)``):
# only an ``axis=`` keyword says which axis they reduce.
_AXIS_BY_KEYWORD = {"norm", "item"}


def _reduced_axes(node: ast.Call, name: str, given: int) -> tuple[int, ...]:
    """The axes reduction ``name`` is given as literal non-negative ints (``axis=0``, ``(0, 1)``),
    positionally at ``given`` (0 for a method, 1 for a function of the array) or by keyword; none
    when it is given no literal, or a negative one (which axis that is depends on the rank)."""
    axis = _argument(node, "axis", None if name in _AXIS_BY_KEYWORD else given)
    axes = _literal_ints(axis) if axis is not None else None
    return axes if axes and all(a >= 0 for a in axes) else ()


def keeps_rank(node: ast.Call) -> bool:
    """``x.sum(keepdims=True)``: a reduction that keeps every axis (each of length 1), so its rank is
    the array's, not 0, whatever axes it is given."""
    return any(
        k.arg == "keepdims" and not (isinstance(k.value, ast.Constant) and not k.value.value)
        for k in node.keywords
    )


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


# What an array of each kind gives as one value, every axis taken out: a reduction over all of
# them (no ``axis``, no ``keepdims``: ``np.prod(dims, dtype=int)``, ``counts.max()``) or an int index
# per axis (``sizes[0]`` of a 1-d array). jax gives a 0-d array, unhashable as a static argument;
# NumPy a NumPy scalar (``np.int64``, ``np.float64``, ``np.bool_``), hashable and equal to the Python
# number, which jit keys by value (measured on jax 0.10.2 and NumPy 2.4: ``prod``, ``sum``, ``max``,
# ``min``, ``mean``, ``argmax``, ``count_nonzero``, ``linalg.norm`` of a list, a 1-d or a 2-d array,
# and an item of a 1-d array, 3 calls, 1 trace; ``np.prod(a, axis=0)`` of a 2-d array raises).
ONE_VALUE_OF = {ARRAY: ARRAY, NP_ARRAY: NP_SCALAR}


# Reductions that add or multiply integers in the default integer type: a bool or an integer narrower
# than it is promoted (jax's ``promote_integers=True``, ``_promote_integer_dtype``; NumPy's
# ``add.reduce`` the same, to its 64-bit ``int_``): ``jnp.sum(mask)`` is int64 under x64, int32
# without; ``jnp.cumsum`` promotes only a bool. Measured on jax 0.10.2 and NumPy 2.4.
_PROMOTES_INTEGERS = {
    "sum": "bui",
    "prod": "bui",
    "nansum": "bui",
    "nanprod": "bui",
    "cumsum": "b",
    "cumprod": "b",
}
# The reductions whose result has the dtype of the array reduced when that is no integer narrower
# than the default (``reduced_dtype``): not ``all``/``any`` (bool), ``count_nonzero`` (an int),
# ``item`` (a Python number) nor ``std``/``var``/``norm`` (real of complex).
KEEPS_RECEIVER_DTYPE = frozenset({"sum", "mean", "max", "min", "prod"})
# The default integer of each kind, in the 64-bit names summaries keep (``canonical_dtype`` narrows
# them without x64).
_DEFAULT_INTEGER = {"b": "int64", "i": "int64", "u": "uint64"}


# The functions whose result is inexact whatever their operands are (jax's ``promote_args_inexact``,
# NumPy's float loops): ``jnp.mean`` of an int32 array is float32, ``jnp.sqrt`` of an int64 one float64
# (``promotion.TO_INEXACT``; NumPy's own precisions are ``numpy_promotion.computed_in``'s).
MAKES_INEXACT = (
    numpy_promotion.FLOAT_UFUNCS | numpy_promotion.AVERAGES | numpy_promotion.TRUE_DIVIDES
)


def reduced_dtype(name: str, dtype: str | None) -> str | None:
    """The dtype reduction (or elementwise function) ``name`` gives for an operand of ``dtype`` when
    no dtype is asked for."""
    if name in MAKES_INEXACT and dtype in TO_INEXACT:
        return TO_INEXACT[dtype]
    kind = _INTEGER_KIND.get(dtype or "")
    return _DEFAULT_INTEGER[kind] if kind and kind in _PROMOTES_INTEGERS.get(name, "") else dtype


_INTEGER_KIND = {
    "bool": "b",
    **{f"int{bits}": "i" for bits in (8, 16, 32, 64)},
    **{f"uint{bits}": "u" for bits in (8, 16, 32, 64)},
}


# Solvers whose solution has the operands' trailing axes only: `lstsq(a, b)` is `a.shape[1:] +
# b.shape[1:]` however many rows (equations) there are, so rows added to a design keep its shape.
_ROWS_SOLVED = {"lstsq"}

# Order statistics at given points: `quantile(a, q)` has q's shape, then what is left of a's axes
# after reducing over `axis` (all of them by default), so a grid of any length gives k quantiles at
# k points. The points are `q` (position 1), the axis position 2.
ORDER_STATISTICS = frozenset({"quantile", "nanquantile", "percentile", "nanpercentile"})


# jax.numpy calls that keep a lone Python scalar weakly typed (measured on jax 0.10.2: jnp.asarray(0.0)
# is f32[] weak_type=True, jnp.asarray(True) is not weak; any dtype= is strong): the number of arguments.
_WEAK_FROM_SCALAR = {"asarray": 1, "array": 1}

_FROM_LIST = {"array", "asarray", "stack", "concatenate", "vstack", "hstack"}


_ARRAY_METHODS_KEEP = {"astype", "copy", "clip", "round", "block_until_ready"}


_ARRAY_METHODS_MOVE = {"squeeze", "flatten", "ravel", "transpose", "T"}
# An array's items as (nested) Python lists of Python numbers: as many as its rows, so a list whose
# length is the array's, each item a leaf of its own when passed to jit.
_ARRAY_TO_LISTS = {"tolist"}


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
    "jax.experimental.checkify.checkify",
}


# What defines the computation a transform makes, beside the function it transforms (position 0):
# its arguments by position and keyword. Another value of one is another program, not another
# input: a jit built around it anew per value traces once per value however it is built.
TRANSFORM_CONFIG: dict[str, tuple[tuple[int, str], ...]] = {
    "vmap": ((1, "in_axes"), (2, "out_axes"), (3, "axis_name"), (4, "axis_size")),
    "grad": ((1, "argnums"), (2, "has_aux")),
    "value_and_grad": ((1, "argnums"), (2, "has_aux")),
    "jacfwd": ((1, "argnums"), (2, "has_aux")),
    "jacrev": ((1, "argnums"), (2, "has_aux")),
    "hessian": ((1, "argnums"), (2, "has_aux")),
    "checkpoint": ((1, "prevent_cse"), (2, "policy"), (3, "static_argnums")),
    "remat": ((1, "prevent_cse"), (2, "policy"), (3, "static_argnums")),
}


# Transforms (by their last name: ``jax.vmap``, ``jax.api.vmap``) whose function sees an item of
# each argument, not the argument (its mapped axis dropped): a call of the result is no call of the
# function with those arguments (``funcrefs``: "mapped", not "transform").
_MAPPING_TRANSFORMS = {"vmap"}
# Transforms that differentiate the function they make with respect to its arguments: jax refuses an
# integer or boolean leaf among those (``grad requires real- or complex-valued inputs``).
DIFFERENTIATES = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.hessian"}
)


def transform_traces(transform: str, configured: bool, position: int | None) -> bool:
    """Whether the function ``transform`` (a dotted name) makes traces its argument at ``position``
    whatever value it is given: the differentiated one (the first, unless ``configured``: argnums
    given), every mapped one (unless in_axes is given)."""
    if configured or position is None:
        return False
    return (transform in DIFFERENTIATES and position == 0) or transform in {"jax.vmap", "vmap"}


# Annotations of a field whose value jax can differentiate: a float, a complex number or an array.
DIFFERENTIABLE_TYPES = frozenset(
    {"float", "complex", "jax.Array", "jnp.ndarray", "jax.numpy.ndarray", "Array", "chex.Array"}
)


@dataclass(frozen=True)
class CarryLoop:
    """A lax loop that calls a body function on a carried value and returns what it gives back.

    ``body``: the position of the body; ``init``: the position of the initial carry; ``passed``:
    per parameter of the body, the position of the argument it gets, or ``ITEM`` and the position of
    the array it gets a slice of, or ``COUNTER`` (the loop's index); ``carry``: the item of the
    body's result the loop returns as its carry (None: the whole result). jax checks that the body
    gives back the initial carry's pytree structure with each leaf's shape and dtype, so the carry
    returned has them too, every leaf a jax array; jax gives a weakly typed initial carry the type
    the body returns. Every one gives back the initial carry's treedef (jax checks that the body
    keeps it), so the static parts of the carry it returns (aux data, non-pytree fields) are the
    initial carry's at ``init``, whatever the body computes (``summary.CarryStart``)."""

    body: int
    init: int
    passed: tuple[tuple[str, int], ...]
    carry: int | None = None


ARGUMENT, ITEM, COUNTER = "argument", "item", "counter"
CARRY_LOOPS = {
    # scan(f, init, xs) -> (carry, ys), f(carry, x) -> (carry, y)
    "jax.lax.scan": CarryLoop(0, 1, ((ARGUMENT, 1), (ITEM, 2)), carry=0),
    # fori_loop(lower, upper, body, init), body(i, val) -> val
    "jax.lax.fori_loop": CarryLoop(2, 3, ((COUNTER, 0), (ARGUMENT, 3))),
    # while_loop(cond, body, init), body(val) -> val
    "jax.lax.while_loop": CarryLoop(1, 2, ((ARGUMENT, 2),)),
}


# Calls that apply their first argument, a function, to every leaf of the others (trees of one
# structure) and return a tree of that structure: what the function does to a leaf is done to the tree.
_TREE_MAPS = {"jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map"}


# Calls that drop every jitted function's compiled code and traces: each jitted function traces and
# compiles again at its next call.
_CACHE_CLEARING = {"jax.clear_caches"}


# The types only an abstract value under a trace has: ``if isinstance(x, jax.core.Tracer):`` runs
# its block only while a transform traces (``summarise.syntax._tracing_block``).
_TRACER_TYPES = {
    "jax.core.Tracer",
    "jax._src.core.Tracer",
    "jax.interpreters.partial_eval.DynamicJaxprTracer",
    "jax._src.interpreters.partial_eval.DynamicJaxprTracer",
}


# Callables that bind the first arguments of a function: a new object per call, which calls it with
# those arguments first.
_PARTIALS = {"functools.partial", "partial", "jax.tree_util.Partial"}
# Partials that are pytrees: what they bind are leaves, the function is in the tree structure,
# compared by equality (a function made anew, or a partial, is a new structure each time).
_PYTREE_PARTIALS = {"jax.tree_util.Partial"}


# Results jax compares by value when passed as a static argument, though new objects each call
# (measured on jax 0.10.2): equal for arguments of the same pytree structure and, where the flag is
# set, the same leaf shapes and dtypes. The index says which item of a returned tuple (None: the
# result itself). `ravel_pytree`'s unravel is a HashablePartial; a treedef compares its structure.
# Not so `functools.partial`, `jax.tree_util.Partial`, `jax.jit`, `jax.vmap`, `jnp.vectorize` or a
# treedef's `unflatten`: those compare by identity.
_STRUCTURE_KEYED: dict[str, tuple[int | None, bool]] = {
    "jax.flatten_util.ravel_pytree": (1, True),
    "jax.tree_util.tree_structure": (None, False),
    "jax.tree_util.tree_flatten": (1, False),
    "jax.tree.structure": (None, False),
    "jax.tree.flatten": (1, False),
}


# Reads of a pytree's leaves whose truth (or length) an ``if`` tests: whether a collection of the
# state's structure (a model's batch statistics, a cache) holds anything. A jitted loop keeps that
# structure, so a step under such a test runs at every turn or never (``evidence``'s
# ``structure-guard``).
STRUCTURE_TESTS = frozenset({"jax.tree_util.tree_leaves", "jax.tree_leaves", "jax.tree.leaves"})

# Results whose pytree structure holds an object made anew by each call (measured on jax 0.10.2:
# ``jax.vjp``'s pullback is a ``VJP`` whose metadata holds a fresh partial, ``jax.linearize``'s jvp
# function a ``Partial`` of a fresh function): passed to a jitted function, each one is a new cache
# entry. The value is which item of the returned tuple it is.
_FRESH_TREES = {"jax.vjp": 1, "jax.linearize": 1}


# Clocks and ids read anew at every call (a build time kept in a pytree's aux data, a seed from the
# clock passed static): a new value each time, as a draw is. The value is the type it returns.
_CLOCKS = {
    "time.time": FLOAT,
    "time.perf_counter": FLOAT,
    "time.monotonic": FLOAT,
    "time.process_time": FLOAT,
    "time.time_ns": INT,
    "time.perf_counter_ns": INT,
    "time.monotonic_ns": INT,
    "uuid.uuid4": UNKNOWN,
    "uuid.uuid1": UNKNOWN,
}


# Constants of the array and math modules that are Python floats (``jnp.inf`` is ``np.inf``, a
# ``float``): passed to jit they are weakly typed scalars, unlike ``jnp.float32(jnp.inf)``.
_FLOAT_CONSTANTS = {"inf", "nan", "pi", "e", "euler_gamma", "tau"}
_FLOAT_CONSTANT_MODULES = {"numpy", "jax.numpy", "math"}


# Attributes of arrays that are no object's field: they vary with the array.
_ARRAY_ATTRIBUTES = {"dtype", "ndim", "itemsize", "nbytes", "at", "sharding", "weak_type", "flat"}

# An array's attributes that are Python values even while it is traced (a fix may make a value read only
# through these a traced argument).
STATIC_ARRAY_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})
# Array methods that give a new array and leave the array as it was (numpy's too).
NEW_ARRAY_METHODS = frozenset(
    {*_ARRAY_METHODS_KEEP - {"block_until_ready"}, *_ARRAY_METHODS_MOVE, "reshape", "sum", "mean"}
    | {
        "max",
        "min",
        "std",
        "var",
        "prod",
        "cumsum",
        "dot",
        "conj",
        "argmax",
        "argmin",
        "any",
        "all",
    }
)
# ``x.at[i].set(v)``: what ``.at[...]`` gives is updated into a new array, of ``x``'s shape, dtype
# and weak type (jax casts the values to them).
AT_UPDATES = frozenset({"set", "add", "multiply", "divide", "power", "min", "max", "apply"})
TRACED_ARRAY_METHODS = NEW_ARRAY_METHODS | {
    "real",
    "imag",
    "mT",
    "at",
    "set",
    "add",
    "multiply",
    "get",
}


# Iterables that yield the items of their one argument, as they are (a progress bar, an iterator, a
# copy, the same items in another order): a loop over one runs as often, over the same items, as a
# loop over the argument (``for run in tqdm.tqdm(runs, desc=...)`` with ``runs = ["one"]``: once).
ITEMS_OF_ARGUMENT = frozenset(
    {
        "tqdm.tqdm",
        "tqdm.auto.tqdm",
        "tqdm.notebook.tqdm",
        "tqdm.std.tqdm",
        "tqdm.rich.tqdm",
        "iter",
        "list",
        "tuple",
        "sorted",
        "reversed",
    }
)

# Iterables that are ``range`` of their positional arguments with a progress bar (``tqdm.trange(n,
# desc=...)`` is ``tqdm.tqdm(range(n))``): a loop over one runs as a loop over that range does.
RANGE_OF_ARGUMENTS = frozenset(
    {
        "tqdm.trange",
        "tqdm.auto.trange",
        "tqdm.notebook.trange",
        "tqdm.std.trange",
        "tqdm.rich.trange",
    }
)

# Iterables made from the items of what they are given, a loop over which walks a collection held in
# memory when what they are given does (``for i, x in enumerate(params)``); unlike ``ITEMS_OF_ARGUMENT``
# they may pair, number or deduplicate the items, so they keep a loop held, not its count.
WALK_THEIR_ARGUMENTS = frozenset(
    {
        "enumerate",
        "zip",
        "sorted",
        "reversed",
        "list",
        "tuple",
        "set",
        "frozenset",
        # Combinations of the items of what they are given: a grid of settings.
        "itertools.product",
        "itertools.permutations",
        "itertools.combinations",
    }
)
# Those of them that walk every argument they are given, not only the first.
WALK_EVERY_ARGUMENT = frozenset({"itertools.product"})
# Those that walk their arguments side by side and stop at the shortest: as many items as the one
# held in memory gives, whatever the others are (``zip(state._fields, state)``).
WALK_SHORTEST_ARGUMENT = frozenset({"zip"})
# What lists the files of a folder (``fpath.iterdir()``, ``glob.glob("runs/*.pkl")``): a loop over
# them walks what the folder holds when the run starts, the same items however long the run goes (an
# experiment or trained model per file, issue 36 how often), as ``FOLDER_LISTING_METHODS`` of a path.
FOLDER_LISTINGS = frozenset({"os.listdir", "os.scandir", "glob.glob", "glob.iglob"})
FOLDER_LISTING_METHODS = frozenset({"iterdir", "glob", "rglob"})
# Attributes that are collections held in memory whatever their object: a namedtuple's field names.
HELD_ATTRIBUTES = frozenset({"_fields"})
# The methods that parse the command line into a namespace (``args = parser.parse_args()``): an
# option is given once per process, so a loop over one (``nargs="+"``, or ``args.sizes.split(",")``
# of a comma-separated list, ``OPTION_SPLITTERS``) walks the same few settings however long it runs.
# The command line itself, given once per process: a loop over its words walks a few settings.
COMMAND_LINE = frozenset({"sys.argv"})
COMMAND_LINE_PARSERS = frozenset({"parse_args", "parse_known_args", "parse_intermixed_args"})
OPTION_SPLITTERS = frozenset({"split", "rsplit"})

# A new object with the same attributes, or with some of them replaced (keywords).
_COPIES = {"copy.copy", "copy.deepcopy"}
# The same pytree with its leaves put on devices (stacked across them, or the first taken back): an
# object keeps its class and its attributes.
_SAME_TREES = {
    "flax.jax_utils.replicate",
    "flax.jax_utils.unreplicate",
    "jax.device_put",
    "jax.device_put_replicated",
}
# The same pytree with new leaves: the one at this position comes back with its class and its
# static fields (its treedef), its leaves computed from the other arguments. ``apply_updates(model,
# updates)`` adds the updates to the array leaves only; ``eqx.tree_at(where, model, new)`` replaces
# the nodes ``where`` picks, and a static field is no node (equinox refuses to pick one).
# Library calls that return a record of functions kept as its fields (haiku's ``Transformed``,
# an optax ``GradientTransformation``): its ``apply`` or ``update`` is the same function object at
# every read, whose jits share jax's caches (measured: 4 wraps of a NamedTuple's field, 1 trace).
FUNCTION_RECORDS = frozenset(
    {
        "haiku.transform",
        "haiku.transform_with_state",
        "haiku.without_apply_rng",
        "haiku.multi_transform",
        "haiku.multi_transform_with_state",
    }
)
# ... and the packages each of whose functions does (every optax transformation).
FUNCTION_RECORD_PACKAGES = ("optax.",)
# Library classes whose bound methods are pytrees of their object (equinox makes a method read off
# a Module a Module holding it): a wrapper keyed by the function's pytree structure
# (``jitspec.BY_PYTREE``) takes a new model's method of the same static fields as the same function.
PYTREE_METHOD_BASES = frozenset({"equinox.Module", "equinox._module.Module"})

NEW_LEAVES = {"equinox.apply_updates": 0, "optax.apply_updates": 0, "equinox.tree_at": 1}
# Of those, the ones whose first argument picks the nodes that the third (``replace``) replaces.
NODE_PICKERS = frozenset({"equinox.tree_at"})
# Of those, the ones that make each Python number of the pytree a jax array as ``jnp.asarray`` does
# (``abstract.placed_leaves``); the others stack or take back arrays already made.
PLACES_LEAVES = frozenset({"jax.device_put"})
# Unpickling makes a new object of the pickled object's class: known when the bytes are those
# ``pickle.dumps(obj)`` makes in the same expression (a copy by round trip), else not known.
_UNPICKLES = {"pickle.loads", "pickle.load"}
_PICKLES = {"pickle.dumps"}
_REPLACES = {"dataclasses.replace"}
# Methods that return a copy of their object with these fields changed, from it and the arguments,
# the others kept: flax's ``TrainState.apply_gradients(grads=...)`` is ``self.replace(step=...,
# params=..., opt_state=...)``, so ``apply_fn`` and ``tx`` stay those of the state it updates.
_FIELD_UPDATES = {"apply_gradients": ("step", "params", "opt_state")}
# Setting an attribute named by a string: the second argument (``setattr(obj, "lr", v)``).
_SETATTRS = {"setattr", "object.__setattr__"}


# Calls that register a class as a pytree, and how each says which attributes are static.
_PYTREE_REGISTRATIONS = {
    "jax.tree_util.register_pytree_node": "register_pytree_node",
    "jax.tree_util.register_pytree_with_keys": "register_pytree_node",
    "jax.tree_util.register_dataclass": "register_dataclass",
}


_MEMOISER = re.compile(r"cache|memo", re.IGNORECASE)


_LIST_GROW_METHODS = {"append", "extend", "insert"}


# Methods that take items out of a list, dict or set in place.
_REMOVING_METHODS = {"pop", "remove", "clear", "popitem", "discard"}


_LIST_RESIZE: dict[str, int | None] = {
    "append": 1,
    "insert": 1,
    "extend": None,
    "pop": -1,
    "remove": -1,
    "clear": 0,
}


# String methods that cut a string into a list: as many pieces as the text has words or lines.
_STR_SPLITS = {"split", "rsplit", "splitlines"}


# String methods that pad a string to a width, by the position of the width: as long as the width
# (a text padded to the longest of a batch is as long as that one).
_STR_PADS = {"ljust": 0, "rjust": 0, "center": 0, "zfill": 0}


# Dict methods that give its keys, values, or (key, value) pairs to iterate.
_DICT_VIEWS = {"keys": "keys", "values": "values", "items": "items"}


# Dict methods that add or remove keys: after them the key set is not known.
_DICT_MUTATORS = {"update", "pop", "popitem", "setdefault", "clear"}


# Containers given a bound (the keyword and position that give it): appending to a full one drops
# its oldest item, so it grows to the bound and stays there (a few traces, not one per step).
_BOUNDED_QUEUES = {"collections.deque": ("maxlen", 1)}


# The packages whose ``DataLoader`` is PyTorch's, which keeps a short last batch unless
# ``drop_last=True``; a class of that name the project or another library defines is not known to.
_LOADER_PACKAGES = frozenset({"torch", "torch_geometric", "torchvision"})


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


# Every dtype spelling as the dtype it asks for. Summaries keep what is asked for; jax stores the
# 64-bit ones as their 32-bit kin unless x64 is on (``values.canonical_dtype``), so an int64 NumPy
# index and an int32 one are one cache key without x64 and two with it.
# NumPy's scalar types that are no dtype name of jax's (called, they make a hashable scalar, as
# ``np.float32(0.5)`` does).
_NUMPY_SCALAR_TYPES = frozenset({"timedelta64", "datetime64", "str_", "bytes_"})


_DTYPES = {
    **{
        name: name
        for name in (
            "bool",
            "int2",
            "int4",
            "int8",
            "int16",
            "int32",
            "int64",
            "uint2",
            "uint4",
            "uint8",
            "uint16",
            "uint32",
            "uint64",
            "float16",
            "bfloat16",
            "float32",
            "float64",
            "complex64",
            "complex128",
            "float4_e2m1fn",
            "float8_e3m4",
            "float8_e4m3",
            "float8_e4m3b11fnuz",
            "float8_e4m3fn",
            "float8_e4m3fnuz",
            "float8_e5m2",
            "float8_e5m2fnuz",
            "float8_e8m0fnu",
        )
    },
    "bool_": "bool",
    "b1": "bool",
    "int_": "int64",
    "int": "int64",  # Python's int: jax's default integer
    "intp": "int64",
    "intc": "int32",
    "longlong": "int64",
    "short": "int16",
    "byte": "int8",
    "i1": "int8",
    "i2": "int16",
    "i4": "int32",
    "i8": "int64",
    "uint": "uint64",
    "uintp": "uint64",
    "uintc": "uint32",
    "ulonglong": "uint64",
    "ushort": "uint16",
    "ubyte": "uint8",
    "u1": "uint8",
    "u2": "uint16",
    "u4": "uint32",
    "u8": "uint64",
    "half": "float16",
    "single": "float32",
    "double": "float64",
    "float": "float64",  # Python's float: jax's default float
    "float_": "float64",
    "longdouble": "float64",
    "f2": "float16",
    "f4": "float32",
    "f8": "float64",
    "complex": "complex128",
    "complex_": "complex128",
    "csingle": "complex64",
    "cdouble": "complex128",
    "c8": "complex64",
    "c16": "complex128",
}


# Functions that return integer indices: jax's default integer (int32, int64 under x64; NumPy's are
# int64), except ``_INT32_INDEXES``, int32 even under x64 (measured on jax 0.10.2: a tuple of them
# for nonzero and one-argument where).
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


_INT32_INDEXES = {"searchsorted", "argpartition", "digitize"}


# Calls that make a dtype (``np.min_scalar_type(n)``, ``np.dtype(name)``) from a value: as that value
# changes, so does the dtype.
_DTYPE_FROM_VALUE = {"min_scalar_type", "dtype"}


# Calls that make a dtype from the dtypes of arrays: it changes as theirs do.
_DTYPE_FROM_DTYPES = {"result_type", "promote_types"}


# Where a function takes its dtype when it is not given by keyword.
_DTYPE_POSITION = {
    "zeros": 1,
    "ones": 1,
    "empty": 1,
    "identity": 1,
    "array": 1,
    "asarray": 1,
    "full": 2,
    "zeros_like": 1,
    "ones_like": 1,
    "empty_like": 1,
    "full_like": 2,
}


# Where jax.random's draws take their dtype positionally (``jax.random.normal(key, shape, dtype)``);
# NumPy's functions of the same names take none (their third argument is ``size``).
_RANDOM_DTYPE_POSITION = {
    "normal": 2,
    "uniform": 2,
    "randint": 4,
    "truncated_normal": 4,
    "exponential": 2,
    "gumbel": 2,
    "laplace": 2,
    "logistic": 2,
    "cauchy": 2,
}


# Functions that change an array's dtype by a rule of their own, keyed by name: (what they make of an
# integer or bool input, the method argument that keeps the dtype). ``jax.image.resize`` interpolates
# integers into float32 (even under x64) unless the method is nearest; float dtypes stay.
_TO_INEXACT = {"resize": ("float32", "nearest"), "scale_and_translate": ("float32", None)}


# Elementwise predicates: a boolean array as long as their operands, a mask when it indexes.
_MASKS = {
    "isnan",
    "isfinite",
    "isinf",
    "isneginf",
    "isposinf",
    "isclose",
    "isin",
    "signbit",
    "logical_and",
    "logical_or",
    "logical_not",
    "logical_xor",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "equal",
    "not_equal",
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
# jax.nn's activations: elementwise, of their operand's dtype and weak type, as jax.numpy's
# elementwise functions are (``jax.nn.gelu(h)`` of bfloat16 is bfloat16; measured on jax 0.10.2).
NN_ELEMENTWISE = frozenset(
    {"relu", "relu6", "gelu", "silu", "swish", "sigmoid", "softplus", "soft_sign", "elu", "selu"}
    | {"celu", "leaky_relu", "hard_tanh", "log_sigmoid", "hard_sigmoid", "hard_silu", "mish"}
)
_ELEMENTWISE |= NN_ELEMENTWISE
# Functions whose every output row is made from the same row of their array operands alone (the
# elementwise ones, predicates, a choice between two): a function built of them alone gives the
# rows of a padded array's first ``n`` rows as it gives those of the first ``n`` rows (RTL101 fix).
ROWWISE = frozenset(_ELEMENTWISE | _MASKS | {"where", "maximum", "minimum"})
# Reductions that take ``where=`` (or, for max and min, a row standing in for the padding), so that
# one over a padded array's rows is made over its first ``n`` rows alone (the RTL101 fix's mask).
ROW_REDUCTIONS = frozenset({"sum", "mean", "var", "std", "max", "min"})
# What caps a number it is given with another (builtin ``min(n + k, cap)``, ``np.minimum``,
# ``np.clip(n, lo, hi)``): a count so stepped stays bounded.
CAPS = frozenset({"min", "minimum", "clip"})
# Conversions that give their one array operand's rows as they are.
ROWS_KEPT = frozenset({"asarray", "array"})
# Normalisations along an axis that take ``where=`` too, keeping their operand's shape.
ROW_NORMALISERS = frozenset({"jax.nn.softmax", "jax.nn.log_softmax"})
# jax.numpy functions that make an array of one axis.
VECTORS = frozenset({"arange", "linspace", "logspace", "geomspace"})

# The jax.numpy functions whose result is weakly typed when all their operands are (measured on jax
# 0.10.2 with jnp.asarray(0.5) and 0.5): the elementwise ones but casts and these.
_STRONG_FROM_WEAK = {"log2", "log10", "nan_to_num", "isnan", "isfinite", "isinf"}
# And these, which move, pick or multiply their operands' values (measured the same way: weak in, weak
# out, strong with one strong operand); a reduction (``sum``, ``mean``, ``max``, ``cumsum``,
# ``linalg.norm``) is strongly typed even of weak operands, and stays out.
_MOVE_WEAK = {
    "atleast_1d",
    "column_stack",
    "fliplr",
    "flipud",
    "moveaxis",
    "rollaxis",
    "rot90",
    "swapaxes",
    "tril",
    "triu",
    "broadcast_to",
    "clamp",
    "concatenate",
    "convolve",
    "diff",
    "dot",
    "einsum",
    "expand_dims",
    "flip",
    "full",
    "full_like",
    "hstack",
    "inner",
    "kron",
    "logaddexp",
    "matmul",
    "ones_like",
    "outer",
    "pad",
    "ravel",
    "repeat",
    "reshape",
    "roll",
    "sort",
    "squeeze",
    "stack",
    "stop_gradient",
    "tensordot",
    "tile",
    "transpose",
    "vdot",
    "vstack",
    "where",
    "zeros_like",
}
# The products of arrays among them (measured the same way: weak only when every operand is, strong
# with one strong operand): an operand of unknown kind (a call's result not known, an item of a
# container) is an array of data there, and strongly typed: a weakly typed array is made from Python
# scalars only.
_ARRAY_PRODUCTS = {"dot", "einsum", "inner", "kron", "matmul", "outer", "tensordot", "vdot"}
# The binary arithmetic functions promote their operands as the operators do (jax's
# ``promote_args``): weak of weak operands, strong with one strong.
_BINARY_ARITHMETIC = {"add", "subtract", "multiply", "divide", "true_divide", "floor_divide"}
_BINARY_ARITHMETIC |= {"mod", "remainder", "fmod", "arctan2", "hypot", "copysign"}
_KEEP_WEAK = (
    (_ELEMENTWISE - _DTYPES.keys() - _STRONG_FROM_WEAK)
    | {"maximum", "minimum"}
    | _MOVE_WEAK
    | _BINARY_ARITHMETIC
)
# The jax.numpy functions whose result is at least as wide as each strongly typed operand on jax's
# promotion lattice (``Value.floor``): those that promote their operands as arithmetic does, but the
# predicates, and linear solves and reductions, which keep their operand's kind or widen it.
# ``asarray``/``array`` of one array without a dtype keep its dtype, so its floor too.
_KEEPS_FLOOR = (_KEEP_WEAK - _MASKS) | {"solve", "inv", "cumsum", "mean", "sum", "var", "std"}
_KEEPS_FLOOR |= {"asarray", "array"}
# The ones among them that promote a Python number they are given as an operand (``jnp.where(c, x,
# 0.5)``, ``jnp.clip(x, 0.0, 1.0)``: a float even of an int array), not those that take it as a fill,
# a count or a width (``full_like(x, 0.5)``, ``round(x, 2)`` keep ``x``'s dtype).
PROMOTES_NUMBERS = _BINARY_ARITHMETIC | {"maximum", "minimum", "where", "clip", "power"}
# The ones that take a part of a complex operand: their result is its real counterpart
# (``jnp.abs`` of complex64 is float32), below a complex floor on the lattice.
_TAKES_PART = frozenset({"abs", "absolute", "real", "imag", "angle"})
# The ones whose result is strongly typed even of weak operands (measured the same way): the
# reductions, the constructors that take no values, and a dtype's name (``jnp.float32(x)``).
_MADE_STRONG = (
    _STRONG_FROM_WEAK
    | _DTYPES.keys()
    | {"amax", "amin", "angle", "arange", "argmax", "argmin", "average", "cumprod", "cumsum"}
    | {"diagonal", "empty", "eye", "identity", "linspace", "logsumexp", "max", "mean", "median"}
    | {"min", "nanmean", "nansum", "norm", "ones", "polyval", "prod", "std", "sum", "trace", "var"}
    | {"zeros"}
)


_FLOAT_MAKERS = {"zeros", "ones", "empty", "eye", "identity", "linspace", "normal", "uniform"}
# Draws of jax's default int when no dtype is given: int64 under x64, int32 without
# (``jax.random.categorical`` samples an index of that int, as ``argmax`` gives one).
_DRAWS_DEFAULT_INT = {"randint", "categorical"}


# The dtype a Python scalar becomes: jax's defaults (canonical_dtype makes them 32-bit without x64).
_SCALAR_DTYPE = {INT: "int64", FLOAT: "float64", BOOL: "bool"}


# jax's 64-bit switch, as a config name (``jax.config.update("jax_enable_x64", True)``) and as the
# environment variable read when jax is imported (``os.environ["JAX_ENABLE_X64"] = "1"``).
_X64_FLAG = "jax_enable_x64"
_X64_ENV = "JAX_ENABLE_X64"


def _enables_x64(tree: ast.Module, lines: set[int]) -> bool:
    """Whether the module turns on jax's 64-bit types: ``jax.config.update("jax_enable_x64", True)``,
    ``os.environ["JAX_ENABLE_X64"] = "1"`` (or ``setdefault``), ``jax.config.jax_enable_x64 = True``;
    ``lines``: the lines that name the flag (only the simple statements there are read)."""
    named = (
        stmt
        for stmt in _statements(tree.body)
        if isinstance(stmt, ast.Expr | ast.Assign)
        and any(line in lines for line in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    )
    for node in (sub for stmt in named for sub in ast.walk(stmt)):
        if isinstance(node, ast.Call) and len(node.args) == 2:
            name = (_dotted(node.func) or "").rpartition(".")[2]
            key = node.args[0]
            if (
                name in ("update", "setdefault")
                and isinstance(key, ast.Constant)
                and str(key.value).lower() == _X64_FLAG
                and _truthy(node.args[1])
            ):
                return True
        elif isinstance(node, ast.Assign) and _truthy(node.value):
            for target in node.targets:
                key = target.slice if isinstance(target, ast.Subscript) else None
                if (isinstance(key, ast.Constant) and key.value == _X64_ENV) or (
                    isinstance(target, ast.Attribute) and target.attr == _X64_FLAG
                ):
                    return True
    return False


def config_settings(tree: ast.Module) -> dict[str, str]:
    """The options the module's top level sets with ``jax.config.update(name, literal)``, each with
    its setting written as ``repr`` writes the literal (``"'highest'"``, ``"True"``)."""
    out: dict[str, str] = {}
    for stmt in _statements(tree.body):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and len(call.args) == 2 and not call.keywords):
            continue
        name, value = call.args
        literal = isinstance(name, ast.Constant) and isinstance(value, ast.Constant)
        if (_dotted(call.func) or "").endswith("config.update") and literal:
            out[str(name.value)] = repr(value.value)  # type: ignore[union-attr]
    return out


def _truthy(node: ast.AST) -> bool:
    """A literal that turns a flag on: True, 1, "1", "true"."""
    return isinstance(node, ast.Constant) and str(node.value).lower() in ("true", "1")


def _dtype_name(node: ast.AST) -> str | None:
    """``jnp.float32``, ``np.int64``, ``"int32"``, ``bool`` as the dtype it asks for."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _DTYPES.get(node.value)
    dotted = _dotted(node)
    return _DTYPES.get(dotted.rpartition(".")[2]) if dotted else None


def dtype_defaults(params: tuple[Param, ...], args: ast.arguments) -> tuple[Param, ...]:
    """``params`` with the dtype each one's default names (``dtype=jnp.float32``, ``dtype=float``):
    a call that leaves it out makes arrays of that dtype (``Param.dtype``)."""
    positional = [*args.posonlyargs, *args.args]
    given = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    given += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
    named = {arg.arg: dtype for arg, node in given if (dtype := _dtype_name(node)) is not None}
    if not named:
        return params
    return tuple(replace(p, dtype=named[p.name]) if p.name in named else p for p in params)


def _index_dtype(name: str, numpy: bool) -> str:
    return "int32" if name in _INT32_INDEXES and not numpy else "int64"


def _array_dtype(
    node: ast.Call, name: str, args: list[Value], given: str | None, numpy: bool
) -> str | None:
    """The dtype of an array made by a jax.numpy / numpy call, when the call shows it (``given``: the
    dtype its dtype argument names)."""
    if given is not None:
        return given
    if name in _INDEX_FUNCTIONS or (name == "where" and len(node.args) == 1):
        return _index_dtype(name, numpy)
    if name in _DTYPES:
        return _DTYPES[name]
    if name in _FLOAT_MAKERS:
        return "float64"
    if name in _DRAWS_DEFAULT_INT:
        return "int64"
    if name == "full" and len(args) > 1:
        return _SCALAR_DTYPE.get(args[1].ty) or args[1].dtype
    if name == "arange":
        tys = {a.ty for a in args}
        return "float64" if FLOAT in tys else ("int64" if tys == {INT} else None)
    if name in ("array", "asarray") and args:
        first = args[0]
        if first.items:
            tys = {item.ty for item in first.items}
            if tys <= {INT}:
                return "int64"
            if tys <= {INT, FLOAT}:
                return "float64"
            if tys == {BOOL}:
                return "bool"
            return None
        return _SCALAR_DTYPE.get(first.ty) or first.dtype
    if name in ("zeros_like", "ones_like", "empty_like") and args:
        return args[0].dtype
    operands = [args[i] for i in _VALUE_OPERANDS.get(name, range(len(args))) if i < len(args)]
    if not numpy and name in _VALUE_OPERANDS:
        operands = _weak_numbers_taken(operands)
    dtypes = {a.dtype for a in operands if a.ty in ARRAYS}
    # A value of unknown dtype takes part in the promotion (for jax, a Python scalar too: weak).
    known = (ARRAYS | _WEAK_SCALAR.keys()) if numpy else ARRAYS
    if any(a.ty not in known for a in operands) and name in _VALUE_OPERANDS:
        return None
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    if numpy and name in _OF_NUMBERS and _numbers_only(operands):
        # Python numbers alone are computed in their kind's default (NEP 50): ``np.sqrt(n)`` of
        # an int is a NumPy float64 scalar, a strongly typed operand of jax arithmetic.
        dtype = numpy_promotion.result_type(Typed(_WEAK_SCALAR[a.ty], True) for a in operands)
    elif numpy and name in ROWWISE:
        dtype = _numpy_promoted(operands)
    if numpy:
        dtype = numpy_promotion.computed_in(name, dtype)
    dtype = interpolated_dtype(node, name, reduced_dtype(name, dtype))
    return real_part(dtype) if name in _TAKES_PART else dtype


def interpolated_dtype(node: ast.Call, name: str, dtype: str | None) -> str | None:
    """The dtype an interpolating function ``name`` (``_TO_INEXACT``) gives an image of ``dtype``:
    integers become floats unless the method keeps them; any other function keeps ``dtype``."""
    if name not in _TO_INEXACT or dtype is None or _inexact(dtype):
        return dtype
    made, keeps = _TO_INEXACT[name]
    method = _argument(node, "method", 2)
    kept = keeps is not None and isinstance(method, ast.Constant) and method.value == keeps
    return dtype if kept else made


def _weak_numbers_taken(operands: list[Value]) -> list[Value]:
    """The operands of a jax choice (``where(c, x, 0)``) with each Python number promoted with the
    typed arrays beside it (``promotion.result_type``: it is weak): an int takes an int32 array's
    dtype, a float makes it the default float. Unchanged unless every other one is such an array."""
    arrays = [a for a in operands if a.ty in ARRAYS and a.dtype is not None]
    numbers = [a for a in operands if a.ty in _WEAK_SCALAR]
    if not arrays or not numbers or len(arrays) + len(numbers) != len(operands):
        return operands
    typed = [Typed(a.dtype or "") for a in arrays] + [
        Typed(_WEAK_SCALAR[a.ty], True) for a in numbers
    ]
    result = result_type(typed, x64=True)
    if result is None:
        return operands
    return [a if a.ty in ARRAYS else arrays[0].with_(dtype=result.dtype) for a in operands]


# Calls whose result takes its dtype and weak type from some arguments only: ``where(cond, x, y)``
# from x and y (a bool condition is never weak, and leaves the result as weak as x and y); ``full(shape,
# fill)`` from the fill (``jnp.full((n,), -1)`` is a weakly typed int array).
_VALUE_OPERANDS: dict[str, tuple[int, ...]] = {"where": (1, 2), "full": (1,)}
# The functions that gather, move or repeat the elements of one array operand (at this position):
# the result has that array's dtype and weak type whatever the indices, shifts or counts beside it
# are (``jnp.take(table, ids)`` of a float32 table and int32 ids is float32; measured on jax 0.10.2).
# Where that array's dtype is not known it is read where the array is (``Value.dtype_of``).
KEEPS_OPERAND_DTYPE = {
    **dict.fromkeys(("take", "take_along_axis", "roll", "repeat", "tile", "pad", "resize"), 0),
    **dict.fromkeys(("delete", "insert"), 0),
    **dict.fromkeys(("compress", "extract"), 1),
}
_VALUE_OPERANDS |= {name: (at,) for name, at in KEEPS_OPERAND_DTYPE.items()}


# A Python number as a weak operand of NumPy's promotion: its kind's default dtype.
_WEAK_SCALAR = {INT: "int64", FLOAT: "float64", COMPLEX: "complex128"}


def _numpy_promoted(operands: list[Value]) -> str | None:
    """What NumPy computes element by element on ``operands`` (arrays, NumPy scalars, Python numbers,
    weak under NEP 50), by NumPy's promotion (``np.clip(pixels_uint8, 0.0, 1.0)`` is float64); an
    operand of unknown dtype is left out, as the other array functions leave it."""
    arrays = [Typed(a.dtype) for a in operands if a.ty in ARRAYS and a.dtype is not None]
    weak = [Typed(_WEAK_SCALAR[a.ty], True) for a in operands if a.ty in _WEAK_SCALAR]
    return numpy_promotion.result_type(arrays + weak) if arrays else None


# The NumPy functions that compute on Python numbers as on arrays (``np.sqrt(2)``, ``np.mean(x)`` of a
# float): the float ufuncs, true division and the averages.
_OF_NUMBERS = numpy_promotion.FLOAT_UFUNCS | numpy_promotion.TRUE_DIVIDES | numpy_promotion.AVERAGES


def _numbers_only(operands: list[Value]) -> bool:
    return bool(operands) and all(a.ty in _WEAK_SCALAR for a in operands)


def _inexact(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat", "complex"))


def promoted(dtypes: set[str | None]) -> str | None:
    """The dtype of arithmetic between strongly typed jax arrays of ``dtypes``, in the 64-bit names
    the summaries keep (``canonical_dtype`` narrows them without x64): jax's promotion lattice
    (``promotion.result_type``). Unknown (None): an unknown dtype, or one the lattice does not know."""
    if not dtypes or None in dtypes:
        return None
    typed = result_type([Typed(d) for d in dtypes if d is not None], x64=True)
    return typed.dtype if typed else None


def _arith_dtype(left: Value, right: Value, divides: bool = False) -> str | None:
    """Array arithmetic: a Python scalar takes the array's dtype (weak typing); two arrays meet at
    their promoted dtype (``promoted``). NumPy's arrays and scalars alone are computed on the host
    by NumPy's rules (``_numpy_promoted``; true division, ``divides``, of integers is float64)."""
    arrays = [v for v in (left, right) if v.ty in ARRAYS]
    scalars = [v for v in (left, right) if v.ty in (INT, FLOAT, BOOL)]
    if not arrays or len(arrays) + len(scalars) != 2:
        return None
    if all(v.ty in NUMPY_DATA for v in arrays):
        dtype = _numpy_promoted([left, right]) if all(v.dtype for v in arrays) else None
        return numpy_promotion.true_divide(dtype) if divides else dtype
    dtypes = {v.dtype for v in arrays}
    if len(dtypes) > 1 and any(weak_class(v) != STRONG for v in arrays):
        return None  # a weakly typed array takes the other's dtype; one of unknown kind, unknown
    dtype = promoted(dtypes)
    if dtype and dtype.startswith(("int", "uint")) and any(v.ty == FLOAT for v in scalars):
        return "float64"  # jax's default float
    # True division makes integers (and bools) the float of their width (``jnp.arange(n) / n``:
    # float64 under x64; an int32 array's float32 even there).
    return to_inexact(dtype, x64=True) if divides and dtype is not None else dtype


_MATH_INTS = {"floor", "ceil", "trunc", "isqrt", "comb", "perm", "factorial", "gcd", "lcm"}


# Python's arithmetic on two ints (a bool is one): the kind of number it gives, by operator. A float
# operand makes a float of each of them; true division makes one of two ints, and so does ``**`` to
# a negative power (``2 ** -1`` is 0.5: ``int_arithmetic``). jax's weakly typed scalars keep these
# kinds (``jnp.asarray(7) // 2`` is a weak int32, ``/ 2`` a weak float32). Checked against Python
# and jax in tests/test_python_numbers.py.
INT_ARITHMETIC: dict[type[ast.operator], str] = {
    ast.Add: INT,
    ast.Sub: INT,
    ast.Mult: INT,
    ast.FloorDiv: INT,
    ast.Mod: INT,
    ast.Pow: INT,
    ast.Div: FLOAT,
    ast.LShift: INT,
    ast.RShift: INT,
    ast.BitAnd: INT,
    ast.BitOr: INT,
    ast.BitXor: INT,
}


def int_arithmetic(op: ast.operator, right: ast.AST | None = None) -> str | None:
    """The kind of number ``op`` gives of two ints (``INT_ARITHMETIC``), ``right`` its right
    operand as written: a power to a negative number is a float. None: no arithmetic of numbers
    (``@``)."""
    kind = INT_ARITHMETIC.get(type(op))
    if isinstance(op, ast.Pow) and _negative_number(right):
        return FLOAT
    return kind


def _negative_number(node: ast.AST | None) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
        return (
            isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value > 0
        )
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value < 0


# Python's builtins that make a number (or a string) of a kind their name fixes: ``round(x)`` is an
# int whatever x is. Checked against Python in tests/test_python_numbers.py.
BUILTIN_KINDS: dict[str, str] = {
    "int": INT,
    "round": INT,
    "float": FLOAT,
    "bool": BOOL,
    "str": STR,
    "repr": STR,
    "format": STR,
}

# Builtins whose number is of their operand's kind when an argument (by keyword, at its position)
# is given and not None: ``round(x, 2)`` rounds to digits, a float's to a float, an int's to an int.
OPERAND_KIND_WITH: dict[str, tuple[str, int]] = {"round": ("ndigits", 1)}

# Builtins that fold their operands with an operator (``INT_ARITHMETIC``'s) from a start of a kind:
# ``sum(xs)`` is ``0 + xs[0] + xs[1] + ...``.
BUILTIN_FOLDS: dict[str, tuple[type[ast.operator], str]] = {"sum": (ast.Add, INT)}


# jax.random's functions that make PRNG keys: jax arrays (``PRNGKey`` is no class, whatever its
# spelling).
_KEY_MAKERS = {"PRNGKey", "key", "split", "fold_in", "clone", "wrap_key_data"}

_NOT_ARRAYS = {
    "shape",
    "ndim",
    "size",
    "issubdtype",
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


def _numpy_module(module: str) -> bool:
    """NumPy or one of its submodules: arrays made there are NumPy's (its dtype defaults)."""
    return module == "numpy" or module.startswith("numpy.")


def _array_module(module: str) -> bool:
    return module.startswith(("jax.numpy", "numpy", "jax.random", "jax.lax", "jax.image"))


def _looks_like_class(dotted: str) -> bool:
    last = dotted.rpartition(".")[2]
    return bool(last) and last[0].isupper() and not last.isupper()


def _looks_like_tf_data(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "tf.data" in text or "from_tensor_slices" in text or "Dataset" in text or "tfds" in text


# Keywords of array APIs whose value must be known while tracing (a shape, an axis, a dtype, a count).
STATIC_KEYWORDS = frozenset(
    {
        "axis",
        "axes",
        "shape",
        "dtype",
        "num",
        "length",
        "size",
        "new_shape",
        "newshape",
        "reps",
        "repeats",
        "keepdims",
        "total_repeat_length",
        "indices_or_sections",
        "k",
        "N",
        "M",
        "n",
        "ord",
        "num_segments",
        "num_classes",
        "slice_sizes",
        "decimals",
        "precision",
    }
)
_ALL = 99
# Array functions that take traced values, with how many leading positional arguments may be traced (the
# rest are shapes, axes, counts). A fix makes a static parameter traced only where it goes into one of
# these: a list of what is known to work, so that an API missing here keeps the parameter static.
TRACED_POSITIONS = {
    **dict.fromkeys(_MASKS, _ALL),
    **dict.fromkeys(
        (
            "where",
            "clip",
            "maximum",
            "minimum",
            "add",
            "subtract",
            "multiply",
            "divide",
            "true_divide",
            "power",
            "exp",
            "exp2",
            "log",
            "log1p",
            "log2",
            "log10",
            "expm1",
            "sqrt",
            "cbrt",
            "square",
            "abs",
            "absolute",
            "sign",
            "sin",
            "cos",
            "tan",
            "tanh",
            "sinh",
            "cosh",
            "arctan",
            "arctan2",
            "arcsin",
            "arccos",
            "floor",
            "ceil",
            "dot",
            "matmul",
            "outer",
            "inner",
            "vdot",
            "cross",
            "logaddexp",
            "hypot",
            "negative",
            "reciprocal",
            "mod",
            "remainder",
            "fmod",
            "floor_divide",
            "interp",
            "polyval",
            "einsum",
            "select",
            "stop_gradient",
            "relu",
            "sigmoid",
            "softplus",
            "gelu",
            "silu",
            "erf",
            "gammaln",
            "real",
            "imag",
            "conj",
            "deg2rad",
            "rad2deg",
            "sinc",
            "heaviside",
            "float_power",
            "copysign",
            "dynamic_update_slice",
            "take",
            "take_along_axis",
            "roll",
        ),
        _ALL,
    ),
    **dict.fromkeys(
        (
            "sum",
            "mean",
            "prod",
            "max",
            "min",
            "amax",
            "amin",
            "std",
            "var",
            "norm",
            "asarray",
            "array",
            "zeros_like",
            "ones_like",
            "ravel",
            "squeeze",
            "transpose",
            "cumsum",
            "cumprod",
            "argmax",
            "argmin",
            "sort",
            "argsort",
            "any",
            "all",
            "flip",
            "tril",
            "triu",
            "diag",
            "softmax",
            "log_softmax",
            "logsumexp",
            "nan_to_num",
            "round",
            "atleast_1d",
            "stack",
            "concatenate",
            "count_nonzero",
            "inv",
            "det",
            "trace",
        ),
        1,
    ),
    "full_like": 2,
    "solve": 2,
    "tensordot": 2,
    "dynamic_slice": 2,
    # jax.random: a key made from a traced seed, data folded into a key, logits drawn from, a
    # sampler's key (its minval/maxval keywords too); the shapes, axes and counts stay static
    "uniform": 1,
    "normal": 1,
    "PRNGKey": 1,
    "key": 1,
    "fold_in": 2,
    "categorical": 2,
    "bernoulli": 2,
    "randint": 1,
    "truncated_normal": 3,
}
# jax.random draws whose bounds follow the shape (``randint(key, shape, minval, maxval)``): those
# positions take traced values too, the shape between them does not.
TRACED_BOUNDS = {"randint": frozenset({2, 3}), "uniform": frozenset({3, 4})}
# lax control flow: where the operands it runs its functions on are (a traced value works there; a
# function it is handed does not, nor does ``length``), and where its trailing operands start
# (``cond``'s and ``switch``'s, after the functions), by positional index; and their keywords.
LAX_OPERANDS: dict[str, tuple[tuple[int, ...], int | None]] = {
    "scan": ((1, 2), None),
    "while_loop": ((2,), None),
    "fori_loop": ((0, 1, 3), None),
    "map": ((1,), None),
    "cond": ((0,), 3),
    "switch": ((0,), 2),
}
_LAX_OPERAND_KEYWORDS = frozenset({"init", "xs", "init_val", "lower", "upper", "operand", "index"})


# Array methods whose arguments are all lengths or axes (``x.reshape(n_chunks, chunk_size)``).
SHAPING_METHODS = frozenset(
    {"reshape", "repeat", "swapaxes", "transpose", "squeeze", "expand_dims"}
)
# Builtins whose argument is a count or a Python value the trace is built from, never traced.
SETTING_BUILTINS = frozenset({"range", "int", "bool", "str"})


def sets_computation(canon: str, position: int | None, keyword: str | None) -> bool:
    """Whether the argument at ``position`` (or ``keyword``) of a call of ``canon`` is part of what
    the program traced is (a length, a shape, an axis, a count), not data it computes on: another
    value there is another program (``jnp.arange(n_chunks)``, ``jnp.zeros((n, 3))``), or the
    function a transform makes another of (``jax.grad(f)``: code, as a call of ``f`` is)."""
    if canon in SETTING_BUILTINS or (canon in _TRANSFORMS and position == 0):
        return True
    module, _, name = canon.rpartition(".")
    if not (module in _RANDOM_MODULES or module == "jax.image" or _array_module(module)):
        return False
    if keyword is not None:
        return keyword in STATIC_KEYWORDS
    sized = _sized_table(module).get(name)
    if sized is not None and position is not None:
        lengths = sized.kind in ("range", "dims") or position == sized.position
        return lengths or (sized.second is not None and position == (sized.position or 0) + 1)
    shaped = _SHAPED_BY_ARGUMENT.get(name)
    return shaped is not None and position == shaped[1]


def accepts_traced(function: str, position: int | None, keyword: str | None) -> bool:
    """Whether the array API ``function`` (its last dotted part) takes a traced value as the argument
    at ``position`` (or as ``keyword``)."""
    if function in LAX_OPERANDS:
        positions, rest = LAX_OPERANDS[function]
        if keyword is not None:
            return keyword in _LAX_OPERAND_KEYWORDS
        return position in positions or (
            rest is not None and position is not None and position >= rest
        )
    if keyword is not None:
        return function in TRACED_POSITIONS and keyword not in STATIC_KEYWORDS
    if position in TRACED_BOUNDS.get(function, ()):
        return True
    return position is not None and position < TRACED_POSITIONS.get(function, 0)
