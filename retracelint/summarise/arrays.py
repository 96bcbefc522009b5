"""Calls of numpy and jax.numpy that make or reshape arrays, with the lengths of their axes."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from retracelint.model import Location
from retracelint.summarise.abstract import _args_vsrc, _dtype_sources, _never_none, _shapes_of
from retracelint.summarise.apis import (
    _ARRAY_PRODUCTS,
    _DATA_DEPENDENT,
    _DTYPE_FROM_DTYPES,
    _DTYPE_FROM_VALUE,
    _DTYPE_POSITION,
    _DTYPES,
    _ELEMENTWISE,
    _FROM_LIST,
    _GENERATORS,
    _GROWERS,
    _JOINS,
    _KEEP_WEAK,
    _KEEPS_FLOOR,
    _KEY_MAKERS,
    _LIST_RESIZE,
    _MADE_STRONG,
    _MASKS,
    _NOT_ARRAYS,
    _NUMPY_RANDOM,
    _NUMPY_RANDOM_DTYPES,
    _NUMPY_SCALAR_TYPES,
    _RANDOM_DTYPE_POSITION,
    _RANDOM_MODULES,
    _REDUCTIONS,
    _ROWS_SOLVED,
    _SHAPED_BY_ARGUMENT,
    _TAKES_PART,
    _VALUE_OPERANDS,
    _WEAK_FROM_SCALAR,
    AXES_MOVED,
    KEEPS_OPERAND_DTYPE,
    MAKES_INEXACT,
    ONE_VALUE_OF,
    ORDER_STATISTICS,
    PROMOTES_NUMBERS,
    QUADRATURE_RULES,
    ROWS_KEPT,
    Resized,
    _array_dtype,
    _dtype_name,
    _numpy_module,
    _reduced_axes,
    _scalar_drawn,
    _sized_table,
    interpolated_dtype,
    keeps_rank,
)
from retracelint.summarise.promotion import promoted_floor, real_floor
from retracelint.summarise.sizes import (
    EACH,
    EVERY,
    LEADING,
    _add,
    _atoms_in,
    _common_lengths,
    _length_atom,
    _length_read,
    _mul,
    _pad_widths,
    _poly,
    _RangeLoop,
    _size_argument,
)
from retracelint.summarise.state import PassState
from retracelint.summarise.syntax import _argument, _clip, _definition, _is_display
from retracelint.values import (
    ARRAY,
    ARRAYS,
    AXISLESS,
    CHOSEN_ANEW,
    DTYPE,
    EMPTY,
    FLOAT,
    FOLLOWS,
    INT,
    JIT_OUT_WEAK,
    KIND_CODES,
    LIST,
    MADE_STRONG,
    MADE_WEAK,
    MAYBE_WEAK,
    NO_AXES,
    NP_ARRAY,
    NP_SCALAR,
    RNG,
    SCALARS,
    TUPLE,
    UNHASHABLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    WEAK,
    Chunking,
    Dims,
    ItemSrc,
    Length,
    ParamShapeSrc,
    Poly,
    Src,
    Taint,
    Value,
    array_made,
    combine,
    constant_length,
    data_array,
    dtype_taken,
    followed,
    joined_value,
    never_none,
    poly_constant,
    reduced,
    returned_sources,
    rows_of,
    shape_sources,
    shapeless,
    stacked_value,
    trailing_sources,
    unaligned,
    weak_class,
)

if TYPE_CHECKING:
    from retracelint.summarise.apis import _Sized
    from retracelint.summarise.sizes import Atoms

# An array of one axis whose length is not known here (``jnp.linspace(a, b, cfg.points)``).
_ONE_AXIS = Dims((None,), ranked=True)


# The kind flips an array made with a dtype given no longer carries: its weak type always, its
# dtype where the dtype is known here.
_WEAK_CODES = frozenset({"RTL401", MAYBE_WEAK})


def _typed(value: Value, named: bool) -> Value:
    """An array made with a dtype given (``jnp.asarray([t, dp], dtype=jnp.float32)``): strongly
    typed, of that dtype, whatever its operands were, so a weak-type flip of an operand (a Python
    float on one branch, an array on another) does not reach what it is passed to."""
    dropped = _WEAK_CODES | {"RTL402"} if named else _WEAK_CODES
    kept = frozenset(t for t in value.shape if t.code not in dropped)
    return value if len(kept) == len(value.shape) else value.with_(shape=kept)


class Arrays(PassState):
    """Calls of numpy and jax.numpy that make or reshape arrays, with the lengths of their axes."""

    def array_call(
        self,
        node: ast.Call,
        module: str,
        name: str,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        value = self.array_shape(node, module, name, args, kwargs)
        if value.ty in (ARRAY, NP_ARRAY, NP_SCALAR) or (
            value.ty == TUPLE and name in ("nonzero", "where")
        ):
            positions = _RANDOM_DTYPE_POSITION if module == "jax.random" else _DTYPE_POSITION
            given = _argument(node, "dtype", positions.get(name))
            numpy = _numpy_module(module)
            named = self.dtype_given(given)
            # A dtype given but not known here (``p.dtype``) is that dtype, not the default.
            unknown = given is not None and named is None
            dtype = None if unknown else _array_dtype(node, name, args, named, numpy)
            # A dtype passed on from an argument was decided where that argument was made.
            kept = (m for a in args if (m := array_made(a)) is not None and a.dtype == dtype)
            made = next(kept, None) or (self.loc(node) if dtype is not None else None)
            if given is None and not numpy and _WEAK_FROM_SCALAR.get(name) == len(args):
                if args[0].ty in (INT, FLOAT):
                    # jnp.asarray(0.0): a weakly typed array, as the Python scalar was.
                    return value.with_(ty=JIT_OUT_WEAK, dtype=None, made=self.loc(node))
                if args[0].ty not in (LIST, TUPLE):
                    # jnp.asarray(x): as weakly typed as x is, decided here when x is.
                    weak = followed([args[0]])
                    if weak == MADE_STRONG:
                        value = value.with_(weak=weak)  # x's dtype, and surely strong
                    elif weak is not None:
                        return value.with_(weak=weak, dtype=None, made=self.loc(node))
            if given is None and not numpy and name in _KEEP_WEAK and value.ty == ARRAY:
                positions = _VALUE_OPERANDS.get(name, range(len(args)))
                operands = [args[i] for i in positions if i < len(args)]
                if name in _ARRAY_PRODUCTS:
                    operands = [data_array(operand) for operand in operands]
                # jnp.exp(0.5) is weakly typed
                weak = followed(operands)
                if weak == FOLLOWS and name in _VALUE_OPERANDS and _all_weak(operands):
                    # where(inside(n), 1.0, 0.0): weak whatever the condition (a project call's
                    # result, among the array's dependencies) is.
                    weak = MADE_WEAK
                value = value.with_(weak=weak)
            elif value.ty == ARRAY and (
                given is not None or name in _MADE_STRONG or module in _RANDOM_MODULES
            ):
                value = value.with_(weak=MADE_STRONG)  # a dtype, a reduction, a random draw
            if given is not None:
                value = _typed(value, named is not None)
            # Promoted with a strongly typed operand, at least as wide (``Value.floor``).
            floor = (
                self.least_dtype(node, name, args)
                if given is None and (name in _KEEPS_FLOOR or name in MAKES_INEXACT)
                else None
            )
            floor = real_floor(floor) if name in _TAKES_PART else floor
            # A part of an operand of unknown dtype, or computed from one (``jnp.abs(z) ** 2``).
            parted = any(a.parted for a in args) or (name in _TAKES_PART and dtype is None)
            value = value.with_(dtype=dtype, made=made, floor=floor, parted=parted)
            if given is None and dtype is None and not numpy:
                value = _dtype_of_item(value, name, args, self.loc(node))
            value = self.dtype_followed(value, node, given)
            value = self.dtype_chosen(value, node, given)
            return _numpy_scalar(value, name, args) if numpy else value
        return value

    def least_dtype(
        self, node: ast.Call, name: str, args: list[Value]
    ) -> tuple[str, Location] | None:
        """``Value.floor`` of what array function ``name`` computes of ``args``: at least as wide as
        each strongly typed operand, a float of Python floats it promotes and of whatever a
        function that makes floats is given (``jnp.where(c, x, 0.5)``, ``jnp.mean(counts)``)."""
        at = self.loc(node) if name in PROMOTES_NUMBERS or name in MAKES_INEXACT else None
        operands = [args[i] for i in _VALUE_OPERANDS.get(name, range(len(args))) if i < len(args)]
        return promoted_floor(operands, at, name in MAKES_INEXACT)

    def repeats_per_item(self, node: ast.Call, name: str) -> bool:
        """``repeat(x, counts)`` with an array of counts: as long as the counts add up to, which
        the data decides (``total_repeat_length=`` fixes it)."""
        if name != "repeat" or "total_repeat_length" in {k.arg for k in node.keywords}:
            return False
        repeats = _argument(node, "repeats", 1)
        return repeats is not None and self.quiet(repeats).ty in (ARRAY, NP_ARRAY, LIST)

    def dtype_given(self, node: ast.AST | None) -> str | None:
        """The dtype an argument names: ``np.int16``, ``"float32"``, a name bound to a dtype."""
        if node is None:
            return None
        named = _dtype_name(node)
        if named is not None:
            return named
        value = self.quiet(node)
        return value.dtype if value.ty == DTYPE else None

    def dtype_followed(self, value: Value, node: ast.Call, given: ast.AST | None) -> Value:
        """``value``, made by ``node`` with the dtype of another value (``given``: ``p.dtype``) that
        is not known here: the dtype is read where that value is (``Value.dtype_of``), and is
        decided here."""
        if value.dtype is not None or given is None:
            return value
        named = self.quiet(given)
        if named.param is not None and named.ty == UNKNOWN:
            # A dtype parameter (``jnp.zeros(shape, dtype)``): what the callers pass, or its default.
            return value.with_(dtype_of=dtype_taken(named), made=self.loc(node))
        if named.ty != DTYPE or named.dtype_of is None:
            return value
        return value.with_(dtype_of=named.dtype_of, made=self.loc(node))

    def dtype_chosen(self, value: Value, node: ast.Call, given: ast.AST | None) -> Value:
        """``value``, made by ``node`` with the dtype ``given``: a dtype that changes between calls
        (``astype(np.min_scalar_type(n))``, a dtype picked by a condition) changes the array's."""
        if given is None:
            return value
        chosen = self.quiet(given)
        if not chosen.vsrc:
            return value
        call, chooser = self.mod.pos.text(node), self.mod.pos.text(given)
        what = f"the dtype of {call}{'' if chooser in call else f' ({chooser})'} is {CHOSEN_ANEW}"
        taint = Taint("RTL402", what, self.loc(node), chosen.vsrc)
        return value.with_(shape=value.shape | {taint})

    def draw(
        self, node: ast.Call, method: str, args: list[Value], kwargs: dict[str | None, Value]
    ) -> Value:
        """A NumPy random draw (``np.random.normal(...)``, ``rng.integers(...)``): ``size`` draws."""
        sized = _NUMPY_RANDOM[method]
        given = _argument(node, "dtype", None)
        dtype = self.dtype_given(given) or _NUMPY_RANDOM_DTYPES.get(method, "float64")
        # Each draw is new: its value (a count drawn to size something, above all) differs per
        # iteration, or per call of the function that draws it.
        drawn = self.context_src()
        if _one_draw(node, sized):
            # No size: one Python (or NumPy) scalar, hashable, so a static argument that is new
            # whenever it is drawn, not an array.
            return Value(ty=_scalar_drawn(dtype), vsrc=_args_vsrc(args, kwargs) | drawn)
        value = self.construct(node, NP_ARRAY, sized, args, kwargs)
        value = value.with_(vsrc=value.vsrc | drawn)
        return self.dtype_chosen(value.with_(dtype=dtype), node, given)

    def array_shape(
        self,
        node: ast.Call,
        module: str,
        name: str,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        is_np = _numpy_module(module)
        ty = NP_ARRAY if is_np else ARRAY
        table = _sized_table(module)
        if table is _NUMPY_RANDOM and name in table:
            return self.draw(node, name, args, kwargs)
        if name in table:
            return self.construct(node, ty, table[name], args, kwargs)
        if module.startswith("numpy.polynomial") and name in QUADRATURE_RULES:
            rule = self.construct(node, ty, QUADRATURE_RULES[name], args, kwargs)
            return Value(ty=TUPLE, items=(rule, rule), vsrc=rule.vsrc)
        if module == "numpy.random" and name in _GENERATORS:
            return Value(ty=RNG, vsrc=_args_vsrc(args, kwargs))
        if name in ("zeros_like", "ones_like", "empty_like", "full_like"):
            if not args:
                return Value(ty=ty)
            # Of its operand's dtype unless one is given, read where that is known
            # (``Value.dtype_of``), as ``astype``'s.
            given = "dtype" in kwargs or len(args) > (2 if name == "full_like" else 1)
            taken = None if given else args[0].dtype_of or dtype_taken(args[0])
            return args[0].with_(ty=ty, items=(), dtype_of=taken)
        if (
            name in _DATA_DEPENDENT
            or (name == "where" and len(node.args) == 1 and not node.keywords)
            or self.repeats_per_item(node, name)
        ):
            if "size" in kwargs:
                return Value(ty=ty, vsrc=_args_vsrc(args, kwargs))
            sources = _args_vsrc(args, kwargs) | frozenset().union(
                *(shape_sources(a) for a in args)
            )
            made = TUPLE if name in ("nonzero", "where") else ty
            # The count it finds is the first axis (of each index array), unless an axis is given.
            along = None if "axis" in kwargs or (name == "compress" and len(node.args) > 2) else 0
            if sources:
                what = self.mod.pos.text(node)
                taint = Taint("RTL104", what, self.loc(node), sources, along)
                return Value(ty=made, vsrc=sources, shape=frozenset({taint}))
            return Value(ty=made)
        if name == "repeat" and args:
            repeated = self.repeated(node, ty, args[0])
            if repeated is not None:
                return repeated
        if name == "array_split":
            along = None if len(node.args) > 2 or "axis" in kwargs else 0
            chunking = self.pieces(node) if along == 0 else None
            if chunking is not None and not chunking.reads and chunking.full({}):
                return Value(ty=LIST)  # as many rows in each piece, in sizes known here
            taint = Taint(
                "RTL103",
                f"{self.mod.pos.text(node)} (uneven pieces)",
                self.loc(node),
                frozenset({ItemSrc()}),
                along,
                chunking,
                pieces=along == 0,
            )
            return Value(ty=LIST, shape=frozenset({taint}))
        if name == "reshape" and len(node.args) >= 2:
            return self.reshape(node, args[0], args[1:], node.args[1:], ty)
        if name == "pad" and len(node.args) >= 2:
            return self.pad(node, ty, args)
        if name in _REDUCTIONS:
            keep = "axis" in kwargs or len(node.args) > 1
            if keep and args:
                args = [reduced(args[0], _reduced_axes(node, name, given=1)), *args[1:]]
            scalar = not keep and not keeps_rank(node)
            made = ONE_VALUE_OF.get(ty, ty) if scalar else ty
            return combine(args, ty=made, keep_shape=keep).with_(dims=NO_AXES if scalar else None)
        if name in ORDER_STATISTICS and args:
            return self.order_statistic(node, ty, args, kwargs)
        if name in _ROWS_SOLVED:
            return combine(args, ty=ty, keep_shape=False)
        if name in _JOINS:
            joined = self.join(node, name, ty, args)
            if joined is not None:
                return joined
        if name in ("array", "asarray") and args and not _is_display(node.args[0]):
            # An array made from an array (or from a list, one row per item) keeps its axes.
            made = args[0]
            value = Value(
                ty=ty,
                vsrc=_args_vsrc(args, kwargs),
                shape=_never_none(_one_kind(made.shape)),
                deps=frozenset(map(never_none, made.deps)),
                dims=made.dims,
            )
            return self.from_list(node, made, value)
        if name in _FROM_LIST:
            joined = combine([*args, *kwargs.values()], ty=ty)
            shape = _never_none(_one_kind(joined.shape))
            dims = _numbers_written_out(name, node, args) or joined.dims
            return joined.with_(
                items=(), shape=shape, deps=frozenset(map(never_none, joined.deps)), dims=dims
            )
        if name in _GROWERS:
            return combine([*args, *kwargs.values()], ty=ty).with_(items=())
        if name in ("where", "maximum", "minimum", "dot", "matmul", "einsum", "outer", "kron"):
            return combine(args, ty=ty)
        if name in _DTYPE_FROM_VALUE:
            given = self.dtype_given(node.args[0]) if name == "dtype" and node.args else None
            return Value(ty=DTYPE, vsrc=_args_vsrc(args, kwargs), dtype=given)
        if name in _DTYPE_FROM_DTYPES:
            return Value(ty=DTYPE, vsrc=_dtype_sources(args))
        if module == "jax.random" and name in _KEY_MAKERS:
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs))
        if name in _NOT_ARRAYS or name[:1].isupper():
            # Shapes, dtypes, predicates and classes: values about arrays, not arrays.
            ty = TUPLE if name == "shape" else UNKNOWN
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs) | _shapes_of(args))
        if name in _MASKS:
            # A bool array, its dtype decided here (a carried number given back as one is told here).
            mask = combine(args, ty="mask") if args else Value(ty="mask")
            return mask.with_(dtype="bool", made=self.loc(node))
        if name in AXES_MOVED and args:
            return unaligned(args[0]).with_(ty=ty, items=())
        if name in _SHAPED_BY_ARGUMENT and args:
            size = _size_argument(node, args, kwargs, *_SHAPED_BY_ARGUMENT[name])
            return self.sized_by(node, size, combine(args, ty=ty))
        if name in _ELEMENTWISE and args and all(a.ty in SCALARS for a in args[1:]):
            # One array, element by element (a scalar or two beside it): each axis stays.
            return combine(args, ty=ty, aligned=True).with_(dims=args[0].dims)
        # Elementwise and other array functions: the result has the shape of the inputs.
        return combine(args, ty=ty) if args else Value(ty=ty)

    def order_statistic(
        self, node: ast.Call, ty: str, args: list[Value], kwargs: dict[str | None, Value]
    ) -> Value:
        """``quantile(a, q)``: q's shape, then a's axes left by reducing over ``axis``; over the
        whole of a by default, whose lengths then reach no axis of the result (its values do)."""
        points = args[1] if len(args) > 1 else kwargs.get("q", UNKNOWN_VALUE)
        if _argument(node, "axis", 2) is None:
            data = args[0].with_(shape=EMPTY, deps=frozenset(map(shapeless, args[0].deps)))
            dims = points.dims
        else:
            data, dims = reduced(args[0], _reduced_axes(node, "quantile", given=2)), None
        return combine([data, points], ty=ty).with_(dims=dims)

    def pieces(self, node: ast.Call) -> Chunking | None:
        """When ``array_split(x, n)`` cuts pieces of one length: ``len(x)`` a multiple of ``n``, as
        the chunks of ``range(0, len(x), step)`` are all full when the span is one of the step
        (``Chunking``: sizes known here, or read where the callers make them). None: ``n`` is not
        a count (a list of split points), or the sizes are nothing a chunking reads."""
        sections = _argument(node, "indices_or_sections", 1)
        if not node.args or sections is None or isinstance(sections, ast.List | ast.Tuple):
            return None
        whole = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[node.args[0]], keywords=[])
        return self.chunking(_RangeLoop("", None, ast.copy_location(whole, node), sections))

    def sized_by(self, node: ast.Call, size: Value, value: Value) -> Value:
        """``value``, an array whose lengths ``node`` takes from ``size``: what changes the size
        changes its shape."""
        varies = size.vsrc | returned_sources(size)
        if not varies:
            return value
        taint = Taint("RTL105", self.mod.pos.text(node), self.loc(node), varies)
        return value.with_(shape=value.shape | {taint})

    def resized_to(
        self, node: ast.Call, resize: Resized, args: list[Value], kwargs: dict[str | None, Value]
    ) -> Value:
        """``cv2.resize(crop, (64, 64))`` and the like (``apis.RESIZES``): as large as the size it
        is given, whatever the input's size was; scaled (no size) it keeps the input's shape."""
        written = _argument(node, resize.keyword, resize.position)
        if written is None or (isinstance(written, ast.Constant) and written.value is None):
            return combine(args, ty=resize.ty)  # ``dsize=None`` or left out: scaled by factors
        size = _size_argument(node, args, kwargs, resize.keyword, resize.position)
        image = args[0]
        kept = Value(
            ty=resize.ty,
            vsrc=image.vsrc | size.vsrc,
            # The batch axis, when the function keeps it: only how many images there are.
            shape=frozenset(t for t in image.shape if resize.batch and t.axis == 0),
            deps=frozenset(rows_of(d) for d in image.deps) if resize.batch else EMPTY,
        )
        return self.sized_by(node, size, self.resized_dtype(node, resize, image, kept))

    def resized_dtype(self, node: ast.Call, resize: Resized, image: Value, value: Value) -> Value:
        """``value``, what resizing ``image`` makes, with the dtype the resize gives it: the
        image's, or a float an interpolation makes of integers (``apis._TO_INEXACT``), as strongly
        typed as the image (``jax.image.resize`` of a float32 noise field is float32)."""
        if not (resize.keeps or resize.interpolates) or image.dtype is None:
            return value
        dtype = interpolated_dtype(node, resize.interpolates or "", image.dtype)
        made = array_made(image) if dtype == image.dtype else self.loc(node)
        return value.with_(dtype=dtype, made=made, weak=image.weak)

    def from_list(self, node: ast.Call, made: Value, value: Value) -> Value:
        """An array made from a Python list whose length is known here and changes (an item of a
        literal list of lists of different lengths): the array made is the one that changes size."""
        length = made.dims.length(0) if made.ty in (LIST, TUPLE) and made.dims else None
        if length is None or not length.sources:
            return value
        taint = Taint("RTL105", self.mod.pos.text(node), self.loc(node), EMPTY)
        return self.with_length(value, 0, length, frozenset(dict(length.atoms)), taint)

    def reshape(
        self, node: ast.Call, base: Value, dims: list[Value], written: list[ast.expr], ty: str
    ) -> Value:
        lens = self.reshaped_lengths(written)
        base = unaligned(base)
        axis = None
        free = [k for k, length in enumerate(lens or ()) if length is None]
        if lens is not None and free:
            # One axis takes what is left (-1): when the others are fixed, what changed the base's
            # size changes that axis alone.
            if not any(length is not None and length.sources for length in lens):
                axis = free[0]
                shape = frozenset(replace(t, axis=axis) for t in base.shape)
                base = base.with_(shape=shape, dims=Dims(tuple(lens), ranked=True))
        elif lens is not None:
            # Every length is given: an array of another size would not reshape at all, so what
            # changed the base's size changes the given lengths that vary, and only as far as it
            # changes them: what changes the callers' arrays alone no longer reaches (a batch
            # padded to its size in a helper, then split per device).
            varying = [k for k, length in enumerate(lens) if length.sources]  # type: ignore[union-attr]
            if not varying:
                return Value(ty=ty, vsrc=base.vsrc, dims=Dims(tuple(lens), ranked=True))
            axis = varying[0] if len(varying) == 1 else None
            given = frozenset().union(*(lens[k].sources for k in varying))  # type: ignore[union-attr]
            base = base.with_(
                shape=frozenset(_within_lengths(base.shape, given, axis)),
                deps=frozenset(map(shapeless, base.deps)),
                dims=Dims(tuple(lens), ranked=True),
            )
        sources = frozenset().union(*(d.vsrc for d in dims))
        if sources:
            taint = Taint("RTL105", self.mod.pos.text(node), self.loc(node), sources, axis)
            return base.with_(ty=ty, shape=base.shape | {taint}, items=())
        return base.with_(ty=ty, items=())

    def reshaped_lengths(self, written: list[ast.expr]) -> list[Length | None] | None:
        """The lengths a reshape gives, when each is written out as an int: None for the one that
        is -1 (what is left), and no list when more than one is."""
        if len(written) == 1 and isinstance(written[0], ast.Tuple | ast.List):
            written = written[0].elts
        if not written or any(isinstance(e, ast.Starred) or not self.int_like(e) for e in written):
            return None
        polys = [self.size_poly(e) for e in written]
        if sum(poly_constant(poly) == -1 for poly, _ in polys) > 1:
            return None
        return [
            None if poly_constant(poly) == -1 else self.length(poly, atoms) for poly, atoms in polys
        ]

    # -- arrays of a known length: constructors, padding, joins ----------------------------------------
    def construct(
        self,
        node: ast.Call,
        ty: str,
        sized: _Sized,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        if sized.or_array:
            given = _argument(node, sized.keyword, sized.position)
            if given is not None and not self.int_like(given, surely=True):
                kept = (
                    args[sized.position]
                    if sized.position is not None and len(args) > sized.position
                    else None
                )
                return kept.with_(ty=ty, items=()) if kept is not None else Value(ty=ty)
        lens = self.made_lengths(node, sized, args, kwargs)
        tail = self.shape_tail(node, sized) if lens is None else None
        if tail is not None:
            return self.with_tail(node, ty, tail, args, kwargs)
        given = _argument(node, sized.keyword, sized.position)
        if lens is None and isinstance(given, ast.Attribute) and given.attr == "shape":
            # `zeros(x.shape)`: x's shape, as `zeros_like(x)` has it (`self.h =
            # jnp.zeros(self.h.shape)` keeps the attribute's shape), in its own dtype.
            like = self.quiet(given.value)
            return Value(
                ty=ty,
                vsrc=_args_vsrc(args, kwargs),
                shape=like.shape,
                deps=like.deps,
                dims=like.dims,
            )
        if lens is None:  # a shape we cannot read axis by axis (a tuple in a variable)
            size = _size_argument(node, args, kwargs, sized.keyword, sized.position)
            varies = size.vsrc | returned_sources(size)
            # A count of points (or a range) not known here is still the length of the one axis.
            one_axis = sized.kind in ("count", "range")
            dims = _ONE_AXIS if one_axis else None
            if varies:
                what, where = self.mod.pos.text(node), self.loc(node)
                taint = Taint("RTL105", what, where, varies, 0 if one_axis else None)
                return Value(ty=ty, vsrc=size.vsrc, shape=frozenset({taint}), dims=dims)
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs), dims=dims)
        dims = Dims(tuple(lens), ranked=True)
        varying = [axis for axis, length in enumerate(lens) if length.sources]
        if not varying:
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs), dims=dims)
        sources = frozenset().union(*(lens[axis].sources for axis in varying))
        # An axis as long as a chunk (`zeros((len(batch), d))`) changes where the chunk does, at
        # the last one, and the chunk's own taint tells it.
        chunks = {
            a: c for a in varying if (c := self.as_long_as_chunk(lens[a].poly, dict(lens[a].atoms)))
        }
        shape = {replace(chunk, axis=a) for a, chunk in chunks.items()}
        # A taint per axis: each changes with its own length (a batch's rows, a padded width).
        what, where = self.mod.pos.text(node), self.loc(node)
        shape |= {
            Taint("RTL105", what, where, lens[a].sources, a) for a in varying if a not in chunks
        }
        # Its values change with every argument too (``linspace(start, stop, n)``): what a static
        # tuple made of them (``tuple(float(t) for t in ...)``) hashes.
        vsrc = sources | _args_vsrc(args, kwargs)
        return Value(ty=ty, vsrc=vsrc, shape=frozenset(shape), dims=dims)

    def shape_tail(
        self, node: ast.Call, sized: _Sized
    ) -> tuple[list[Length], frozenset[Src]] | None:
        """``zeros((fill, *x.shape[1:]))``: the lengths of the leading axes, and what changes the
        axes of ``x`` from the first one the tail reads on."""
        arg = _argument(node, sized.keyword, sized.position)
        if sized.kind != "shape" or not isinstance(arg, ast.Tuple | ast.List) or not arg.elts:
            return None
        *lead, last = arg.elts
        if any(isinstance(e, ast.Starred) for e in lead) or not isinstance(last, ast.Starred):
            return None
        tail = last.value
        if not (
            isinstance(tail, ast.Subscript)
            and isinstance(tail.value, ast.Attribute)
            and tail.value.attr == "shape"
            and isinstance(tail.slice, ast.Slice)
            and tail.slice.upper is None
            and tail.slice.step is None
            and isinstance(tail.slice.lower, ast.Constant)
            and type(tail.slice.lower.value) is int
        ):
            return None
        first = tail.slice.lower.value
        lens = [self.length(*self.size_poly(e)) for e in lead]
        return lens, trailing_sources(self.quiet(tail.value.value), first)

    def with_tail(
        self,
        node: ast.Call,
        ty: str,
        tail: tuple[list[Length], frozenset[Src]],
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> Value:
        """An array of the shape ``shape_tail`` reads: its leading lengths known, its rank not."""
        lens, trailing = tail
        dims = Dims(tuple(lens), ranked=False)
        leading = frozenset().union(*(length.sources for length in lens))
        if not leading | trailing:
            return Value(ty=ty, vsrc=_args_vsrc(args, kwargs), dims=dims)
        what, where = self.mod.pos.text(node), self.loc(node)
        # A taint per leading axis that changes, one for the rest: padding the first axis back to a
        # fixed length leaves what changes the others.
        taints = {
            Taint("RTL105", what, where, length.sources, axis)
            for axis, length in enumerate(lens)
            if length.sources
        }
        if trailing:
            taints.add(Taint("RTL105", what, where, trailing, None))
        return Value(ty=ty, vsrc=leading | trailing, shape=frozenset(taints), dims=dims)

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

    def int_like(self, node: ast.AST, surely: bool = False) -> bool:
        """Whether a size argument is one int (not a tuple of them): an int, arithmetic, a length.
        ``surely``: not a parameter or loop variable of unknown type either."""
        value = self.quiet(node)
        if value.ty == INT:
            return True
        if value.ty in (TUPLE, LIST) or value.items:
            return False
        if isinstance(node, ast.Name) and node.id not in self.defs and not surely:
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
        by = poly_constant(stride)
        if by is not None and by > 0 and all(v % by == 0 for v in width.values()):
            return self.length({k: v // by for k, v in width.items()}, atoms)
        # Rounded up, or a step that is not a literal: an atom of its own, changing with its parts.
        sources = self.varying(width, atoms) | self.varying(stride, atoms)  # both: they may cancel
        name = f"arange@{node.lineno}:{node.col_offset}"
        return Length.of({(name,): 1}, {name: sources})

    def repeated(self, node: ast.Call, ty: str, base: Value) -> Value | None:
        """``repeat(x, n, axis=k)`` with a count: axis ``k`` is ``n`` times as long as ``x``'s (the
        last row repeated to top a batch up, ``repeat(arr[-1:], size - len(arr), axis=0)``). None
        without an axis written as a literal (the array is flattened)."""
        count = _argument(node, "repeats", 1)
        given = _argument(node, "axis", 2)
        if count is None or not isinstance(given, ast.Constant) or type(given.value) is not int:
            return None
        axis = given.value
        if axis < 0:
            return None
        atoms: Atoms = {}
        whole = self.length_of(node.args[0], base, axis, atoms)
        times = self.poly(count, atoms)
        length = self.length(_mul(whole, times), atoms)
        made = Taint("RTL105", self.mod.pos.text(node), self.loc(node), EMPTY)
        own = frozenset(_atoms_in(times) - _atoms_in(whole))
        return self.with_length(base.with_(ty=ty, items=(), ref=None), axis, length, own, made)

    def pad(self, node: ast.Call, ty: str, args: list[Value]) -> Value:
        """``pad(x, widths)``: each axis as long as before plus its widths."""
        base, widths = args[0], args[1]
        value = base.with_(ty=ty, items=(), ref=None)
        parsed = _pad_widths(_definition(node.args[1], self.defs))
        if parsed is not None:
            pairs, cover = parsed
            rank = len(base.dims.lens) if base.dims is not None and base.dims.ranked else None
            if cover == EVERY and rank is not None:
                pairs = pairs * rank
            # One pair for every axis of an array of unknown rank: taken as a 1-D array's, as
            # `np.pad(seg, (0, n - len(seg)))` nearly always is (a 2-D one is padded per axis).
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
                    length = self.length(_padded_alike(_add(whole, added, 1), atoms), atoms)
                    value = self.with_length(value, axis, length, own, made)
                assert value.dims is not None
                if cover == LEADING:  # the other axes as they were
                    return value
                ranked = cover == EACH or rank is not None
                return value.with_(dims=Dims(value.dims.lens[: len(pairs)], ranked))
        if widths.vsrc:  # widths we cannot read axis by axis
            taint = Taint("RTL105", f"{self.mod.pos.text(node)}", self.loc(node), widths.vsrc)
            return value.with_(shape=value.shape | {taint}, dims=None)
        return value.with_(dims=None)

    def join(self, node: ast.Call, name: str, ty: str, args: list[Value]) -> Value | None:
        """``concatenate``, ``stack``, ``hstack``... of a list display: the lengths along the axis add
        up (or the parts count, on a new axis). None when the parts or the axis cannot be read."""
        parts = node.args[0] if node.args else None
        if parts is not None and not isinstance(parts, ast.List | ast.Tuple | ast.Starred):
            return self.joined_list(node, name, ty, args[0])
        if not isinstance(parts, ast.List | ast.Tuple) or not parts.elts:
            return None
        if any(isinstance(e, ast.Starred) for e in parts.elts):
            return None
        values = list(args[0].items)
        if len(values) != len(parts.elts):
            values = [self.quiet(e) for e in parts.elts]
        # The parts of a join have one rank: one part whose rank is known tells it.
        ranks = {len(v.dims.lens) for v in values if v.dims is not None and v.dims.ranked}
        rank = ranks.pop() if len(ranks) == 1 else None
        (kind, axis), one_d = _JOINS[name]
        # ``vstack`` of parts whose rank is not known here: rows joined, or (1-D parts, all one
        # length) stacked as rows. Either way its lengths are fixed when the rows add up to a fixed
        # total (``vstack((kept[pick], new[draw]))`` of ``k`` and ``cap - k`` rows); else unknown.
        rows_of_unknown_rank = rank is None and one_d == ("new", 0)
        if one_d is not None:
            if rank is None and not rows_of_unknown_rank:
                return None
            if rank == 1:
                kind, axis = one_d
        if name in ("concatenate", "stack"):
            given = _argument(node, "axis", 1)
            if given is not None:
                literal = poly_constant(_poly(given, {}))
                if literal is None or not isinstance(given, ast.Constant | ast.UnaryOp):
                    return None
                axis = int(literal)
        if axis < 0:
            if rank is None:
                return None
            axis += rank + (1 if kind == "new" else 0)
            if axis < 0:  # more axes named than the parts are known to have: JAX raises there
                return None
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
        wrapped = self.wrap_length(parts.elts, atoms) if axis == 0 else None
        pieces: set[str] = set()
        for element, part in zip(parts.elts, values, strict=True) if wrapped is None else ():
            piece = self.length_of(element, part, axis, atoms)
            pieces |= _atoms_in(piece)
            total = _add(total, piece, 1)
        total = wrapped if wrapped is not None else total
        total = _padded_alike(total, atoms)
        length = self.length(total, atoms)
        if rows_of_unknown_rank:
            complements = _atoms_in(total) < pieces  # `k` and `cap - k` rows: `k` is gone
            return self.with_length(value, axis, length).with_(dims=None) if complements else None
        lens += (None,) * ((rank or 0) - len(lens))
        value = value.with_(dims=Dims(lens, rank is not None))
        return self.with_length(value, axis, length)

    def joined_list(self, node: ast.Call, name: str, ty: str, parts: Value) -> Value | None:
        """``concatenate(xs)`` of a list that is no display, along axis 0: the result's first axis
        changes with the number of items and their first axis, its other axes are the items'. So
        its axes are the list's, as written (what changes an item's axis ``k`` names ``k``); any
        other join of such a list is not known axis by axis."""
        given = _argument(node, "axis", 1)
        axis = given.value if given is not None and isinstance(given, ast.Constant) else 0
        if name not in ("concatenate", "stack") or not isinstance(axis, int) or axis < 0:
            return None
        if axis and (name != "stack" or parts.ty in ARRAYS):
            return None
        value = combine([parts], ty=ty, aligned=True)
        if parts.ty in ARRAYS:  # the rows of an array: its axes, though no longer one by one
            return value if name == "concatenate" else unaligned(value)
        if axis:  # a stack along a later axis: the items' count is that axis
            return stacked_value(value, axis)
        joined = joined_value(value, 1 if name == "stack" else 0)
        count = parts.dims.length(0) if name == "stack" and parts.dims is not None else None
        # Stacked, as many rows as the list has items (`np.stack(images[start:end])`).
        return joined if count is None else joined.with_(dims=Dims((count,)))

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
        resized = self.with_length(current, 0, self.length(new, atoms), own, made)
        # Its items as they are now: one more after ``append``, none known after anything else.
        appended = func.attr == "append" and current.items and len(args) == 1
        return resized.with_(items=(*current.items, args[0]) if appended else ())


def _within_lengths(
    shape: frozenset[Taint], given: frozenset[Src], axis: int | None
) -> Iterator[Taint]:
    """The taints of an array reshaped to lengths that change with ``given`` (on ``axis``, when
    one alone changes): its kind's, and its shape's as far as they change those lengths."""
    for taint in shape:
        if taint.code in KIND_CODES:
            yield taint
        elif kept := taint.sources & given:
            yield replace(taint, sources=kept, axis=axis if axis is not None else taint.axis)


def _one_draw(node: ast.Call, sized: _Sized) -> bool:
    """Whether a NumPy random call draws one scalar: no ``size`` (or ``size=None``), no dimensions
    for ``rand()``; a call with ``*args`` or ``**kwargs`` may pass one."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
        k.arg is None for k in node.keywords
    ):
        return False
    if sized.kind == "dims":
        return not node.args
    size = _argument(node, sized.keyword, sized.position)
    return size is None or (isinstance(size, ast.Constant) and size.value is None)


def _one_kind(shape: frozenset[Taint]) -> frozenset[Taint]:
    """The taints of an array made from a list's items (``np.array([x, 0.0])``, ``jnp.stack``): it
    has one dtype and one weak type whatever each item's, so items of different kinds
    (``Expressions.odd_item``) no longer change a signature."""
    return frozenset(t for t in shape if t.code not in KIND_CODES or ItemSrc() not in t.sources)


def _padded_alike(total: Poly, atoms: Atoms) -> Poly:
    """The length of a join or pad that fills one parameter up by what another one lacks
    (``concatenate([positions, zeros((size - len(charges), 3))])``, ``pad(positions, (0, size -
    len(charges)))``): the two are taken as equally long, as code that pads both to one ``size``
    means them to be, and the result is ``size`` long. Only lengths of whole parameters along one
    axis cancel, one against one."""
    own = [m for m, c in total.items() if c == 1 and len(m) == 1 and _parameter_length(atoms, m[0])]
    lacking = [
        m for m, c in total.items() if c == -1 and len(m) == 1 and _parameter_length(atoms, m[0])
    ]
    if len(own) != 1 or len(lacking) != 1 or len(total) < 3:
        return total
    return {m: c for m, c in total.items() if m not in (own[0], lacking[0])}


def _parameter_length(atoms: Atoms, name: str) -> bool:
    """Whether atom ``name`` is the length of one parameter along one axis, and nothing else."""
    sources = atoms.get(name)
    return (
        isinstance(sources, frozenset)
        and len(sources) == 1
        and all(isinstance(s, ParamShapeSrc) and s.axis is not None for s in sources)
    )


def _numpy_scalar(value: Value, name: str, args: list[Value]) -> Value:
    """``np.float32(0.5)``, ``np.timedelta64(1, "s")``: a scalar type called on scalars makes a NumPy
    scalar, hashable (of an array, ``np.float32(x)`` is an array)."""
    scalar_type = name in _NUMPY_SCALAR_TYPES or name in _DTYPES
    if scalar_type and all(a.ty not in UNHASHABLE and a.ty != TUPLE for a in args):
        return value.with_(ty=NP_SCALAR)
    return value


def _dtype_of_item(value: Value, name: str, args: list[Value], where: Location) -> Value:
    """``jnp.array([total])`` of one array whose dtype is not known here (a helper's result), or
    ``jnp.take(self.table, ids)`` of one (``KEEPS_OPERAND_DTYPE``): the dtype of that array, read
    where it is made (``Value.dtype_of``), and decided here."""
    at = KEEPS_OPERAND_DTYPE.get(name)
    if at is not None and at < len(args):
        item = args[at]
    elif name in ("array", "asarray") and len(args) == 1 and len(args[0].items) == 1:
        (item,) = args[0].items
    else:
        return value
    taken = dtype_taken(item) if item.ty not in SCALARS else None
    return value.with_(dtype_of=taken, made=where) if taken is not None else value


def _all_weak(values: list[Value]) -> bool:
    return bool(values) and all(weak_class(v) == WEAK for v in values)


def _numbers_written_out(name: str, node: ast.Call, args: list[Value]) -> Dims | None:
    """``jnp.array([1, 2])``: a list or tuple of numbers written out is one axis as long as it
    (another length is another shape, so another trace whatever the dtypes)."""
    written = node.args[0] if node.args else None
    if name not in ROWS_KEPT or not isinstance(written, ast.List | ast.Tuple) or not args:
        return None
    items = args[0].items
    if len(items) != len(written.elts) or any(isinstance(e, ast.Starred) for e in written.elts):
        return None
    if not all(item.ty in AXISLESS for item in items):
        return None
    return Dims((constant_length(len(items)),), ranked=True)
