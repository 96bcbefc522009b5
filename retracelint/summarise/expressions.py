"""Expressions and their abstract values: names, attributes, displays, comprehensions, arithmetic,
subscripts and slices (with their lengths), iteration."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.summarise.abstract import (
    _element,
    _kind_flip,
    _never_none,
    _not_none,
    _plain,
    _unpacked,
    _weak_alternatives,
    _written_number,
)
from retracelint.summarise.apis import _DICT_VIEWS, ONE_VALUE_OF, _arith_dtype, int_arithmetic
from retracelint.summarise.promotion import Typed, float_either, promoted_floor, result_type
from retracelint.summarise.sizes import (
    _END,
    _NO_DIMS,
    _add,
    _atoms_in,
    _ceil_like,
    _checked_multiple,
    _counted,
    _cut,
    _end_guarded,
    _full_chunks,
    _length_atom,
    _length_read,
    _LengthReads,
    _min_call,
    _mul,
    _poly,
    _positions,
    _RangeLoop,
    _substitute,
    _tests_remainder,
)
from retracelint.summarise.spans import slice_bounds
from retracelint.summarise.state import PassState, handler_of
from retracelint.summarise.syntax import (
    _BIG_DISPLAY,
    _DISPLAYS,
    _OBJECT_VALUE,
    _SAME_VALUE,
    _clip,
    _definition,
    _dotted,
    _is_constant_data,
    _kind_operand,
    _memo_attribute,
    _none_compared,
    _same_items,
    _same_literals,
)
from retracelint.values import (
    _TYPE_CODES,
    ARRAY,
    ARRAYS,
    BOOL,
    CHOSEN_ANEW,
    CLASS,
    COMPLEX,
    DICT,
    EMPTY,
    FLOAT,
    FLOAT_LIKE,
    FOLLOWS,
    FUNCTION,
    INSTANCE,
    INT,
    ITEM,
    JIT,
    JIT_OUT,
    JIT_OUT_WEAK,
    LAMBDA,
    LIST,
    MADE_STRONG,
    MADE_WEAK,
    MAYBE_MASK,
    MAYBE_WEAK,
    NONE,
    NP_ARRAY,
    NP_SCALAR,
    PARAM_REF,
    PARTIAL,
    SCALARS,
    SET,
    SPREAD,
    STR,
    TRANSFORM,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    UNSURE,
    ChoiceSrc,
    Chunking,
    Dep,
    Dims,
    FieldDep,
    ItemSrc,
    IterDep,
    Length,
    LoopSrc,
    Made,
    ParamDep,
    Poly,
    RetDep,
    RetSrc,
    Src,
    Taint,
    Terms,
    Value,
    array_made,
    axis_sources,
    collected,
    combine,
    constant_length,
    constant_value,
    entry,
    followed,
    int_and_float,
    join,
    keyed_item,
    kind_sources,
    lengths_differ,
    made_objects,
    no_axes,
    one_item,
    picked,
    placed,
    poly_constant,
    returned_sources,
    rows_of,
    shape_sources,
    shapeless,
    shared_fields,
    typed_item,
    unaligned,
    unaligned_dep,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from retracelint.summarise.sizes import Atoms
    from retracelint.summary import Param

# What a closure's free variable may be, beyond the functions it holds.
_FUNCTION_TYPES = frozenset({FUNCTION, CLASS, JIT, LAMBDA, PARTIAL, TRANSFORM})


def _made_apart(container: Value) -> bool:
    """Whether a container holds the results of several calls and nothing else: a display of
    calls (``[Adam(1e-3), Sgd(0.1)]``), one object per call site."""
    calls = {d.call for d in container.deps if isinstance(d, RetDep)}
    return len(calls) > 1 and len(calls) == len(container.deps)


def _subscript_refs(base: Value, index: ast.AST) -> frozenset:
    """The functions ``base[index]`` may be: the item at a literal key or index (a negative one
    counted from the end of a display of known length), the items of a slice with literal bounds,
    or any item at a key computed (``handlers[name]``, ``layers[i]``)."""
    if isinstance(index, ast.Slice):
        lower = 0 if index.lower is None else _literal_int(index.lower)
        upper = None if index.upper is None else _literal_int(index.upper)
        known = lower is not None and (index.upper is None or upper is not None)
        if not known or index.step is not None or lower < 0 or (upper or 0) < 0:  # type: ignore[operator]
            return EMPTY
        return funcrefs.sliced(base.refs, lower, upper)  # type: ignore[arg-type]
    position = _literal_int(index)
    if position is not None:
        if position < 0 and base.items:
            position += len(base.items)
        return funcrefs.element(base.refs, str(position))
    if isinstance(index, ast.Constant):
        return funcrefs.element(base.refs, repr(index.value))
    return funcrefs.element(base.refs, funcrefs.KEY)


def _terms(poly: Poly, scope: str) -> Terms:
    """A polynomial as a ``Chunking`` keeps it, its atoms named in ``scope`` (a function's prefix)."""
    return tuple(
        sorted(
            (tuple(scope + atom for atom in monomial), value) for monomial, value in poly.items()
        )
    )


def _size_reads(
    state: PassState,
    names: set[str],
    atoms: Atoms,
    reads: _LengthReads,
    scope: str,
    found: list[tuple[str, str, Value, int | None]],
    derived: list[tuple[str, Terms, Terms]],
) -> bool:
    """Adds to ``found`` where each atom in ``names`` (of a polynomial read in ``state``, named in
    ``scope``) is made (an int or a length of a parameter, or of an attribute of one: read where the
    callers make it), and to ``derived`` how the others are computed from those, each after what it
    is computed from: ``a // b``, or a closure's free variable as the enclosing function that binds
    it computes it (as bound where the nested function is defined: the enclosing walk is there).
    False: some atom is none of these."""
    for name in sorted(names):
        atom = atoms.get(name)
        if any(item[0] == scope + name for item in (*found, *derived)):
            continue  # read already: an atom that two others are computed from
        if name in _module_constants(state):
            # A module-level int (`ROLLOUT // MINIBATCH`, `np.arange(ROLLOUT)`): known as it is.
            derived.append((scope + name, (((), _module_constants(state)[name]),), (((), 1),)))
            continue
        if name in reads.lengths:
            value, axis = reads.lengths[name]
        elif isinstance(atom, ast.BinOp) and isinstance(atom.op, ast.FloorDiv):
            numerator = _poly(atom.left, atoms, state.defs, reader=reads)
            denominator = _poly(atom.right, atoms, state.defs, reader=reads)
            inner = _atoms_in(numerator) | _atoms_in(denominator)
            if not _size_reads(state, inner, atoms, reads, scope, found, derived):
                return False
            derived.append((scope + name, _terms(numerator, scope), _terms(denominator, scope)))
            continue
        elif isinstance(atom, ast.Name) and atom.id not in state.env:
            outer = state.enclosing
            while outer is not None and not outer.module_level and atom.id not in outer.env:
                outer = outer.enclosing
            if outer is None or outer.module_level:
                return False
            outer_atoms: Atoms = {}
            outer_reads = _LengthReads(outer, outer.quiet)
            poly = _poly(ast.Name(id=atom.id), outer_atoms, outer.defs, reader=outer_reads)
            outer_scope = f"{outer.fn.qualname}:"
            if not _size_reads(
                outer, _atoms_in(poly), outer_atoms, outer_reads, outer_scope, found, derived
            ):
                return False
            derived.append((scope + name, _terms(poly, outer_scope), (((), 1),)))
            continue
        elif isinstance(atom, ast.AST):
            value, axis = state.quiet(atom), None
        else:
            return False
        if value.param is None and not value.objs:
            return False
        found.append((scope + name, state.fn.qualname, _plain(value), axis))
    return True


def _module_constants(state: PassState) -> dict[str, int]:
    """The module's ints bound once at top level (``BATCH = 32``) that ``state`` does not bind."""
    return {k: v for k, v in state.mod.summary.constants.items() if k not in state.env}


def _loop_changed(sources: Iterable[Src]) -> bool:
    return any(isinstance(s, LoopSrc) for s in sources)


def _known_sizes(state: PassState) -> dict[str, ast.AST]:
    """What the names of a size stand for: the local definitions, and the module's int constants
    (``BATCH = 4`` at top level) that ``state`` does not bind."""
    constants = {k: ast.Constant(v) for k, v in _module_constants(state).items()}
    return {**constants, **state.defs}


def _literal_key(index: ast.expr) -> bool:
    return isinstance(index, ast.Constant) and isinstance(index.value, str)


def _item_of_result(dep: Dep) -> Dep:
    """``dep`` as one item of it, when it is the whole of what a call returns."""
    if isinstance(dep, RetDep) and dep.elem is None and dep.item is None and not dep.each:
        return replace(dep, elem=ITEM, fixed=frozenset(), aligned=True)
    return dep


def _instances(items: tuple[Value, ...]) -> frozenset[Made]:
    """The objects an item of a display of instances may be (``[Probe(4.0), Probe(8.0)]``), each
    made by a call; none unless every item is such an object."""
    made = [made_objects(item) for item in items]
    return frozenset().union(*made) if made and all(made) else EMPTY


def _literal_int(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


_PLAIN_DATA = frozenset({INT, FLOAT, BOOL, STR, COMPLEX})


def _other_shape(a: Value, b: Value) -> int | bool | None:
    """Whether two arrays surely have different shapes: False when not; else the one axis whose
    constant length differs, or None (another rank, several axes)."""
    if a.ty not in ARRAYS or b.ty not in ARRAYS or a.dims is None or b.dims is None:
        return False
    if not (a.dims.ranked and b.dims.ranked):
        return False
    if len(a.dims.lens) != len(b.dims.lens):
        return None
    axes = [
        axis
        for axis, (x, y) in enumerate(zip(a.dims.lens, b.dims.lens, strict=True))
        if x is not None and y is not None and not x.sources and not y.sources and x != y
    ]
    return False if not axes else axes[0] if len(axes) == 1 else None


class Expressions(PassState):
    """Expressions and their abstract values: names, attributes, displays, comprehensions, arithmetic,"""

    # -- expressions --------------------------------------------------------------------------------
    def expr(self, node: ast.AST | None) -> Value:
        if node is None:
            return UNKNOWN_VALUE
        kind = type(node)
        handler = handler_of(type(self), kind, "e_")
        if handler is not None:
            value = handler(self, node)
            # A closure's call is what it gives, as written (``Calls.one_expression_of``).
            if self.one_expressions and isinstance(node, ast.Call):
                node = self.closure_made(node)  # type: ignore[attr-defined]  # Statements'
            # Only the parameter itself is the parameter: x[:n] or x.astype(...) is a new value.
            ref = value.ref
            if ref is not None and ref.startswith(PARAM_REF) and not isinstance(node, _SAME_VALUE):
                value = value.with_(ref=None)
            # Nor is x[0] or -x the object x (a call or an attribute says what object it makes).
            if value.objs and type(node) not in _OBJECT_VALUE:
                value = value.with_(objs=EMPTY, fields=())
            return value
        values = [
            self.expr(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
        ]
        return combine(values, keep_shape=False)

    def e_Constant(self, node: ast.Constant) -> Value:
        if type(node.value) is str:
            return _string(len(node.value))  # its length, for a list of strings of several
        return constant_value(node.value)

    def e_Name(self, node: ast.Name) -> Value:
        value = self.env.get(node.id)
        if value is not None:
            return value
        if self.enclosing is not None:
            outer = self.closure(node.id)
            if outer is not None:
                return outer
        return self.mod.global_views.get(node.id) or self.mod.global_value(node.id)

    def closure(self, name: str) -> Value | None:
        """A free variable bound in an enclosing function, when it is a function (or holds some),
        that function's ``self``, or an object of a known class or made by a call there (whose
        methods a closure calls and jits): what else it is, the nested function does not see."""
        enclosing, up = self.enclosing, 1
        while enclosing is not None:
            value = enclosing.env.get(name)
            if value is not None:
                if value.ref == "<self>":
                    # What the enclosing call set on it (``self.agent = PPOAgent(...)`` in
                    # ``__init__``, then ``def _env_step(...)``) was made before the nested
                    # function runs: per call of it, the same object. Its variation speaks of the
                    # enclosing call (its calls, loops, parameters, each call of it), not of this one.
                    fields = tuple((attr, _fixed_here(v, up)) for attr, v in value.fields)
                    return value.with_(fields=fields) if fields else value
                number = _number_kind(value, enclosing.fn.params)
                if number is not None:
                    # A Python number (``b1=0.9``, a closure's coefficient): of that kind, and
                    # fixed for each closure made; what it changes with is the enclosing call's.
                    return Value(ty=number)
                refs = value.refs
                instance = value.ty == INSTANCE and value.ref is not None and value.param is None
                made = frozenset(o for o in value.objs if isinstance(o, Made))
                if not refs and not instance and not made:
                    return None
                for _ in range(up):
                    refs = funcrefs.rescoped(refs, "up")
                if instance:
                    return Value(ty=INSTANCE, ref=value.ref, objs=made, callables=refs)
                return Value(
                    ty=value.ty if value.ty in _FUNCTION_TYPES else UNKNOWN,
                    objs=made,
                    callables=refs,
                )
            enclosing, up = enclosing.enclosing, up + 1
        return None

    def attribute_refs(self, base: Value, attr: str) -> frozenset:
        """The functions ``base.attr`` may be: a method read off ``self`` or off an instance of a known
        class, a name inside a module or class, a field set by keyword."""
        if base.ref == "<self>":
            return funcrefs.single(("self", "", attr))
        if base.ty == INSTANCE and base.ref and not base.param:
            method = funcrefs.single(("method", base.ref, attr))
            return funcrefs.union(method, funcrefs.element(base.callables, "." + attr, deep=()))
        if not base.callables:
            return EMPTY
        names = frozenset(
            ((), (callee[0], f"{callee[1]}.{attr}"))
            for path, callee in base.callables
            if not path and callee[0] in ("qual", "global") and len(callee) == 2
        )
        return funcrefs.union(names, funcrefs.element(base.callables, "." + attr, deep=()))

    def e_Lambda(self, node: ast.Lambda) -> Value:
        fn = self.mod.lambda_function(node, self)
        return Value(
            ty=LAMBDA,
            fresh=self.context_src(),
            callables=funcrefs.single(("qual", fn.qualname)),
        )

    def e_List(self, node: ast.List | ast.Tuple | ast.Set) -> Value:
        ty = {ast.List: LIST, ast.Tuple: TUPLE, ast.Set: SET}[type(node)]
        counted = ty != SET and not any(isinstance(e, ast.Starred) for e in node.elts)
        dims = _counted(len(node.elts)) if counted else None
        if len(node.elts) > _BIG_DISPLAY and all(map(_is_constant_data, node.elts)):
            # A data table: nothing in it varies, and walking it costs seconds.
            return Value(ty=ty, dims=dims)
        items = tuple(self.expr(element) for element in node.elts)
        value = combine(list(items), ty=ty)
        refs: frozenset = EMPTY
        for i, (item, element) in enumerate(zip(items, node.elts, strict=True)):
            if isinstance(element, ast.Starred) or ty == SET:
                break  # the positions after it are not known
            if item.callables or item.ref is not None:
                refs = funcrefs.union(refs, funcrefs.nested(item.refs, str(i)))
        # A list is a collection, its items meant alike (a tuple is a record, its fields are not).
        odd = self.odd_item(node, items) if ty == LIST else None
        if odd is not None:
            value = value.with_(shape=value.shape | {odd})
        return value.with_(items=items if len(items) <= 16 else (), dims=dims, callables=refs)

    def odd_item(self, node: ast.AST, items: tuple[Value, ...]) -> Taint | None:
        """A list display whose items are arrays of different shapes, or values of different kinds (an
        array and None, two dtypes): its elements change from one to the next."""
        first = items[0] if items else None
        if first is None or all(item.ty in _PLAIN_DATA for item in items):
            return None  # a list of numbers or strings is data, not a batch of inputs
        text = self.mod.pos.text(node)
        for item in items[1:]:
            if item.ty in (LIST, TUPLE) and item.ty == first.ty:
                continue  # lists of different lengths: the arrays made from them say so
            if (item.ty, item.dtype, item.keys, item.dims) == (
                first.ty,
                first.dtype,
                first.keys,
                first.dims,
            ):
                continue  # alike in every way a kind or a shape is read from
            flip = _kind_flip(first, item, self.mod.summary.x64)
            if flip is not None:
                code, first, then = flip
                what = f"the items of {text} are {first}, then {then},"
                return Taint(code, what, self.loc(node), frozenset({ItemSrc()}))
            other = _other_shape(first, item)
            if other is not False:
                what = f"an item of {text} (arrays of different shapes)"
                return Taint("RTL105", what, self.loc(node), frozenset({ItemSrc()}), other)
        return None

    e_Tuple = e_List

    e_Set = e_List

    def e_Dict(self, node: ast.Dict) -> Value:
        if len(node.values) > _BIG_DISPLAY and all(
            k is not None and _is_constant_data(k) and _is_constant_data(v)
            for k, v in zip(node.keys, node.values, strict=True)
        ):
            return Value(ty=DICT)
        values = [self.expr(k) for k in node.keys if k is not None]
        # A number written as an item decides that leaf's weak type here (`{"scale": 1.0}`).
        items = [
            placed(item, self.loc(v)) if _written_number(v, item := self.expr(v)) else item
            for v in node.values
        ]
        literal = all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys)
        keys = tuple(sorted(k.value for k in node.keys)) if literal else None  # type: ignore[union-attr]
        refs: frozenset = EMPTY
        entries: dict[str, Value] = {}
        for key, item in zip(node.keys, items, strict=True):
            if key is None:  # **other may replace any key before it
                refs = EMPTY
                entries = self.spread_into(entries, item)
            elif isinstance(key, ast.Constant):
                refs = funcrefs.stored(refs, (repr(key.value),), item.refs)
            if key is not None and not isinstance(key, ast.Constant):
                entries = {}  # a key not known may be any before it
            elif key is not None and isinstance(key.value, str):
                # `{**defaults, "lr": lr}`: whatever the other keys are, this one holds lr.
                entries[entry(key.value)] = item
        # A display of literal keys is where that structure is made (a flip of it is told there),
        # and so is one that adds literal keys to those it spreads (``{**info, "steps": n}``).
        value = combine(values + items, ty=DICT).with_(
            keys=keys,
            callables=refs,
            fields=tuple(sorted(entries.items())),
            made=self.loc(node) if keys is not None or entries else None,
        )
        # A key computed from what changes (`{site: trace}` per site) is a new pytree structure
        # each time it changes: jax keys its cache on a dict's keys.
        text = self.mod.pos.text
        keyed = [
            Taint("RTL403", f"dict {{{_clip(text(k))}: ...}} has a new key", self.loc(k), v.vsrc)
            for k, v in zip([k for k in node.keys if k is not None], values, strict=True)
            if not isinstance(k, ast.Constant) and v.vsrc
        ]
        return value.with_(shape=value.shape | frozenset(keyed)) if keyed else value

    def spread_into(self, entries: dict[str, Value], value: Value) -> dict[str, Value]:
        """The items of a dict known at literal keys (``entries``) once ``**value`` is spread over
        them: the function's own ``**kwargs`` parameter brings what each call passes (``SPREAD``);
        another dict its known items, over the earlier ones only when all its keys are known."""
        name = value.param
        if name is not None and any(p.name == name and p.kind == "kwarg" for p in self.fn.params):
            return {**entries, SPREAD: value}
        known = {n: v for n, v in value.fields if n.startswith("[")}
        if value.ty != DICT or value.keys is None:
            return known
        return {**entries, **{entry(k): known.get(entry(k), UNKNOWN_VALUE) for k in value.keys}}

    def e_ListComp(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
    ) -> Value:
        saved, saved_defs = dict(self.env), dict(self.defs)
        depth = len(self.loops)
        walked: list[Value] = []
        tests: list[Value] = []  # of the filters
        filtered = False
        counted = True  # every iterable walked holds a number of items known here
        text = self.mod.pos.text
        for comp in node.generators:
            # Each `for` of a comprehension is a loop: what the element calls runs once per item.
            iterable = self.expr(comp.iter)
            walked.append(iterable)
            counted = counted and self.counted_by_structure(comp.iter)
            index = self.new_loop(
                comp,
                f"for {text(comp.target)} in {text(comp.iter)}",
                self.mod.pos.span(comp.target, comp.iter),
                items=iterable,
            )
            self.note_range(index, comp.target, comp.iter)
            self.loops.append(index)
            self.bind(comp.target, self.item_of(iterable, index, comp.iter), None)
            for cond in comp.ifs:
                tests.append(self.expr(cond))
                filtered = True
        if isinstance(node, ast.DictComp):
            self.expr(node.key)
            element = self.expr(node.value)
        else:
            element = self.expr(node.elt)
        loops = frozenset(self.loops[depth:])
        del self.loops[depth:]
        self.env, self.defs = saved, saved_defs
        sources = [*walked, *tests]
        ty = {ast.ListComp: LIST, ast.SetComp: SET, ast.DictComp: DICT}.get(type(node), UNKNOWN)
        # What changes the iterables' shapes changes the result (its length); what changes from one
        # iteration to the next changes from one element to the next. How an iterable's items
        # differ from one another (``ItemSrc``) reaches an element only through the element
        # expression (``each``): ``[resize(c, (64, 64)) for c in crops]`` holds crops of one size.
        shape = {t.unlabelled() for v in tests for t in v.shape}
        shape |= {t.unlabelled() for v in walked for t in v.shape if ItemSrc() not in t.sources}
        each = collected(element, loops)
        shape |= {t if ItemSrc() in t.sources else t.unlabelled() for t in each.shape}
        dims = None
        if filtered:
            # As many items as pass the filter: a length of its own, which padding can fix. Items
            # of a count known here tested by what differs from item to item alone (the literal
            # keys of a dict, `if not key.endswith("_list")`) pass alike at every run.
            own = frozenset(LoopSrc(i) for i in loops)
            if counted:
                varies = frozenset().union(*(v.vsrc - own for v in tests))
                varies |= frozenset().union(*(self.count_sources(g.iter) for g in node.generators))
            else:
                varies = frozenset().union(*(v.vsrc for v in sources))
            if varies:
                shape.add(Taint("RTL104", "filtering comprehension", self.loc(node), varies, 0))
            atom = _length_atom(node, 0, self.defs, self)
            dims = Dims((Length.of({(atom,): 1}, {atom: varies}),)) if ty == LIST else None
        # As many items as a parameter walked has; a filter's may change anything.
        deps = {rows_of(d) for v in walked for d in v.deps if isinstance(d, ParamDep)}
        deps |= {unaligned_dep(d) for v in tests for d in v.deps if isinstance(d, ParamDep)}
        deps |= {unaligned_dep(d) for d in each.deps}
        # As many items as a call's result has (filtered: at most as many).
        deps |= {
            rows_of(d)
            for v in walked
            for d in v.deps
            if isinstance(d, RetDep) and not d.each and d.elem is None
        }
        value = Value(
            ty=ty,
            vsrc=frozenset().union(*(v.vsrc for v in sources)),
            shape=frozenset(shape),
            deps=frozenset(deps),
            dims=dims,
            elements=made_objects(element),
        )
        if ty != LIST or filtered or len(node.generators) > 1:
            return value
        return self.one_per_number(value, node, node.generators[0].iter)

    def counted_by_structure(self, iterable: ast.expr) -> bool:
        """Whether ``iterable`` is a view of a dict (``sens.items()``): as many items as the dict
        has keys, which change with its structure alone (``count_sources``)."""
        return (
            isinstance(iterable, ast.Call)
            and isinstance(iterable.func, ast.Attribute)
            and iterable.func.attr in _DICT_VIEWS
            and not iterable.args
            and self.quiet(iterable.func.value).ty in (DICT, UNKNOWN)
        )

    def count_sources(self, iterable: ast.expr) -> frozenset[Src]:
        """What changes the number of items of ``iterable``, a view of a dict: its keys."""
        assert isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute)
        return _keys_sources(self.quiet(iterable.func.value))

    def one_per_number(self, value: Value, node: ast.AST, walked: ast.expr) -> Value:
        """``value``, a list of one item per number of ``walked`` when it is ``range(...)``: as
        long as the range, made anew at each new length when a bound or the step changes
        (`[fold_in(key, t) for t in range(n)]`, `list(range(every, n, every))`), as `jnp.zeros(n)`
        is."""
        if (
            not isinstance(walked, ast.Call)
            or walked.keywords
            or self.mod.canonical(_dotted(walked.func) or "") != "range"
        ):
            return value
        counted = self.arange_length(walked)  # type: ignore[attr-defined]
        if counted is None:
            return value
        made = Taint("RTL105", _clip(self.mod.pos.text(node)), self.loc(node), EMPTY, 0)
        return self.with_length(value, 0, counted, frozenset(dict(counted.atoms)), made)

    e_SetComp = e_ListComp

    e_GeneratorExp = e_ListComp

    e_DictComp = e_ListComp

    def e_BinOp(self, node: ast.BinOp) -> Value:
        left, right = self.expr(node.left), self.expr(node.right)
        if _power_of_two_above(node) or _multiple_above(node):
            # One of a few sizes, as a table of buckets is: each traced once.
            return Value(ty=INT)
        return self.arith(left, right, node.op, (node.left, node.right), node)

    def arith(
        self,
        left: Value,
        right: Value,
        op: ast.operator,
        nodes: tuple[ast.AST, ast.AST] | None = None,
        whole: ast.AST | None = None,
    ) -> Value:
        left, right = _leaf_array(left), _leaf_array(right)
        if isinstance(op, ast.Div) and nodes is not None and _number_power(nodes[1]):
            # `h0 / 2 ** level`: a power of a Python number is one (an array exponent is rare).
            right = right.with_(ty=INT) if right.ty == UNKNOWN else right
        tys = {left.ty, right.ty}
        if isinstance(op, _LOGICAL) and "mask" in tys and tys <= {"mask", BOOL, UNKNOWN}:
            # `(e >= low) & (e < high)`: both tests at once, a mask as each is.
            return combine([left, right], ty="mask").with_(dtype="bool")
        value = self.arith_type(left, right, op, nodes[1] if nodes is not None else None)
        if value.ty in (FLOAT, FLOAT_LIKE) and value.shape:
            value = value.with_(shape=float_either((left, right), value.shape))
        # Arithmetic on None raises: what it gives is never None (``now - prev`` of a ``prev``
        # that starts as None runs only once it is set).
        if (
            value.shape
            and (kept := _never_none(value.shape, (left.shape, right.shape))) is not value.shape
        ):
            value = value.with_(shape=kept)
        at = self.loc(whole) if whole is not None else None
        if left.parted or right.parted:
            value = value.with_(parted=True)
        if value.ty == ARRAY and (
            _bools_with_a_number(left, right) or _ints_with_a_float_like(left, right, nodes)
        ):
            # `1 - done` of a bool mask: a weakly typed int (a float with 1.0), of no dtype here;
            # `jnp.arange(n) * d` of an n or a d of unknown kind: weak if ints times a Python float.
            return value.with_(dtype=None, made=None, weak=UNSURE, floor=None)
        if value.ty == ARRAY:
            dtype = _arith_dtype(left, right, isinstance(op, ast.Div))
            made = next(
                (m for v in (left, right) if v.dtype == dtype and (m := array_made(v))), None
            )
            if made is None and dtype is not None and isinstance(op, ast.Div) and whole:
                made = self.loc(whole)  # integers made floats by the division: decided here
            # A Python float operand or true division makes integers floats (``fuel - 2.5 *
            # thrust``, ``counts / n``): a float whatever precision the arrays give.
            floor = (
                promoted_floor((left, right), at, isinstance(op, ast.Div))
                if dtype is None
                else None
            )
            if _lands_weak(left, right):
                # Decided here: the weak type, and the default dtype of the number's kind.
                return value.with_(
                    dtype=dtype, made=self.loc(whole) if whole else None, weak=MADE_WEAK
                )
            taken = _dtype_kept(left, right, op) if dtype is None else None
            if taken is not None:
                return value.with_(dtype_of=taken, made=made)
            return value.with_(dtype=dtype, made=made, floor=floor)
        # `xs[start:] + xs[:end - n]` of a sequence of unknown kind: a list's window that wraps
        # around its end (arrays of those lengths would not add).
        wraps = nodes is not None and _tail_and_head(nodes) is not None
        if wraps:  # joined end to end: the parts' first axes make the whole's
            value = value.with_(shape=combine([left, right], aligned=True).shape)
        if value.ty == UNKNOWN and not wraps:
            return value.with_(floor=promoted_floor((left, right), at, isinstance(op, ast.Div)))
        if value.ty in (LIST, TUPLE, UNKNOWN) and nodes is not None:
            dims = self.sequence_dims(left, right, op, nodes)
            length = dims.length(0) if dims is not None else None
            if length is None:
                return value
            # Topped up to a fixed length (``rows + [pad] * (size - len(rows))``): what changed
            # the parts' lengths no longer changes it. ``[pad] * n`` is made anew at each new
            # ``n``, as ``np.zeros(n)`` is: padding to the longest of a batch changes with it.
            if not isinstance(op, ast.Mult) or whole is None:
                return self.with_length(value, 0, length)
            count = nodes[1] if left.ty in (LIST, TUPLE) else nodes[0]
            made = Taint("RTL105", _clip(self.mod.pos.text(whole)), self.loc(whole), EMPTY)
            own = frozenset(_atoms_in(self.poly(count, {})))
            return self.with_length(value, 0, length, own, made)
        return value

    def sequence_dims(
        self, left: Value, right: Value, op: ast.operator, nodes: tuple[ast.AST, ast.AST]
    ) -> Dims | None:
        """The length of ``a + b`` and ``[x] * n`` for lists and tuples."""
        atoms: Atoms = {}
        wrapped = self.wrap_length(nodes, atoms) if isinstance(op, ast.Add) else None
        if wrapped is not None:
            total = wrapped
        elif isinstance(op, ast.Add):
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

    def arith_type(
        self, left: Value, right: Value, op: ast.operator, right_node: ast.AST | None = None
    ) -> Value:
        tys = {left.ty, right.ty}
        sequences = {LIST, TUPLE}
        # Python's kinds of numbers (``apis.INT_ARITHMETIC``): a float operand, true division
        # and a negative power make a float of ints.
        of_ints = int_arithmetic(op, right_node)
        floats = FLOAT in tys or of_ints == FLOAT
        if tys & {ARRAY, NP_ARRAY, NP_SCALAR, "mask", JIT_OUT}:
            ty = ARRAY
        elif tys & {JIT_OUT_WEAK} and tys <= {INT, FLOAT, BOOL, JIT_OUT_WEAK}:
            ty = JIT_OUT_WEAK  # weak stays weak: arithmetic with Python scalars
        elif floats and tys <= {INT, FLOAT, BOOL}:
            ty = FLOAT
        elif INT in tys and tys <= {INT, BOOL} and of_ints == INT:
            ty = INT
        elif (tys & {FLOAT_LIKE} or floats) and tys <= {
            INT,
            FLOAT,
            BOOL,
            FLOAT_LIKE,
            UNKNOWN,
        }:
            # `base_lr * 0.95 ** epoch` with an unannotated base_lr, `self.h0 / 2**level`, `a / b`
            # (true division makes a float of ints too): most likely a float.
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
        # With a Python scalar or a 0-d array (``p / p.sum()``), or joining sequences, each axis
        # stays where it was.
        scalar = [v.ty in SCALARS or no_axes(v) for v in (left, right)]
        aligned = ty in sequences or any(scalar)
        value = combine([left, right], ty=ty, aligned=aligned)
        if ty == ARRAY or (ty == UNKNOWN and MADE_STRONG in (left.weak, right.weak)):
            value = value.with_(weak=followed([left, right]))
        if aligned and ty == ARRAY:
            return value.with_(dims=left.dims if not scalar[0] else right.dims)
        return value

    def e_UnaryOp(self, node: ast.UnaryOp) -> Value:
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            return operand.with_(ty=BOOL, items=())
        # -x is as weakly typed as x: a parameter's sign flipped is still what its callers pass.
        weak = FOLLOWS if operand.ty == UNKNOWN and operand.param is not None else operand.weak
        return operand.with_(items=(), weak=weak)

    def e_BoolOp(self, node: ast.BoolOp) -> Value:
        values = [self.expr(node.values[0])]
        # `self.step_fn or self.build()`: what follows runs only while the attribute is unset, as
        # under `if self.step_fn is None:` (``Frequency`` asks whether the object then holds it).
        memo = _memo_attribute(node)
        outer = self.unset
        self.unset = memo or outer
        try:
            values += [self.expr(v) for v in node.values[1:]]
        finally:
            self.unset = outer
        out = values[0]
        for value in values[1:]:
            out = join(out, value)
        return out

    def e_Compare(self, node: ast.Compare) -> Value:
        values = [self.expr(node.left), *(self.expr(c) for c in node.comparators)]
        kind = self.kind_tested(node, values[0])
        if kind is not None:
            return kind
        out = combine(values, keep_shape=False)
        scalars = {INT, FLOAT, BOOL, STR, NONE, COMPLEX}
        if all(v.ty in scalars for v in values):
            return out.with_(ty=BOOL)
        return out.with_(ty="mask", dtype="bool")

    def kind_tested(self, test: ast.expr, operand: Value) -> Value | None:
        """The truth of a test of a value's kind (``x is None``, ``isinstance(k, list)``: the
        ``operand`` given), which changes when the kind does, not the value: a float passed at
        every turn of a loop over floats takes the same branch at each. A name this function has
        not bound (a module's) is read as a whole."""
        tested = _kind_operand(test)
        if tested is None or (isinstance(tested, ast.Name) and tested.id not in self.env):
            return None
        return Value(ty=BOOL, vsrc=kind_sources(operand))

    def e_IfExp(self, node: ast.IfExp) -> Value:
        """Either branch's value; one picked by a condition that changes changes with it, and two of
        different kinds (``x if ready else None``) are two signatures."""
        test = self.expr(node.test)
        # A test that calls (`sim.in_contact()`) changes as what the call returns does.
        test = test.with_(vsrc=test.vsrc | returned_sources(test))
        body, orelse = self.expr(node.body), self.expr(node.orelse)
        # `init() if cache is None else cache`: the branch that passes the value on is never None
        compared = _none_compared(node.test)
        if compared is not None:
            kept = (node.body, node.orelse)[compared[1]]
            if ast.dump(kept) == ast.dump(compared[0]):
                body, orelse = (
                    (_not_none(body), orelse) if compared[1] == 0 else (body, _not_none(orelse))
                )
        value = join(body, orelse)
        if not test.vsrc:
            return value
        value = value.with_(vsrc=value.vsrc | test.vsrc)
        flip = _kind_flip(body, orelse, self.mod.summary.x64)
        if flip is None and (body.ty == NONE) != (orelse.ty == NONE):
            # `mask if ready else None`: what is written beside a None is meant to be something.
            flip = ("RTL403", *(("None", "not None") if body.ty == NONE else ("not None", "None")))
        text = self.mod.pos.text(node)
        sources = test.vsrc
        if flip is None:
            found = _weak_alternatives(
                self.fn.qualname, text, body, self.loc(node.body), orelse, self.loc(node.orelse)
            )
            if found is None:
                return value
            flip, sources = (MAYBE_WEAK, "{start}", "{then}"), sources | {found}
        code, first, then = flip
        what = f"{text} is {first} or {then}, {CHOSEN_ANEW}"
        numbers = code == "RTL402" and int_and_float([body, orelse])
        taint = Taint(code, what, self.loc(node), sources, numbers=numbers)
        return value.with_(shape=value.shape | {taint})

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
        poly = _poly(node, atoms, self.defs, reader=self)
        return self.spans_measured(poly, atoms) if self.chunk_spans else poly

    def spans_measured(self, poly: Poly, atoms: Atoms) -> Poly:
        """``poly`` with each clamped chunk's span written from its bounds (``stop - i``) read as
        the chunk's length atom (``chunk_spans``): ``bs - (stop - i)`` rows pad it to ``bs``."""
        for span, (name, sources) in self.chunk_spans.items():
            monomial, coefficient = next(iter(span))
            times = poly.get(monomial, 0) // coefficient
            if times and all(poly.get(m) == c * times for m, c in span):
                poly = _add(_add(poly, dict(span), -times), {(name,): 1}, times)
                atoms[name] = sources
        return poly

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
        atoms[name] = axis_sources(value, axis) | returned_sources(value, axis, shape=True)
        return {(name,): 1}

    def wrap_length(self, parts: Sequence[ast.AST], atoms: Atoms) -> Poly | None:
        """The length of a window that wraps around the end of a sequence, its tail ``x[a:]`` then
        its head ``x[:b]`` (``xs[start:] + xs[:end - n]``, ``concatenate([x[s:], x[:e - n]])``):
        ``len(x) - a + b``, where neither the sequence's length nor ``a`` is left in it (the head
        takes what the tail lacks of a fixed width). None for any other parts."""
        pair = _tail_and_head(parts)
        if pair is None:
            return None
        tail, head = pair
        whole = self.length_of(tail.value, self.quiet(tail.value), 0, atoms)
        lower = self.poly(tail.slice.lower, atoms)  # type: ignore[attr-defined]
        total = _add(_add(whole, lower, -1), self.poly(head.slice.upper, atoms), 1)  # type: ignore[attr-defined]
        return None if _atoms_in(total) & (_atoms_in(whole) | _atoms_in(lower)) else total

    def atom_sources(self, poly: Poly, atoms: Atoms) -> dict[str, frozenset[Src]]:
        """What makes each atom left in ``poly`` change."""
        out: dict[str, frozenset[Src]] = {}
        for name in _atoms_in(poly):
            atom = atoms.get(name)
            if isinstance(atom, frozenset):
                out[name] = atom
            elif atom is not None:
                value = self.quiet(atom)
                out[name] = value.vsrc | returned_sources(value)
            else:
                out[name] = EMPTY
        return out

    def length(self, poly: Poly, atoms: Atoms) -> Length:
        return Length.of(poly, self.atom_sources(poly, atoms))

    def range_length(self, node: ast.expr) -> Length | None:
        """How many numbers ``range(...)`` gives, when its step is 1; None for anything else."""
        if (
            not isinstance(node, ast.Call)
            or self.mod.canonical(_dotted(node.func) or "") != "range"
        ):
            return None
        if node.keywords or not 1 <= len(node.args) <= 3:
            return None
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if len(node.args) == 3 and poly_constant(_poly(node.args[2], {}, self.defs)) != 1:
            return None
        atoms: Atoms = {}
        start = node.args[0] if len(node.args) > 1 else None
        stop = node.args[1] if len(node.args) > 1 else node.args[0]
        return self.length(_add(self.poly(stop, atoms), self.poly(start, atoms), -1), atoms)

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
        if made is not None:
            # What a helper's result is guessed to change with (``fft_size(len(seg))`` with
            # ``seg``) is ``made``'s to carry: once the helper is known, its result says.
            left = frozenset().union(
                *(s for s in atoms.values() if not any(isinstance(x, RetSrc) for x in s))
            )
        shape: set[Taint] = set()
        covered: frozenset[Src] = EMPTY
        for taint in value.shape:
            if taint.axis != axis or ItemSrc() in taint.sources:  # an element's axes are its own
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
        deps = frozenset(_cut(dep, axis, atoms, left) for dep in value.deps)
        dims = (value.dims or _NO_DIMS).with_length(axis, length)
        if dims.ranked and all(known is not None for known in dims.lens):
            # Every axis's length is known: a change of the shape comes through one of them, and
            # what changed it before at no axis in particular no longer does (`concatenate([x,
            # zeros(n - len(x))])` of a 1-D x whose length is not known here).
            shape = {t for t in shape if t.axis is not None}
            deps = frozenset(map(shapeless, deps))
        return value.with_(shape=frozenset(shape), deps=deps, dims=dims)

    # -- subscripts: where slices change shapes ------------------------------------------------------
    def e_Subscript(self, node: ast.Subscript) -> Value:
        read = _length_read(node)
        if read is not None:  # x.shape[k]: an int, as varying as that axis
            array, axis = read
            return Value(ty=INT, vsrc=axis_sources(self.expr(array), axis))
        base = self.expr(node.value)
        key = node.slice.value if isinstance(node.slice, ast.Constant) else None
        item = entry(key) if isinstance(key, str) else None
        value = next((v for name, v in base.fields if name == item), None)
        if value is None:
            value = self.subscript(node, base)
            if item is not None and any(isinstance(d, RetDep) for d in value.deps):
                # `cfg = f(); cfg["n"]`: one item of what the call returns.
                deps = (replace(d, key=key) if isinstance(d, RetDep) else d for d in value.deps)
                value = value.with_(deps=frozenset(deps))
        refs = _subscript_refs(base, node.slice) if base.callables or base.param else EMPTY
        return value if value.callables is refs else value.with_(callables=refs)

    def subscript(self, node: ast.Subscript, base: Value) -> Value:
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        # Only plain slices keep the base's axes where they were (an index, None or ... moves them).
        basic = all(isinstance(part, ast.Slice) for part in parts)
        taints = set(base.shape)
        vsrc = set(base.vsrc)
        is_slice = False
        idx = UNKNOWN_VALUE
        cut: list[tuple[int, Length | None]] = []
        scalars: list[bool] = []  # per part: an int index, which takes its axis out
        for axis, part in enumerate(parts):
            if isinstance(part, ast.Slice):
                is_slice = True
                made, full = self.slice_taints(node, part, axis if basic else None)
                taints.update(made)
                for bound in (part.lower, part.upper, part.step):
                    vsrc |= self.expr(bound).vsrc
                if basic and (part.lower or part.upper or part.step):
                    length = (
                        self.slice_length(node, part, axis, base) or self.chunk_length(made) or full
                    )
                    cut.append((axis, length))
            else:
                idx = self.expr(part)
                scalars.append(_one_position(idx))
                vsrc |= idx.vsrc
                if base.ty not in (LIST, TUPLE, DICT):
                    # x[positions]: as many rows as the index has; of x's dtype and weak type
                    # whatever the index's (`pair[pick]`, `pick` a weak 0 or a NumPy int).
                    taints |= {t for t in idx.shape if t.code not in _TYPE_CODES}
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
                elif idx.ty == UNKNOWN and base.ty not in (LIST, TUPLE, DICT):
                    # `x[self.selection(field)]`: a mask if what the call returns is one.
                    results = frozenset(
                        RetSrc(d.call, d.item)
                        for d in idx.deps
                        if isinstance(d, RetDep) and d.elem is None
                    )
                    if results:
                        text = f"boolean mask {self.mod.pos.text(node)}"
                        taints.add(Taint(MAYBE_MASK, text, self.loc(node), results))
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
            element = _element(base)
            if _picks_items(index, idx) and not _shares_source(idx, base):
                element = element.with_(deps=frozenset(map(one_item, element.deps)))
            if not (base.vsrc or base.deps or _same_items(node.value)) or _made_apart(base):
                # A constant table, here or at module level (`STEPS[quality]`), or a display of
                # objects each made by a call of its own (`{"base": Config(16), "wide":
                # Config(64)}`): another item for another key. Of a container that comes from
                # elsewhere (a parameter, a call's result), the items may well be alike, and are
                # left as they were.
                element = element.with_(vsrc=element.vsrc | idx.vsrc)
            loop = next((i for i in reversed(self.loops) if LoopSrc(i) in idx.vsrc), None)
            if loop is None:
                return element
            # xs[i] in a loop over i: another element per iteration.
            one = picked(base, loop)
            return element.with_(shape=one.shape, deps=element.deps | one.deps)
        out = _taken_out(parts, scalars) if not basic else frozenset()
        # `frames[j, -1]`: what changes a length of the axes the ints take out is gone.
        taints = {t for t in taints if t.axis is None or t.axis not in out}
        value = base.with_(vsrc=frozenset(vsrc), shape=frozenset(taints), items=())
        if out and len(parts) > 1:
            # `bel[-1, :]` of a parameter: a tuple index makes it an array, whose rows all have one
            # shape, so the lengths of the axes taken out do not reach the row, in the callers'
            # terms too (even the newest row: of a list, `xs[-1]` alone, an item may differ).
            value = value.with_(deps=frozenset(_axes_taken_out(d, out) for d in value.deps))
        if parts and _picks_items(parts[0], idx) and not _shares_source(idx, base):
            # `pool[i]`, `pool[idx]`: as many items as the index says, however many the pool holds.
            value = value.with_(
                shape=frozenset(t for t in value.shape if not _count_change(t, base)),
                deps=frozenset(map(one_item, value.deps)),
            )
        if not is_slice and base.ty == UNKNOWN and not _literal_key(index):
            # `registry[name]` of what a project function returns: one of its items (a dict's value,
            # a list's element, an array's row), never the container itself. (At a literal key the
            # dependency keeps the key instead: `e_Subscript`.)
            value = value.with_(deps=frozenset(_item_of_result(d) for d in value.deps))
        if (
            base.param is not None
            and isinstance(index, ast.Constant)
            and isinstance(index.value, str)
        ):
            return keyed_item(unaligned(value), entry(index.value))
        if not is_slice and _positions(idx):
            # x[positions] with a 1-D integer array: as many rows as positions, the rest as x.
            atoms: Atoms = {}
            rows = self.length(self.length_of(index, idx, 0, atoms), atoms)
            return self.with_length(value, 0, rows)
        if not basic:
            moved = self.new_axes(value, parts, base)
            if len(parts) == 1 and _positions_like(idx) and base.ty not in (LIST, TUPLE, DICT):
                # `frames[ring]`: the index's axes lead the result, so what changes the index's
                # length changes the result's first axis (`frames[ring][k]`, one row, no longer).
                placed = {t for t in idx.shape if t.axis == 0}
                moved = moved.with_(shape=moved.shape - {t.unlabelled() for t in placed} | placed)
            if _every_axis_taken(base, parts, scalars):
                # `sizes[0]` of a 1-d NumPy array: a NumPy scalar, not an array.
                return moved.with_(ty=ONE_VALUE_OF.get(moved.ty, moved.ty))
            return moved
        for axis, length in cut:
            if length is not None:
                value = self.with_length(value, axis, length)
            elif value.dims is not None:
                value = value.with_(dims=value.dims.with_length(axis, None))
        return value

    def new_axes(self, value: Value, parts: list[ast.expr], base: Value) -> Value:
        """``x[None]`` (``x[None, :]``, ``x[None, ...]``): x with a new leading axis of length 1;
        any other index may move axes."""
        moved = unaligned(value)
        leading = isinstance(parts[0], ast.Constant) and parts[0].value is None
        rest_whole = all(
            (isinstance(p, ast.Slice) and p.lower is p.upper is p.step is None)
            or (isinstance(p, ast.Constant) and p.value is Ellipsis)
            for p in parts[1:]
        )
        if not (leading and rest_whole):
            return moved
        lens = base.dims.lens if base.dims is not None else ()
        ranked = base.dims is not None and base.dims.ranked
        return moved.with_(dims=Dims((constant_length(1), *lens), ranked))

    def slice_taints(
        self, node: ast.Subscript, part: ast.Slice, axis: int | None
    ) -> tuple[list[Taint], Length | None]:
        """What changes the slice's length; and its length when it is a chunk a range loop strides
        over whose chunks are all full (its width)."""
        atoms: Atoms = {}
        lower = self.poly(part.lower, atoms)
        clamp = _min_call(part.upper, self.defs)
        others: list[Poly] = []
        if clamp is not None:
            # x[i:min(i + bs, n)]: at most bs wide, shorter where n clamps it (the last chunk).
            widths = [_add(self.poly(a, atoms), lower, -1) for a in clamp.args]
            # The width that stays as the start moves: sharing none of the start's atoms that a
            # loop of here moves (`batch_size` of `b * batch_size` is as steady as `bs` beside
            # `i`); all of them where none is (a helper given its chunk's index).
            moving = {
                a for a, srcs in self.atom_sources(lower, atoms).items() if _loop_changed(srcs)
            } or _atoms_in(lower)
            steady = [w for w in widths if not _atoms_in(w) & (moving | {_END})]
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
        sources = self.kept_length(node, sources)
        out = []
        chunk = self.as_long_as_chunk(width, atoms) if sources else None
        if chunk is not None:
            out.append(chunk)
        elif sources:
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
            if clamp is not None and part.upper is not None:
                self.measured_by_bounds(ragged, _add(self.poly(part.upper, atoms), lower, -1))
        elif strided and clamp is None:
            return out, self.length(width, atoms)
        elif clamp is not None and not strided:
            clamped = frozenset().union(*(self.varying(w, atoms) for w in others))
            clamped = self.kept_length(node, clamped)
            if clamped:
                what = f"chunk {self.mod.pos.text(node)}"
                out.append(Taint("RTL103", what, self.loc(node), clamped, axis))
        return out, None

    def kept_length(self, node: ast.Subscript, sources: frozenset[Src]) -> frozenset[Src]:
        """What changes the length of slice ``node``, read along every path of the loops' body
        (``slice_bounds``): one width on all of them (a last batch moved back to keep it) leaves
        what changes that width. A path that floors the start at zero keeps it too where the end
        counts up from the width (``max(0, end - B)`` with ``end = i + B``), or adds what changes
        its own where no loop does (the whole array, shorter than the width). ``sources`` where
        the paths cannot be read or the widths differ, or no loop changes it."""
        if not _loop_changed(sources):
            return sources
        paths = slice_bounds(self.bodies.get(self.loops[0], []), node) if self.loops else None
        if not paths:
            return sources
        read = []
        for bounds in paths:
            atoms: Atoms = {}
            width = _add(
                _poly(bounds.upper, atoms, reader=self),
                _poly(bounds.lower, atoms, reader=self),
                -1,
            )
            read.append((bounds.floored, width, self.varying(width, atoms)))
        widths = {tuple(sorted(w.items())) for floored, w, _ in read if not floored}
        if len(widths) != 1:
            return sources
        steady = dict(next(iter(widths)))
        kept: frozenset[Src] = EMPTY
        for floored, width, changes in read:
            if floored and self.counts_up(_add(width, steady, -1)):
                continue
            kept |= changes
        return sources if _loop_changed(kept) else kept

    def counts_up(self, poly: Poly) -> bool:
        """Whether ``poly`` is a sum of the variables of range loops that start at zero or above,
        none negative: never below zero."""
        # A step that is not a literal is taken as positive: strides are (``range_over``).
        starts = {
            info.var: info.start
            for info in self.ranges.values()
            if (poly_constant(_poly(info.step, {})) or 1) > 0
        }
        return all(
            coefficient > 0
            and len(monomial) == 1
            and monomial[0] in starts
            and _at_least_zero(starts[monomial[0]])
            for monomial, coefficient in poly.items()
        )

    def as_long_as_chunk(self, width: Poly, atoms: Atoms) -> Taint | None:
        """The chunk a slice of ``width`` is as long as (``labels[: len(images_chunk)]``): it changes
        where the chunk does, at the last one, and the chunk's own taint tells it."""
        varying = [(a, s) for a, s in self.atom_sources(width, atoms).items() if s and a != _END]
        if len(varying) != 1:
            return None
        ((name, sources),) = varying
        chunk = self.chunks.get(name)
        # The same atom name from another walk (a closure's loop of the same index) is not this one.
        return chunk if chunk is not None and chunk.sources <= sources else None

    def measured_by_bounds(self, ragged: Taint, span: Poly) -> None:
        """Keep the span of a clamped chunk as written from its bounds (``chunk_spans``)."""
        length = _chunk_length([ragged])
        if length is not None and span:
            ((name, sources),) = length.atoms
            self.chunk_spans[frozenset(span.items())] = (name, sources)
            self.chunks.setdefault(name, ragged)

    def chunk_length(self, taints: list[Taint]) -> Length | None:
        """``_chunk_length``, and the chunk its atom stands for kept (``as_long_as_chunk``)."""
        length = _chunk_length(taints)
        if length is not None:
            ((name, _),) = length.atoms
            self.chunks.setdefault(name, next(t for t in taints if t.code == "RTL103"))
        return length

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
                if (
                    self.one_chunk(info)
                    or _full_chunks(info.stop, info.step, self.defs, self.bound_once)
                    or (
                        poly_constant(_poly(info.start, {})) == 0
                        and _checked_multiple(self.body, info.stop, info.step, self.defs)
                    )
                    or _end_guarded(self.bodies.get(index, []), node, info, self.defs)
                ):
                    return True, None
                chunking = self.chunking(info)
                if chunking is not None and not chunking.reads:
                    if chunking.full({}):
                        return True, None
                    chunking = None  # short whoever calls
                elif chunking is not None and _tests_remainder(self.body, info.step):
                    chunking = replace(chunking, remainder=True)
                what = f"chunk {self.mod.pos.text(node)} over range(..., {self.mod.pos.text(info.step)})"
                return True, Taint(
                    "RTL103",
                    what,
                    self.loc(node),
                    frozenset({LoopSrc(index)}),
                    axis,
                    chunking,
                )
            if info.step is None and _ceil_like(info.stop, self.defs):
                self.chunk_widths[index] = tuple(sorted(width.items()))
                what = f"chunk {self.mod.pos.text(node)} over {self.mod.pos.text(info.stop)} chunks (rounded up)"
                return True, Taint(
                    "RTL103", what, self.loc(node), frozenset({LoopSrc(index)}), axis
                )
        return False, None

    def one_chunk(self, info: _RangeLoop) -> bool:
        """Whether ``range(0, stop, step)`` gives one chunk at most, its stop known no greater than
        its step (``x = x[:2]`` before ``range(0, len(x), 100)``): the last chunk is the first."""
        known = _known_sizes(self)
        step = poly_constant(_poly(info.step, {}, known))
        if step is None or not _at_least_zero(info.start) or poly_constant(_poly(info.start, {})):
            return False
        most = poly_constant(_poly(info.stop, {}, known))
        if most is None:
            read = _length_read(info.stop)
            cut = _definition(read[0], self.defs) if read is not None and read[1] == 0 else None
            most = _rows_kept(cut, known)
        return most is not None and most <= step

    def chunking(self, info: _RangeLoop) -> Chunking | None:
        """When the chunks of a range loop are all full, in sizes known here (lengths, local
        constants) or, for the rest, read where the callers make them: each unknown atom must be an
        int or a length of a parameter, or of an attribute of one, or computed from such with
        ``//``, here or (a closure's free variable) in the enclosing function that binds it. None:
        some atom is none of these."""
        atoms: Atoms = {}
        reads = _LengthReads(self, self.quiet)
        defs = _known_sizes(self)
        stop = _poly(info.stop, atoms, defs, reader=reads)
        span = _add(stop, _poly(info.start, atoms, defs, reader=reads), -1)
        step = _poly(info.step, atoms, defs, reader=reads)
        found: list[tuple[str, str, Value, int | None]] = []
        derived: list[tuple[str, Terms, Terms]] = []
        names = _atoms_in(span) | _atoms_in(step)
        if not _size_reads(self, names, atoms, reads, "", found, derived):
            return None
        return Chunking(
            self.fn.qualname,
            _terms(span, ""),
            _terms(step, ""),
            tuple(found),
            tuple(derived),
        )

    def slice_length(
        self, node: ast.Subscript, part: ast.Slice, axis: int, base: Value
    ) -> Length | None:
        """The exact length of a slice, when it visibly stays inside the base: a window
        x[s:s + w] over range(a, len(x) - w + 1, ...), x[:k] of an x at least k long, x[1:]."""
        if part.step is not None:
            return None
        atoms: Atoms = {}
        whole = self.length_of(node.value, base, axis, atoms)
        clamp = _min_call(part.upper, self.defs)
        if (
            clamp is not None
            and not self.poly(part.lower, atoms)
            and any(self.poly(bound, atoms) == whole for bound in clamp.args)
        ):
            # x[:min(len(x), k)]: as long as the min, which never passes the end.
            return self.length(self.poly(part.upper, atoms), atoms)
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
        if most == whole and poly_constant(_add(whole, least, -1)) == 1:
            # x[-1:]: its last row (repeated to top a batch up); x[-k:] of more rows is as long
            # only once x has k, which a history that starts short has not.
            return constant_length(1)
        start, overshoot = poly_constant(least), poly_constant(_add(most, whole, -1))
        if start is None or start < 0 or overshoot is None or overshoot > 0:
            return None
        return self.length(_add(upper, lower, -1), atoms)

    def bound(self, node: ast.AST | None, whole: Poly, atoms: Atoms) -> Poly:
        """A slice bound as a position: a negative literal counts from the end."""
        poly = self.poly(node, atoms)
        value = poly_constant(poly)
        return _add(whole, poly, 1) if value is not None and value < 0 else poly

    def range_over(self, poly: Poly) -> tuple[str, _RangeLoop] | None:
        """The innermost enclosing ``for v in range(...)`` (positive step) whose ``v`` is in ``poly``."""
        names = _atoms_in(poly)
        for index in reversed(self.loops):
            info = self.ranges.get(index)
            if info is None or info.var not in names:
                continue
            # A step that is not a literal is taken as positive: strides are.
            step = poly_constant(_poly(info.step, {}, self.defs)) if info.step is not None else 1
            return (info.var, info) if step is None or step > 0 else None
        return None

    def note_range(self, index: int, target: ast.expr, call: ast.expr) -> None:
        """A loop binding ``target`` to the numbers of ``call``, when it is ``range(...)``."""
        if not (isinstance(call, ast.Call) and isinstance(target, ast.Name)):
            return
        if self.mod.canonical(_dotted(call.func) or "") != "range" or call.keywords:
            return
        args = call.args
        if len(args) == 1:
            self.ranges[index] = _RangeLoop(target.id, None, args[0], None)
        elif len(args) >= 2:
            step = args[2] if len(args) > 2 else None
            self.ranges[index] = _RangeLoop(target.id, args[0], args[1], step)

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
        view = (
            _DICT_VIEWS.get(call.func.attr)
            if call and isinstance(call.func, ast.Attribute)
            else None
        )
        if view is not None and call and not call.args:
            # d.values(), d.items(): the dict's elements (its keys are strings, or vary like it).
            assert isinstance(call.func, ast.Attribute)
            inner = self.quiet(call.func.value)
            # One key per iteration, of the keys the dict has: they change with its structure
            # (not with its values); a display's literal keys do not.
            key = Value(vsrc=_keys_sources(inner) | {src})
            if view == "keys":
                return key
            element = self.item_of(inner, index, call.func.value)
            return element if view == "values" else Value(ty=TUPLE, items=(key, element))
        # Iterating a call's result: the items it yields (or the elements of what it returns); the
        # other containers give their elements, per iteration of this loop.
        made = frozenset(
            IterDep(dep.call, index, of=dep.item)
            if isinstance(dep, RetDep) and not dep.each
            else dep
            for dep in iterable.deps
            if not isinstance(dep, IterDep) or dep.each
        )
        element = picked(iterable.with_(deps=made), index)
        deps = frozenset(
            d
            if isinstance(d, IterDep) and not d.each
            else replace(d, elem=index, fixed=frozenset(), aligned=True)
            for d in made
        )
        # Iterating an object runs its __iter__: its items are what that yields.
        protocol = self.iterated(iterable, index, node)  # type: ignore[attr-defined]
        if protocol is not None:
            deps |= {IterDep(protocol, index)}
        objs = _instances(iterable.items)
        picks = frozenset({src, ChoiceSrc(index, objs)}) if objs else frozenset({src})
        objs = objs or element.objs  # one of the objects a loop filled it with (``picked``)
        element = element.with_(
            vsrc=element.vsrc | picks,
            deps=deps,
            ty=UNKNOWN,
            dtype=None,
            callables=funcrefs.element(iterable.refs, funcrefs.ITER),
            objs=objs,
        )
        return self.display_item(iterable, index, node, typed_item(iterable, element))

    def display_item(self, iterable: Value, index: int, node: ast.AST, element: Value) -> Value:
        """An item of iterating a display (a literal list, maybe a module's constant): of the kind
        its items share when they are numbers of one kind (a sweep over floats gives floats); when
        its items differ in length, so does the item, per iteration (the array made from it is the
        one that changes shape); when they are arrays of different shapes, the display says so."""
        kinds = {item.ty for item in iterable.items}
        if len(kinds) == 1 and kinds <= SCALARS:
            element = element.with_(ty=kinds.pop())
        items = list(iterable.items)
        records = shared_fields(items)
        if records:
            # Records (`{"name": ..., "sequence": "MKT..."}`): the items at a key of several lengths,
            # and those that are numbers of one kind (`"z_lens": 0.227`), as that kind.
            fields = tuple(
                (key, _one_of(element, held, f"{self.mod.pos.text(node)}[...]{key}", index))
                if lengths_differ(held)
                else (key, Value(ty=held[0].ty, vsrc=element.vsrc))
                for key, held in records.items()
                if lengths_differ(held) or _one_number_kind(held)
            )
            return element.with_(fields=fields) if fields else element
        if not lengths_differ(items):
            return element
        return _one_of(element, items, f"{self.mod.pos.text(node)}[...]", index)


def _one_number_kind(values: list[Value]) -> bool:
    return len({v.ty for v in values}) == 1 and values[0].ty in (INT, FLOAT)


def _keys_sources(mapping: Value) -> frozenset[Src]:
    """What changes the keys of dict ``mapping``: nothing for a display of literal keys, else its
    structure, here or in the result a call gives back (a dict's shape holds its items')."""
    if mapping.ty == DICT and mapping.keys is not None:
        return EMPTY
    return shape_sources(mapping) | returned_sources(mapping, None, shape=True)


def _chunk_length(taints: list[Taint]) -> Length | None:
    """The length of a chunk a range loop strides over (``x[i:i + bs]``, whose last can be short):
    one atom per loop, so that the chunks of two arrays of one loop are as long as each other
    (``bs - len(labels)`` rows pad the images' chunk to ``bs``)."""
    ragged = [t for t in taints if t.code == "RTL103"]
    if len(ragged) != 1 or len(ragged[0].sources) != 1:
        return None
    loop = next(iter(ragged[0].sources))
    if not isinstance(loop, LoopSrc):
        return None
    name = f"chunk#{loop.index}"
    return Length.of({(name,): 1}, {name: frozenset().union(*(t.sources for t in taints))})


def _number_power(node: ast.AST) -> bool:
    """``2 ** level``, ``0.5 ** k``: a Python number raised to a power."""
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Pow)
        and isinstance(node.left, ast.Constant)
        and type(node.left.value) in (int, float)
    )


# What rounds a size up to a power of two: ``1 << (n - 1).bit_length()``, ``2 ** ceil(log2(n))``.
_POWER_EXPONENTS = {"bit_length", "log2", "frexp"}


# The operators that combine boolean masks element by element.
_LOGICAL = (ast.BitAnd, ast.BitOr, ast.BitXor)


# The lattice's weak node each Python number is (``promotion.result_type`` takes it weak).
_NUMBER_NODE = {INT: "int64", FLOAT: "float64", COMPLEX: "complex128"}


def _lands_weak(left: Value, right: Value) -> bool:
    """Whether arithmetic of a surely strong jax array of a known dtype with a Python number lands
    on a weak node of jax's promotion lattice (measured on jax 0.10.2: ``jnp.arange(4) / 2.0`` and
    ``int32 * 1.5`` are weakly typed float32; ``float32 * 1j`` a weak complex64)."""
    numbers = [v for v in (left, right) if v.ty in _NUMBER_NODE]
    arrays = [v for v in (left, right) if v.ty == ARRAY and v.weak == MADE_STRONG and v.dtype]
    if len(numbers) != 1 or len(arrays) != 1:
        return False
    typed = result_type(
        [Typed(arrays[0].dtype or ""), Typed(_NUMBER_NODE[numbers[0].ty], True)], x64=True
    )
    return typed is not None and typed.weak


# Python numbers that leave an array's dtype as it is, whatever it is (an int or bool one: a float
# one makes integers floats), and the operators that keep it with them (not true division).
_KEEPS_DTYPE = frozenset({INT, BOOL})


def _dtype_kept(left: Value, right: Value, op: ast.operator) -> Value | None:
    """The value whose dtype arithmetic gives when its arrays all have that value's dtype: made with
    it (``Value.dtype_of``: ``block.astype(mask.dtype)``) or that value itself (``mask & ~bit``),
    beside Python ints (``1 << bit``), so promotion keeps it (jax promotes a dtype with itself or a
    weak int to that dtype). None when an operand may promote it (a typed array, a Python float,
    true division)."""
    if isinstance(op, ast.Div):
        return None
    arrays = [v for v in (left, right) if v.ty not in _KEEPS_DTYPE]
    taken = next((v.dtype_of for v in arrays if v.dtype_of is not None), None)
    if taken is None:
        return None
    key = (taken.ref, taken.deps, taken.objs)
    for v in arrays:
        own = v if v.dtype_of is None else v.dtype_of
        if v.dtype is not None or (own.ref, own.deps, own.objs) != key:
            return None
    return taken


def _ints_with_a_float_like(
    left: Value, right: Value, nodes: tuple[ast.AST, ast.AST] | None
) -> bool:
    """Whether arithmetic meets a strong array that may hold integers with what may be a Python
    float: weakly typed if both are so (measured on jax 0.10.2: ``jnp.arange(5) * 0.5`` is a weakly
    typed float32, ``_lands_weak``), strong with a float array or an array operand. Not known here
    where the operand's kind is not (``FLOAT_LIKE``: ``2.0 * pi / (self.nfp * n)`` of an
    unannotated field) or the array is a range of bounds of unknown kind (``jnp.arange(n)``: ints
    for a count; a norm or a mean of unknown dtype is a float)."""
    written = nodes if nodes is not None else (None, None)
    for array, other, node in ((left, right, written[0]), (right, left, written[1])):
        if array.ty != ARRAY or array.weak != MADE_STRONG:
            continue
        ints = array.dtype is not None and array.dtype.startswith(("int", "uint"))
        if other.ty == FLOAT_LIKE and ints:
            return True
        if other.ty in (FLOAT, FLOAT_LIKE) and array.dtype is None and _range_call(node):
            return True
    return False


def _range_call(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Call) and (_dotted(node.func) or "").endswith("arange")


def _bools_with_a_number(left: Value, right: Value) -> bool:
    """Whether arithmetic meets a bool array with a Python int or float (measured on jax 0.10.2:
    ``1 - mask`` is a weakly typed int32, ``mask * 1.0`` a weakly typed float32)."""
    return bool({left.ty, right.ty} & {INT, FLOAT}) and "bool" in (left.dtype, right.dtype)


def _power_of_two_above(node: ast.BinOp) -> bool:
    """``1 << e`` or ``2 ** e`` with an exponent computed by ``_POWER_EXPONENTS``."""
    base = node.left
    if not isinstance(base, ast.Constant) or not (
        (isinstance(node.op, ast.LShift) and base.value == 1)
        or (isinstance(node.op, ast.Pow) and base.value == 2)
    ):
        return False
    return any(
        isinstance(call, ast.Call)
        and (
            (isinstance(call.func, ast.Attribute) and call.func.attr in _POWER_EXPONENTS)
            or (isinstance(call.func, ast.Name) and call.func.id in _POWER_EXPONENTS)
        )
        for call in ast.walk(node.right)
    )


def _multiple_above(node: ast.BinOp) -> bool:
    """``ceil(n / m) * m``, ``(n + m - 1) // m * m`` or ``-(-n // m) * m``: ``n`` rounded up to a
    multiple of ``m`` (the sizes padding buckets by), with ``m`` written alike in both places."""
    if not isinstance(node.op, ast.Mult):
        return False
    for count, step in ((node.left, node.right), (node.right, node.left)):
        if isinstance(count, ast.Call) and _dotted(count.func) in ("int", "round"):
            count = count.args[0] if len(count.args) == 1 else count
        divided = _rounded_up_quotient(count)
        if divided is not None and ast.dump(divided) == ast.dump(step):
            return True
    return False


def _rounded_up_quotient(node: ast.AST) -> ast.AST | None:
    """The divisor of ``ceil(n / m)``, ``(n + m - 1) // m`` or ``-(-n // m)``; None otherwise."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        name = (_dotted(node.func) or "").rpartition(".")[2]
        quotient = node.args[0]
        if name == "ceil" and isinstance(quotient, ast.BinOp) and isinstance(quotient.op, ast.Div):
            return quotient.right
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if (
            isinstance(inner, ast.BinOp)
            and isinstance(inner.op, ast.FloorDiv)
            and isinstance(inner.left, ast.UnaryOp)
            and isinstance(inner.left.op, ast.USub)
        ):
            return inner.right
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        total = node.left
        if isinstance(total, ast.BinOp) and isinstance(total.op, ast.Sub):
            added = total.left
            if (
                isinstance(added, ast.BinOp)
                and isinstance(added.op, ast.Add)
                and ast.dump(added.right) == ast.dump(node.right)
                and isinstance(total.right, ast.Constant)
                and total.right.value == 1
            ):
                return node.right
    return None


@lru_cache(maxsize=256)
def _string(length: int) -> Value:
    return Value(ty=STR, dims=Dims((constant_length(length),)))


def _one_of(element: Value, items: list[Value], text: str, loop: int) -> Value:
    """One of ``items`` (strings, lists or tuples of several lengths) per iteration of ``loop``: its
    length changes per iteration (the array made from it is the one that changes shape)."""
    kinds = {item.ty for item in items}
    atom = f"len({text})@{loop}"
    length = Length.of({(atom,): 1}, {atom: frozenset({LoopSrc(loop)})})
    return element.with_(ty=STR if kinds == {STR} else LIST, dims=Dims((length,)))


def _tail_and_head(parts: Sequence[ast.AST]) -> tuple[ast.Subscript, ast.Subscript] | None:
    """``x[a:]`` and ``x[:b]`` of one ``x``, in that order: the parts of a window that wraps
    around the end of ``x`` (``Expressions.wrap_length``)."""
    if len(parts) != 2:
        return None
    tail, head = parts
    if not (
        isinstance(tail, ast.Subscript)
        and isinstance(head, ast.Subscript)
        and ast.dump(tail.value) == ast.dump(head.value)
    ):
        return None
    cut, rest = tail.slice, head.slice
    if not (
        isinstance(cut, ast.Slice)
        and isinstance(rest, ast.Slice)
        and cut.step is rest.step is cut.upper is rest.lower is None
        and cut.lower is not None
        and rest.upper is not None
    ):
        return None
    return tail, head


def _every_axis_taken(base: Value, parts: list[ast.expr], scalars: list[bool]) -> bool:
    """Whether an index of an int per axis takes every axis of ``base``, an array of known rank,
    out: one value."""
    dims = base.dims
    ranked = dims is not None and dims.ranked
    return ranked and len(scalars) == len(parts) == len(dims.lens) and all(scalars)


def _positions_like(index: Value) -> bool:
    """Whether an index is (or may be) integer positions of any rank, or a list of them, whose
    first axis is the result's: not a tuple of indices, not a scalar."""
    return index.ty in (ARRAY, NP_ARRAY, LIST, UNKNOWN) and index.dtype != "bool"


def _picks_items(part: ast.expr, index: Value) -> bool:
    """Whether ``part``, the first index of a subscript (``index`` its value), picks items of the
    base by position: an int or an array of positions, not a slice, a new axis, ``...``, a mask or
    what a call returns (which may be one). Not counted from the end either (``xs[-1]``,
    ``xs[len(xs) - 1]``): the newest item of a list that grows is another one each time."""
    if isinstance(part, ast.Slice) or (
        isinstance(part, ast.Constant) and (part.value is None or part.value is Ellipsis)
    ):
        return False
    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.USub):
        return False
    if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Sub):
        counted = part.left
        if isinstance(counted, ast.Call) and _dotted(counted.func) == "len":
            return False
    return (
        index.ty not in ("mask", BOOL)
        and index.dtype != "bool"
        and not any(isinstance(d, RetDep) for d in index.deps)
    )


def _shares_source(index: Value, base: Value) -> bool:
    """Whether how many items ``index`` picks may follow how many ``base`` holds: it comes from
    what ``base`` comes from, or its shape changes with that (``ids[jnp.nonzero(ids)]``). (What
    only its values follow, ``choice(len(pool), size=k)``, picks ``k`` all the same.)"""
    counted = {_source_of(d) for d in index.deps}
    counted |= {getattr(s, "name", None) for t in index.shape for s in t.sources}
    return bool(counted & {_source_of(d) for d in base.deps})


def _source_of(dep: Dep) -> object:
    """What ``dep`` refers to, whatever view of it it is: a parameter by its name."""
    if isinstance(dep, ParamDep):
        return dep.name
    if isinstance(dep, FieldDep):
        return dep.made
    return (type(dep).__name__, dep.call)


def _count_change(taint: Taint, base: Value) -> bool:
    """Whether ``taint`` of ``base`` changes how many items it holds (its first axis), not how one
    of them differs from another."""
    return taint in base.shape and taint.axis == 0 and ItemSrc() not in taint.sources


def _one_position(index: Value) -> bool:
    """Whether ``index`` is one position, which takes its axis out: an int, or an integer array
    of rank 0 (``jnp.argmax(t > t0)``)."""
    if index.ty == INT:
        return not index.shape and not index.deps
    dims = index.dims
    return (
        index.ty in ARRAYS
        and index.ty != "mask"
        and index.dtype != "bool"
        and dims is not None
        and dims.ranked
        and not dims.lens
    )


def _axes_taken_out(dep: Dep, out: frozenset[int]) -> Dep:
    """``dep`` for the part of what it refers to that an index of ints at axes ``out`` leaves."""
    return replace(dep, fixed=dep.fixed | out) if dep.aligned else dep


def _taken_out(parts: list[ast.expr], scalars: list[bool]) -> frozenset[int]:
    """The axes of the base an index takes out: those an int indexes (``x[j, -1]``: 0 and 1), when
    every other part is a slice or ``None``, so that each part's axis is known."""
    out: set[int] = set()
    axis = 0
    ints = iter(scalars)
    for part in parts:
        if isinstance(part, ast.Slice):
            axis += 1
            continue
        scalar = next(ints)
        if isinstance(part, ast.Constant) and part.value is None:
            continue  # a new axis: none of the base's
        if not scalar:
            return frozenset()  # ``...``, or an array index: the axes are not known one by one
        out.add(axis)
        axis += 1
    return frozenset(out)


def _fixed_here(value: Value, up: int) -> Value:
    """A value an enclosing function (``up`` levels out) made, as a function nested in it sees it:
    what it is, without what it varies with there, its functions named from here."""
    refs = value.callables
    for _ in range(up):
        refs = funcrefs.rescoped(refs, "up")
    return value.with_(
        vsrc=EMPTY,
        shape=EMPTY,
        deps=EMPTY,
        fresh=EMPTY,
        callables=refs,
        items=tuple(_fixed_here(item, up) for item in value.items),
    )


def _leaf_array(value: Value) -> Value:
    """An operand of arithmetic read from a pytree whose every leaf is a strongly typed array of one
    dtype (``w["up"]`` of ``tree_map(lambda p: p.astype(jnp.bfloat16), params)``): such an array, as
    arithmetic on a subtree raises."""
    if value.ty == UNKNOWN and value.dtype is not None and value.weak == MADE_STRONG:
        return value.with_(ty=ARRAY)
    return value


def _number_kind(value: Value, params: Sequence[Param]) -> str | None:
    """INT or FLOAT for a Python number an enclosing function binds: one it computes, or a
    parameter written with a number as its default (``b1=0.9``) or annotated as one."""
    if value.ty in (INT, FLOAT):
        return value.ty
    param = next((p for p in params if p.name == value.param), None)
    kind = (param.default or param.annotation) if param is not None else None
    return kind if kind in (INT, FLOAT) else None


def _at_least_zero(start: ast.AST | None) -> bool:
    """Whether a range's start is visibly zero or more (``range(n)``, ``range(0, n, bs)``)."""
    value = poly_constant(_poly(start, {}))
    return value is not None and value >= 0


def _rows_kept(node: ast.AST | None, known: dict[str, ast.AST]) -> int | None:
    """The most rows ``x[:k]`` (``x[0:k]``, ``x[:k, ...]``) keeps, for a ``k`` known here."""
    if not isinstance(node, ast.Subscript):
        return None
    part = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
    if not isinstance(part, ast.Slice) or part.step is not None or part.upper is None:
        return None
    if poly_constant(_poly(part.lower, {}, known)) != 0:
        return None
    most = poly_constant(_poly(part.upper, {}, known))
    return most if most is not None and most >= 0 else None
