"""Calls: jit sites, transforms and lax primitives, calls recorded for the linker, known calls of
the standard library and of array methods."""

from __future__ import annotations

import ast
import builtins
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache, reduce
from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.funcrefs import Callee, FuncRef, Path
from retracelint.jitspec import TRACING_APIS, TRACING_METHODS, Wrapper
from retracelint.model import Location
from retracelint.summarise.abstract import (
    _args_vsrc,
    _element,
    _fresh_kind,
    _jit_result,
    _kind_flip,
    _plain,
    _value_callees,
    placed_leaves,
)
from retracelint.summarise.apis import (
    _ARRAY_METHODS_KEEP,
    _ARRAY_METHODS_MOVE,
    _ARRAY_MODULES,
    _ARRAY_TO_LISTS,
    _BOUNDED_QUEUES,
    _CACHE_CLEARING,
    _CLOCKS,
    _COPIES,
    _DICT_MUTATORS,
    _EXTERNAL,
    _FIELD_UPDATES,
    _FRESH_TREES,
    _INDEX_FUNCTIONS,
    _LIST_GROW_METHODS,
    _LIST_RESIZE,
    _LOADER_PACKAGES,
    _LOADER_PASS_METHODS,
    _MADE_STRONG,
    _MAPPING_TRANSFORMS,
    _MATH_INTS,
    _NUMPY_RANDOM,
    _PARTIALS,
    _PYTREE_PARTIALS,
    _PYTREE_REGISTRATIONS,
    _RANDOM_MODULES,
    _REDUCTIONS,
    _REMOVING_METHODS,
    _REPLACES,
    _SAME_TREES,
    _SETATTRS,
    _STDLIB_DRAWS,
    _STR_PADS,
    _STR_SPLITS,
    _STRUCTURE_KEYED,
    _TRANSFORMS,
    _TREE_MAPS,
    _UNPICKLES,
    ARGUMENT,
    AT_UPDATES,
    BUILTIN_FOLDS,
    BUILTIN_KINDS,
    CARRY_LOOPS,
    COUNTER,
    KEEPS_RECEIVER_DTYPE,
    MAKES_INEXACT,
    NEW_LEAVES,
    NN_ELEMENTWISE,
    ONE_VALUE_OF,
    OPERAND_KIND_WITH,
    PLACES_LEAVES,
    RESIZES,
    TRANSFORM_CONFIG,
    CarryLoop,
    _array_module,
    _index_dtype,
    _looks_like_class,
    _looks_like_tf_data,
    _reduced_axes,
    keeps_rank,
    reduced_dtype,
)
from retracelint.summarise.closures import MadeFunction, defaults_read, settings_read
from retracelint.summarise.points import spelled_points
from retracelint.summarise.promotion import promoted_floor
from retracelint.summarise.sizes import _RangeLoop
from retracelint.summarise.state import PassState
from retracelint.summarise.syntax import (
    _argument,
    _clip,
    _dotted,
    _given,
    _is_name,
    _is_true,
    _literal_ints,
    _literal_strs,
    bound_names,
    builtin_args,
    free_names,
)
from retracelint.summary import (
    Arg,
    CallSite,
    CarryStart,
    JitSpec,
)
from retracelint.values import (
    ARRAY,
    ARRAYS,
    BOOL,
    BOUNDED_QUEUE,
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
    JIT,
    JIT_OUT,
    JIT_OUT_WEAK,
    LAMBDA,
    LIST,
    LIST_LIKE,
    MADE_ANEW,
    MADE_STRONG,
    NO_AXES,
    NONE,
    NP_ARRAY,
    NUMPY_DATA,
    PARTIAL,
    RNG,
    SCALARS,
    SET,
    STR,
    STRONG,
    TRANSFORM,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    UNSURE,
    WEAK,
    CalleeSrc,
    Chunking,
    Dep,
    Dims,
    DrawSrc,
    ItemSrc,
    LoopSrc,
    Made,
    ParamSrc,
    RetDep,
    Src,
    Taint,
    Value,
    array_made,
    axis_lengths,
    collected,
    combine,
    counted,
    dtype_kind,
    dtype_taken,
    entry,
    followed,
    int_and_float,
    items_of,
    join,
    keyed_item,
    kind_sources,
    made_objects,
    poly_constant,
    reduced,
    returned_sources,
    shape_sources,
    shapeless,
    size_of,
    unaligned,
    unaligned_dep,
    weak_class,
)

if TYPE_CHECKING:
    from retracelint.summarise.sizes import Atoms


# What a partial made in this function binds: its positional arguments, its keywords, and the
# functions among them (as ``CallSite.functions``).
_Bound = tuple[
    tuple[Arg, ...], tuple[tuple[str, Arg], ...], tuple[tuple[int | str, Path, Callee], ...]
]


@lru_cache(maxsize=8192)
def _interned(callee: Callee) -> Callee:
    return tuple(map(sys.intern, callee))


def _one_at_a_time(node: ast.Call) -> bool:
    """Whether a ``DataLoader(dataset, batch_size, ...)`` call yields batches that are never short:
    automatic batching off (``batch_size=None``: the dataset's items one by one) or batches of one
    item (``batch_size=1``, its default), and no ``batch_sampler`` of its own."""
    keywords = {k.arg: k.value for k in node.keywords}
    if (
        "batch_sampler" in keywords
        or None in keywords
        or any(isinstance(a, ast.Starred) for a in node.args)
    ):
        return False
    size = keywords.get("batch_size", node.args[1] if len(node.args) > 1 else None)
    return size is None or (isinstance(size, ast.Constant) and size.value in (None, 1))


def _functions(
    args: list[Value], nodes: list[ast.expr], kwargs: dict[str | None, Value]
) -> tuple[tuple[int | str, Path, Callee], ...]:
    """The arguments that are or hold a function, by position (before any ``*args``) or keyword: a
    callee that calls its parameter (or an item of it) calls what these resolve to."""
    out: list[tuple[int | str, Path, Callee]] = []
    for i, (value, node) in enumerate(zip(args, nodes, strict=True)):
        if isinstance(node, ast.Starred):
            break
        if value.callables or value.ref is not None:
            out += [(i, path, callee) for path, callee in sorted(value.refs)]
    for key, value in kwargs.items():
        if key is not None and (value.callables or value.ref is not None):
            out += [(key, path, callee) for path, callee in sorted(value.refs)]
    return tuple(out)


def _counted_items(value: Value) -> bool:
    """Whether ``value`` is a tuple or list whose items are all known (no starred part)."""
    length = value.dims.length(0) if value.dims is not None else None
    if not value.items or value.ty not in (TUPLE, LIST) or length is None or length.atoms:
        return False
    return dict(length.terms).get((), 0) == len(value.items)


@lru_cache(maxsize=4096)
def _result(index: int) -> frozenset[FuncRef]:
    """What call ``index`` of a function returns, as a function value."""
    return funcrefs.single(("ret", str(index)))


@lru_cache(maxsize=4096)
def _returned_deps(index: int) -> frozenset[Dep]:
    """What call ``index`` of a function returns depends on (one set per index: the values made
    from a call's result keep it, 54,000 of them on the speed corpus)."""
    return frozenset({RetDep(index)})


def _maker_call(target: Callee | None) -> int | None:
    """The call of this function whose result a jit wraps (``jax.jit(make_loss(w))``, through
    transforms and partials)."""
    target = funcrefs.unwrapped(target)[0]
    return int(target[1]) if target and target[0] == "ret" else None


_BUILTIN_NAMES = frozenset(dir(builtins))
# Results that may be objects whose attributes are read later: a jitted function's too, as it
# returns what the function it wraps returns (a NamedTuple, a dataclass of arrays).
_MAY_BE_OBJECT = frozenset({UNKNOWN, INSTANCE, JIT_OUT, JIT_OUT_WEAK})


# What a collection whose points a loop may walk is (``Arg.points``): not a number or an array.
_POINTS_KINDS = frozenset({LIST, TUPLE, SET, UNKNOWN})
# Kinds of value that are code: a function a partial binds is part of the program it makes.
_FUNCTIONS = frozenset({LAMBDA, PARTIAL, FUNCTION, TRANSFORM, JIT})


class Calls(PassState):
    """Calls: jit sites, transforms and lax primitives, calls recorded for the linker, known calls of"""

    # -- calls --------------------------------------------------------------------------------------
    def e_Call(self, node: ast.Call) -> Value:
        func = node.func
        dotted = _dotted(func)
        canon = self.mod.canonical(dotted) if dotted else ""
        # Evaluate the receiver first (method calls), then the arguments, in source order.
        receiver = self.expr(func.value) if isinstance(func, ast.Attribute) else None
        if receiver is not None:
            self.mod.summary.read.add(func.attr)  # type: ignore[union-attr]
        elif canon == "getattr" and len(node.args) >= 2:
            name = node.args[1]
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            self.mod.summary.read.add(name.value if literal else "*")  # type: ignore[union-attr]
            self.fn.reads.add(name.value if literal else "*")  # type: ignore[union-attr]
        callee_value = self.expr(func) if not isinstance(func, ast.Attribute | ast.Name) else None
        args = [self.method_value(a, self.expr(a)) for a in node.args]
        kwargs = {
            k.arg: self.method_value(k.value, self.expr(k.value)) for k in node.keywords if k.arg
        }
        for k in node.keywords:
            if k.arg is None:
                self.expr(k.value)

        self.note_traced(node, canon)
        if canon == "isinstance" and args:
            kind = self.kind_tested(node, args[0])
            if kind is not None:
                return kind
        if canon == "next" and len(node.args) == 1 and isinstance(node.args[0], ast.Call):
            # next(make()) of a nested generator that yields one expression: that expression.
            made = node.args[0]
            given = bool(made.args or made.keywords)
            yielded = self.one_expression_of([self.callee_ref(made.func)], True, given)
            if yielded is not None:
                return yielded
        loop = CARRY_LOOPS.get(canon)
        if loop is not None and len(node.args) == len(args) > loop.body:
            carried = self.carry_loop(node, loop, args)
            if carried is not None:
                return carried
        if canon in _CACHE_CLEARING and self.recording:
            self.fn.clears = (*self.fn.clears, (self.loc(node), tuple(self.loops)))
        # mod.wrapper(func), from the name already canonicalised: every call asks.
        wrapper = self.mod.wrappers.get(canon) if canon else None
        if wrapper is not None and wrapper.factory is None and node.args:
            return self.jit_call(node, wrapper, args[0])
        registration = _PYTREE_REGISTRATIONS.get(canon)
        if registration is not None and node.args:
            self.note_registration(node, registration)
        if canon in _PARTIALS and node.args:
            wrapped = self.mod.wrapper(node.args[0])
            if (
                wrapped is not None
            ):  # partial(jax.jit, static_argnums=...) used as a decorator factory
                return UNKNOWN_VALUE
            value = self.partial(node, args, kwargs)
            # A function its callers pass is as new as what they pass (a partial they build).
            given = args[0].param
            anew = args[0].fresh or (frozenset({ParamSrc(given)}) if given else EMPTY)
            if canon in _PYTREE_PARTIALS and anew:
                text = self.mod.pos.text(node.args[0])
                what = f"the pytree {self.mod.pos.text(node)} holds {text}, a function {MADE_ANEW}"
                value = value.with_(
                    shape=value.shape | {Taint("RTL403", what, self.loc(node), anew)}
                )
            return value
        if canon in _TRANSFORMS or (
            canon.startswith("jax.")
            and canon.rsplit(".", 1)[-1]
            in (
                "grad",
                "vmap",
                "value_and_grad",
            )
        ):
            # A call of it runs the function it transforms, under a trace of its own, with the
            # arguments it is given; a mapping transform's function sees an item of each.
            marker = "mapped" if canon.rpartition(".")[2] in _MAPPING_TRANSFORMS else "transform"
            refs = frozenset(((), (marker, *c)) for c in _value_callees(args[0])) if args else EMPTY
            outputs = _differentiated(node, canon.rpartition(".")[2])
            return Value(ty=TRANSFORM, fresh=self.context_src(), callables=refs, ref=outputs)

        method = func.attr if isinstance(func, ast.Attribute) else ""
        placed = placed_leaves(args[0], self.loc(node)) if canon in PLACES_LEAVES and args else None
        if placed is not None:
            return placed
        if canon in _REPLACES or canon in _SETATTRS or method in ("replace", "_replace"):
            self.note_assigned(node, canon)
        if (
            canon in _COPIES
            or canon in _SAME_TREES
            or canon in NEW_LEAVES
            or canon in _UNPICKLES
            or canon in _REPLACES
            or method in ("replace", "_replace")
            or method in _FIELD_UPDATES
        ):
            copied = self.copied(node, canon, receiver)
            if copied is not None:
                return copied
        if method in _LIST_GROW_METHODS or method in _REMOVING_METHODS:
            self.mutate_field(node, method)
        mapped = (
            self.lambda_of(node.args[0]) if canon in _TREE_MAPS and len(node.args) > 1 else None
        )
        if mapped is not None:
            self.leaf_calls(node, mapped, node.args[1:], args[1:])
            return self.mapped(mapped, args[1:])
        known = self.known_call(node, canon, receiver, args, kwargs)
        if known is not None:
            return known.with_(objs=EMPTY, fields=()) if known.objs else known
        callees = self.callees_of(func, dotted, receiver, callee_value)
        # ``make(x)`` of a local ``make``, or ``factory(config)()``.
        called = self.env.get(func.id) if isinstance(func, ast.Name) else callee_value
        anew = _called_anew(called)
        bound = None
        kind = callees[0][0] if callees else ""
        if kind == "name" and not self.defined(callees[0][1]):
            callees = []
        elif kind == "mapped":
            callees = []  # the function sees items of the arguments, not the arguments
        elif kind == "partial" and len(callees) == 1:
            bound = self.partials.get(callees[0][3])
            if bound is not None:  # a call through a partial made here: the wrapped call
                callees = [callees[0][4:]]
        if not callees and receiver is not None:
            # A method call nothing records (``x.attr(...)`` of a value of no known object): the
            # attribute is used here all the same.
            self.fn.reads.add(func.attr)  # type: ignore[union-attr]
        at = self.loc(node) if callees else None
        index = self.record(node, callees, args, kwargs, at, bound) if at is not None else None
        callee = callees[0] if callees else None
        inlined = self.one_expression_of(callees, False, bool(node.args or node.keywords))
        if inlined is not None:
            return inlined
        refs = _result(index) if index is not None else EMPTY
        if callee is not None and callee[0] in _RESULT_KNOWN_AT_LINK:
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
                # Absolute, so that it still names the class where the value is returned to.
                ty, ref, fresh = INSTANCE, self.class_name(dotted or ""), self.context_src()
            elif callee[0] == "name" and self.is_jitted(dotted or ""):
                jit = self.mod.summary.globals[dotted or ""]
                ty = _jit_call_result(jit, args, kwargs).ty
            elif callee[0] == "name":
                ty = self.known_return_type(dotted or "")
            deps = _returned_deps(index) if index is not None else EMPTY
            vsrc = _args_vsrc(args, kwargs) | anew
            if callee[0] == "recv" and receiver is not None:
                vsrc |= receiver.vsrc  # as for any method of an object not known here
                if method in _NUMPY_RANDOM and receiver.param is not None:
                    # A draw, if the callers pass a NumPy generator (`def sample(rng)`): new each
                    # time it runs.
                    vsrc |= {DrawSrc(receiver.param, self.loops[-1] if self.loops else None)}
            # What the call returns may be an object whose attributes are read later.
            objs = frozenset({Made(at)}) if ty in _MAY_BE_OBJECT and at else EMPTY
            return Value(
                ty=ty, ref=ref, fresh=fresh, deps=deps, vsrc=vsrc, objs=objs, callables=refs
            )
        if (
            callee is not None
            and (callee[0] == "new" or (callee[0] == "param" and _names_class(callee[1])))
            and at
        ):
            # `model = Model(...)` of a class its callers pass (`def evaluate(Model, ...)`), or
            # `type(model)(...)`: an instance of it, a new object each time, of a class only the
            # callers know.
            return Value(ty=INSTANCE, fresh=self.context_src(), objs=frozenset({Made(at)}))
        transform = callee_value if callee_value is not None else self.env.get(dotted or "")
        if (
            callee is not None
            and callee[0] == "transform"
            and index is not None
            and transform is not None
            and transform.ty == TRANSFORM
            and transform.ref is not None
        ):
            # jax.grad(f)(x) / value_and_grad: the gradients, like what x is, and f's result.
            result = Value(
                deps=_returned_deps(index),
                vsrc=_args_vsrc(args, kwargs),
                objs=frozenset({Made(at)}) if at else EMPTY,
            )
            return _gradient_outputs(transform.ref, result, args)
        if callee is not None and callee[0] == "jit":
            # A jitted function returns what it wraps returns: a pytree whose fields are read later.
            jit = transform if transform is not None and transform.ty == JIT else None
            result = _jit_call_result(jit, args, kwargs)
            return result.with_(objs=result.objs | ({Made(at)} if at else EMPTY))
        value = combine(
            [*args, *kwargs.values(), *([receiver] if receiver else [])], keep_shape=False
        )
        value = value.with_(vsrc=value.vsrc | anew) if anew else value
        return value.with_(callables=refs) if refs else value

    def one_expression_of(
        self, callees: list[Callee | None], generator: bool, given: bool
    ) -> Value | None:
        """What a call (``given``: with arguments) of a nested def made here that takes none and
        gives one expression (``OneExpression``) gives: that expression, read here, the names it
        reads as this function has them at the call, as the closure sees them. None for any other
        call (and for one already being read: a def that calls itself)."""
        callee = callees[0] if len(callees) == 1 else None
        qualname = callee[1] if callee is not None and callee[0] == "qual" else ""
        body = self.one_expressions.get(qualname)
        if body is None or body.generator != generator or given or qualname in self.reading:
            return None
        self.reading.add(qualname)
        try:
            # A number or a None given there is set there (``return 0.0``, ``return float(x)``
            # in ``_make()``): a flip of what starts so is told at that line, not where the
            # caller stores it.
            value = self.literals_made(self.expr(body.expr), body.expr)
            if value.ty in (INT, FLOAT, NONE) and value.made is None:
                value = value.with_(made=self.loc(body.expr))
            return value
        finally:
            self.reading.discard(qualname)

    def carry_loop(self, node: ast.Call, loop: CarryLoop, args: list[Value]) -> Value | None:
        """``lax.scan(f, init, xs)`` and the like (``apis.CARRY_LOOPS``): recorded as a call of
        the body with what it is given (the carry as it starts, a slice of ``xs``), so that what
        the loop returns is what the body gives back for them. Before the body's call is recorded
        (a loop's first, silent walk), or when the body is not known, the carry is what jax checks
        the body gives back: the initial carry's pytree, each leaf a jax array of its shape, as
        weakly typed as a lambda body written here gives it back."""
        if loop.init >= len(args) or any(i >= len(args) for _, i in loop.passed):
            return None
        made = combine(args, keep_shape=False)
        passed = [_carry_passed(kind, args[i]) for kind, i in loop.passed]
        index = self.body_call(node, loop, passed)
        if index is None:
            body = self.lambda_of(node.args[loop.body])
            given = self.applied(body, passed) if body is not None else None
            if given is not None and loop.carry is not None:
                given = given.items[loop.carry] if loop.carry < len(given.items) else None
            back = _carried_back(args[loop.init], given)
            return back if loop.carry is None else _pair(back, made)
        back = Value(
            deps=_returned_deps(index), vsrc=made.vsrc, objs=frozenset({Made(self.loc(node))})
        )
        if loop.carry is None:
            return back
        carry = Value(deps=frozenset({RetDep(index, item=loop.carry)}), vsrc=made.vsrc)
        return Value(ty=TUPLE, items=(carry, made), vsrc=made.vsrc, deps=carry.deps | made.deps)

    def body_call(self, node: ast.Call, loop: CarryLoop, passed: list[Value]) -> int | None:
        """The index of the call of a lax loop's body that the loop ``node`` is recorded as."""
        callee = self.callee_ref(node.args[loop.body])
        if callee is None:
            return None
        call = self.carry_calls.get(id(node))
        if call is None:
            given = [node.args[i] for _, i in loop.passed]
            call = ast.copy_location(
                ast.Call(func=node.args[loop.body], args=given, keywords=[]), node
            )
            self.carry_calls[id(node)] = call
        index = self.record(call, [callee], passed, {}, self.loc(node))
        if index is not None and self.recording:
            start = CarryStart(loop.passed.index((ARGUMENT, loop.init)), loop.carry)
            self.fn.calls[index] = replace(self.fn.calls[index], carry=start)
        return index

    def lambda_of(self, node: ast.expr) -> ast.Lambda | None:
        """The lambda ``node`` is: written there, the one a local name was last bound to
        (``slice_fn = lambda x: x[i : i + chunk]``), or a nested def that amounts to one."""
        if isinstance(node, ast.Name):
            found = self.defs.get(node.id) or self.leaf_functions.get(node.id)
            node = found if found is not None else node  # type: ignore[assignment]
        return node if isinstance(node, ast.Lambda) else None

    def leaf_calls(
        self, node: ast.Call, fn: ast.Lambda, trees: list[ast.expr], values: list[Value]
    ) -> None:
        """``tree_map(lambda x, m: f(w, x, m), xs, ms)`` calls the lambda once per leaf: recorded as
        a call of the lambda in a loop over the trees' elements, so that what it calls sees each
        leaf (a jitted ``f`` given the leaves of a list of arrays of several sizes traces once per
        size) as often, and in the contexts, that the ``tree_map`` runs."""
        if any(isinstance(t, ast.Starred) for t in trees) or node.keywords:
            return
        callee = self.callee_ref(node.args[0])
        if callee is None:
            return
        text = f"tree_map over {', '.join(self.mod.pos.text(t) for t in trees)}"
        index = self.new_loop(node, text, self.loc(node), items=values[0])
        self.loops.append(index)
        try:
            leaves = [self.item_of(v, index, t) for v, t in zip(values, trees, strict=True)]
            # The lambda called with the trees as written: a call at the tree_map's place.
            call = ast.copy_location(ast.Call(func=node.args[0], args=trees, keywords=[]), node)
            self.record(call, [callee], leaves, {}, self.loc(node))
        finally:
            self.loops.pop()

    def mapped(self, fn: ast.Lambda, trees: list[Value]) -> Value:
        """``tree_map(lambda x: ..., tree)``: the lambda's body read here, each parameter a leaf of
        its tree (varying as the tree does), so that a slice by this function's loop bounds
        (``lambda x: x[i : i + chunk]``) is a slice in this loop, as ``tree[i : i + chunk]`` is.
        The lambda was walked as a function of its own already: its calls are not recorded again."""
        leaves = [t.with_(ty=UNKNOWN, keys=None, items=(), dims=None, objs=EMPTY) for t in trees]
        leaf = self.applied(fn, leaves)
        tree = trees[0]
        # Arithmetic on the leaves (``b1 * m + (1 - b1) * g``) is a tree of leaves each promoted
        # from the leaves it is given: as weakly typed, and of the dtype, they make it.
        weak = FOLLOWS if leaf.ty == FLOAT_LIKE and leaf.weak is None else leaf.weak
        return leaf.with_(
            ty=tree.ty, keys=tree.keys, items=(), dims=None, callables=EMPTY, weak=weak
        )

    def applied(self, fn: ast.Lambda, values: list[Value]) -> Value:
        """The lambda's body read here, its parameters bound to ``values``; its calls are not
        recorded again (the lambda was walked as a function of its own)."""
        saved, saved_defs = dict(self.env), dict(self.defs)
        for param, value in zip(fn.args.args, values, strict=False):
            self.env[param.arg] = value
            self.defs.pop(param.arg, None)
        try:
            return self.quiet(fn.body)
        finally:
            self.env, self.defs = saved, saved_defs

    def jit_call(self, node: ast.Call, wrapper: Wrapper, wrapped: Value) -> Value:
        """``jax.jit(f)``: a jit site around what the first argument is: a function, a transform of
        one (same parameters), a partial (fewer), or what a call returns (resolved at link time)."""
        receiver = self.receiver_of(node.args[0])
        fresh = _fresh_kind(wrapped, node.args[0], receiver)
        # `jax.jit(model.predict)` of a parameter or of an object a call made: a new bound method
        # each time if the object is an instance, which linking tells (a parameter may hold a
        # module: tests pass them).
        on_self = self.held_by_self(node.args[0])
        if_bound = (
            fresh is None and receiver is not None and (bool(self.object_refs(receiver)) or on_self)
        )
        if (
            wrapper.bound_methods_equal
            and receiver is not None
            and (if_bound or fresh == "bound method")
        ):
            # One object's bound method is one function to this wrapper: only a new object makes
            # a new one (what the object's own freshness says; a method of `self` may be
            # called on one object all along).
            if_bound = False
            fresh = "bound method" if receiver.fresh else None
            fresh_sources = receiver.fresh
        elif if_bound:
            fresh_sources = self.context_src()
        else:
            fresh_sources = self.context_src() if fresh == "bound method" else wrapped.fresh
        callees = _value_callees(wrapped) or [
            c for c in [self.callee_ref(node.args[0])] if c is not None
        ]
        target = callees[0] if len(callees) == 1 else None
        made_by = _maker_call(target) if fresh is None and not if_bound else None
        if made_by is not None and made_by < len(self.fn.calls):
            # A new function per call of its maker, if the maker makes it (checked at link time).
            maker = self.fn.calls[made_by]
            fresh = f"function returned by {maker.text}()"
            fresh_sources = self.context_of(maker.loops)
        else:
            made_by = None
        site = self.new_jit(
            wrapper,
            node,
            node.keywords,
            target=target,
            target_text=self.mod.pos.text(node.args[0]),
            fresh="bound method" if if_bound else fresh,
            fresh_sources=fresh_sources,
            maker_call=made_by,
            fresh_if_bound=if_bound,
            on_self=if_bound and on_self,
            configured_by=self.configured_by(node.args[0]),
        )
        return Value(
            ty=JIT,
            site=site,
            fresh=self.context_src(),
            callables=funcrefs.single(("jit", "", str(site))),
            # `jax.jit(jax.grad(f, argnums=1))`: what its calls return is known from the transform.
            ref=wrapped.ref if wrapped.ty == TRANSFORM else None,
        )

    def configured_by(self, node: ast.expr, named: set[str] | None = None) -> frozenset[Src]:
        """The sources of what defines the computation a jit is built around (``jax.vmap(f,
        in_axes=axes)``): the function inside the transforms and partials around it, each
        transform's configuration (``TRANSFORM_CONFIG``), and a function a partial binds. Not
        other values a partial binds: a number or an array there is data a jit built once could
        take traced. ``named`` is shared with the partials' bound functions, so a name rebound to
        a partial of itself (``step = Partial(helper, fn=step)``) is followed once."""
        sources: set[Src] = set()
        named = set() if named is None else named
        while True:
            if isinstance(node, ast.Name) and node.id in self.defs and node.id not in named:
                # Bound to a name first (``f_vmapped = jax.vmap(f, in_axes=axes)``).
                named.add(node.id)
                node = self.defs[node.id]  # type: ignore[assignment]
                continue
            if not (isinstance(node, ast.Call) and node.args):
                made = self.made_here(node)
                settings = self.closure_settings(made) if made is not None else EMPTY
                return frozenset(sources | self.quiet(node).vsrc | settings)
            canon = self.mod.canonical(_dotted(node.func) or "")
            name = canon.rpartition(".")[2]
            if canon in _PARTIALS:
                # A function it binds (``partial(self.hvp, f=cfun)``) is code the program runs.
                for bound in (*node.args[1:], *(k.value for k in node.keywords)):
                    if self.quiet(bound).ty in _FUNCTIONS:
                        sources |= self.configured_by(bound, named)
                node = node.args[0]
                continue
            if not canon.startswith("jax.") or name not in TRANSFORM_CONFIG:
                return frozenset(sources)  # a maker's call: what it returns is not read here
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            for position, keyword in TRANSFORM_CONFIG[name]:
                given = node.args[position] if position < len(node.args) else keywords.get(keyword)
                if given is not None:
                    sources |= self.quiet(given).vsrc
            node = node.args[0]

    def made_here(self, node: ast.expr) -> MadeFunction | None:
        """The lambda, or the def of this function, that ``node`` is."""
        if isinstance(node, ast.Lambda):
            return node
        if isinstance(node, ast.Name):
            return self.mod.nodes.get(f"{self.fn.qualname}.<locals>.{node.id}")
        return None

    def closure_settings(self, made: MadeFunction) -> frozenset[Src]:
        """The sources of what a function made here reads from this one as a setting of the
        program it traces (``closures.settings_read``: a length, a mode, a function), and of the
        shapes of everything it closes over (a table ``jnp.arange(int(lp / dx))`` long: its
        values are data, its shape is the program's): a new value of one is a new program, not a
        new input."""
        settings = (
            src
            for name in sorted(settings_read(made, self.mod.canonical))
            if (value := self.env.get(name)) is not None
            for src in value.vsrc
        )
        # A default read as a setting (``lambda e, f=f: jax.grad(f)(e)``) is bound here too.
        defaults = (
            src
            for default in defaults_read(made, self.mod.canonical)
            for src in self.quiet(default).vsrc
        )
        shapes = (
            src
            for name in sorted(free_names(made))
            if (value := self.env.get(name)) is not None
            for src in shape_sources(value)
            # What sets a length here (``dx`` above); the shape of a parameter passed on as it
            # is (``ParamShapeSrc``) is the callers' to tell.
            if isinstance(src, LoopSrc | ParamSrc)
        )
        return frozenset((*settings, *defaults, *shapes))

    def partial(self, node: ast.Call, args: list[Value], kwargs: dict[str | None, Value]) -> Value:
        """``functools.partial(f, a, k=v)``: a new object per evaluation, which calls ``f`` with the
        arguments it binds first; a call of it here is recorded as that call of ``f``."""
        # It computes what its function does with what it binds: it differs as either does (a
        # partial of a closure over a network built per call is another computation per call).
        value = Value(ty=PARTIAL, fresh=self.context_src(), vsrc=combine(args).vsrc)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            return value  # what it binds is not known
        where = f"{node.lineno}:{node.col_offset}"
        bound = tuple(self.arg(v, a) for a, v in zip(node.args[1:], args[1:], strict=True))
        keywords = tuple((k.arg, self.arg(kwargs[k.arg], k.value)) for k in node.keywords if k.arg)
        functions = _functions(args[1:], node.args[1:], kwargs)
        self.partials[where] = (bound, keywords, functions)
        names = ",".join(k for k, _ in keywords)
        refs = frozenset(
            ((), ("partial", str(len(bound)), names, where, *c)) for c in _value_callees(args[0])
        )
        return value.with_(callables=refs)

    def held_by_self(self, node: ast.AST) -> bool:
        """Whether ``node`` reads an attribute of an object held by this method's ``self``
        (``self.policy.apply``, ``self.nets.actor.apply``)."""
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Attribute):
            return False
        root: ast.AST = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and self.env.get(root.id, UNKNOWN_VALUE).ref == "<self>"

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
        # Under `if isinstance(x, jax.core.Tracer):` it runs inside the trace of whatever
        # transform made x abstract, once per trace: the functions it is handed are not eager sites.
        eager = traces.caches_by_identity and not self.tracing
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
                if eager:
                    self.note_lax_site(canon, node, made, callee)

    def note_lax_site(
        self, canon: str, node: ast.Call, made: ast.AST, callee: tuple[str, ...] | None
    ) -> None:
        value = self.quiet(made)
        fresh = _fresh_kind(value, made, self.receiver_of(made))
        sources = self.context_src() if fresh == "bound method" else value.fresh
        if fresh is None and value.ty == JIT:
            # `lax.fori_loop(0, n, jax.jit(body), x)`: each jit object made is a new function to
            # the primitive, whatever it wraps, so the primitive traces it again.
            fresh = "jitted function"
        if fresh is None or not sources:
            return
        self.new_jit(
            Wrapper(canon, None, None),
            made,
            [],
            target=callee,
            target_text=self.mod.pos.text(made),
            fresh=fresh,
            fresh_sources=sources,
            traces_on_call=True,
            handed_to=self.loc(node),
            configured_by=self.configured_by(made),
            closes_over=self.closes_over(made),
        )

    def closes_over(self, made: ast.AST) -> bool:
        """Whether a lambda or call handed to a lax primitive reads a parameter or local of the
        function it is made in (a def handed by name is judged where it is defined: not here)."""
        if self.module_level or isinstance(made, ast.Name):
            return False
        return bool(free_names(made) & self.env.keys())

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
        if qual in summary.functions or qual in summary.classes or head in summary.globals:
            return True
        # A name bound by ``from m import *`` of a module of the project (never a builtin's name).
        return head not in _BUILTIN_NAMES and any(
            not m.startswith(_EXTERNAL) for m in summary.star_imports
        )

    def callee_ref(self, node: ast.AST) -> Callee | None:
        """The function an expression names (what a transform or lax primitive is handed)."""
        receiver = self.quiet(node.value) if isinstance(node, ast.Attribute) else None
        value = self.quiet(node) if not isinstance(node, ast.Attribute | ast.Name) else None
        callees = self.callees_of(node, _dotted(node), receiver, value)
        return callees[0] if len(callees) == 1 else None

    def callees_of(
        self, func: ast.AST, dotted: str | None, receiver: Value | None, callee_value: Value | None
    ) -> list[Callee]:
        """What a call of ``func`` calls, as the linker will resolve it: a name of the module's scope
        (its definitions and imports), or what the local value called is (``funcrefs``)."""
        like = _class_read_off(func)
        if like is not None:
            refs = self.object_refs(self.quiet(like))
            return [("new", *refs)] if refs else []
        if (
            isinstance(func, ast.Name)
            and self.cls is not None
            and self.fn.kind == "classmethod"
            and self.env.get(func.id, UNKNOWN_VALUE).ref == "<self>"
        ):
            return [("new", f"c:{self.cls.qualname}")]  # `cls(...)` in an alternative constructor
        if callee_value is not None:
            callees = _value_callees(callee_value)
            if not callees and callee_value.ty == INSTANCE and callee_value.ref:
                return [("method", callee_value.ref, "__call__")]  # Model(...)(x)
            return callees
        replaced = self.env.get(dotted) if dotted and "." in dotted else None
        if replaced is not None and replaced.site is not None:
            return [("jit", "", str(replaced.site))]
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Call)
            and _is_super(func.value)
            and self.cls is not None
        ):
            return [("super", "", func.attr)]  # the method of the next class in the hierarchy
        if isinstance(func, ast.Attribute) and receiver is not None:
            if receiver.ref == "<self>":
                return [("self", "", func.attr)]
            if receiver.ty == INSTANCE and receiver.ref:
                return [("method", receiver.ref, func.attr)]
            if receiver.site is not None:
                return []
            refs = self.object_refs(receiver)
            if refs:
                return [("recv", func.attr, *refs)]  # the class is found at link time
            if dotted is None or (isinstance(func.value, ast.Name) and func.value.id in self.env):
                # A method of a local value: only what it is known to hold.
                return funcrefs.called(self.attribute_refs(receiver, func.attr))
        if isinstance(func, ast.Name):
            local = self.env.get(func.id)
            if local is None:
                local = self.closure(func.id)
            if local is not None:
                callees = _value_callees(local)
                if not callees and local.ty == INSTANCE and local.ref and local.ref[0] != "<":
                    return [("method", local.ref, "__call__")]  # calling an instance
                refs = self.object_refs(local)
                if refs and not any(funcrefs.scoped_kind(c) == "param" for c in callees):
                    # Or an object (a factory's result, say): its __call__, once its class is known.
                    callees = [*callees, ("recv", "__call__", *refs)]
                return callees
        return [("name", dotted)] if dotted else []

    def record(
        self,
        node: ast.Call,
        callees: list[Callee],
        args: list[Value],
        kwargs: dict[str | None, Value],
        at: Location,
        bound: _Bound | None = None,
    ) -> int | None:
        if not self.recording:
            return self.recorded.get(id(node))
        star = any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        )
        func = node.func
        receiver_arg = None
        if isinstance(func, ast.Attribute) and callees[0][0] in ("method", "self", "recv", "super"):
            # super().m(...) is called on self.
            if callees[0][0] == "super":
                receiver = self.env.get(self.fn.params[0].name, UNKNOWN_VALUE)
            else:
                receiver = self.quiet(func.value)
            text = sys.intern(self.mod.pos.text(func.value))
            receiver_arg = Arg(receiver, self.loc(func.value), text)
        call_args = self.positional(node, args)
        call_kwargs = tuple(
            (k.arg, self.arg(kwargs[k.arg], k.value)) for k in node.keywords if k.arg
        )
        spread = self.spread(node, args) if star else None
        functions = _functions(args, node.args, kwargs)
        objects = self.objects_passed(node, args, kwargs)
        if bound is not None:  # a partial's arguments come first
            first, keywords, passed = bound
            shift = len(first)
            call_args, call_kwargs = first + call_args, keywords + call_kwargs
            functions = passed + tuple(
                (key + shift if isinstance(key, int) else key, path, callee)
                for key, path, callee in functions
            )
            objects = tuple(
                (key + shift if isinstance(key, int) else key, refs) for key, refs in objects
            )
        return self.add_call(
            callees,
            call_args,
            call_kwargs,
            node,
            text=func,
            star=star,
            receiver=receiver_arg,
            spread=spread,
            functions=functions,
            objects=objects,
            at=at,
        )

    def positional(self, node: ast.Call, args: list[Value]) -> tuple[Arg, ...]:
        """The arguments ``node`` passes by position, as far as their positions are known. A
        ``*t`` before others takes as many positions as ``t`` has items: its items where their
        number is known here (a tuple built here), else the positions after it are unknown
        (``jitted(*common, forces)`` does not pass ``forces`` first). The last ``*rest`` is
        ``spread``'s."""
        out: list[Arg] = []
        last = len(node.args) - 1
        for at, (value, a) in enumerate(zip(args, node.args, strict=True)):
            if not isinstance(a, ast.Starred):
                out.append(self.arg(value, a))
            elif at == last:
                break
            elif _counted_items(value):
                text = sys.intern(self.mod.pos.text(a.value))
                out += [
                    Arg(_plain(item), self.loc(a), f"{text}[{i}]")
                    for i, item in enumerate(value.items)
                ]
            else:
                break
        return tuple(out)

    def spread(self, node: ast.Call, args: list[Value]) -> Arg | None:
        """The last positional argument, ``*rest``, when it is the only starred one and no
        ``**kwargs`` follows: its items, when their number is known here, else a call's result."""
        starred = [a for a in node.args if isinstance(a, ast.Starred)]
        if len(starred) != 1 or starred[0] is not node.args[-1]:
            return None
        if any(k.arg is None for k in node.keywords):
            return None
        value = args[-1]
        count = _counted_items(value)
        return self.arg(value if count else value.with_(items=()), starred[0].value)

    def arg(self, value: Value, node: ast.AST) -> Arg:
        """``value`` passed as ``node`` is written. The text is interned: the same argument (``x``,
        ``self.params``) recurs through a module, and its summary then holds and pickles it once
        (half of the 111,000 argument texts of the speed corpus repeat one of their module)."""
        return Arg(
            _plain(value),
            self.loc(node),
            sys.intern(self.mod.pos.text(node)),
            self.known(value, node),
            spelled_points(node, self.bound_display) if value.ty in _POINTS_KINDS else None,
        )

    def known(self, value: Value, node: ast.AST) -> int | str | tuple[int | None, ...] | None:
        """``Arg.known``: an int argument's value (a module constant's, an imported one's name), a
        flag's (1 or 0), or the constant lengths of an array's axes (None for one not constant:
        ``jnp.linspace(a, b, n)`` has one axis)."""
        if value.ty == BOOL:
            return _truth(node, self.defs, self.stores)
        if isinstance(node, ast.Name) and node.id not in self.env and value.ty in (INT, UNKNOWN):
            summary = self.mod.summary
            imported = summary.imports.get(node.id)
            if imported is not None and imported.startswith(_EXTERNAL):
                imported = None
            return summary.constants.get(node.id, imported)
        if value.ty == INT:
            return poly_constant(self.poly(node, {}))
        return axis_lengths(value)

    def change_read(self, node: ast.AST) -> str:
        """The name of the ``if t != new_t: t = new_t`` around ``node`` whose value ``node`` reads
        (``CallSite.on_change``), or ""."""
        changed = self.changed
        return changed.kept if changed is not None and changed.read_by(node) else ""

    def add_call(
        self,
        callees: list[Callee],
        args: tuple[Arg, ...],
        kwargs: tuple[tuple[str, Arg], ...],
        node: ast.AST,
        text: ast.AST | None = None,
        star: bool = False,
        receiver: Arg | None = None,
        spread: Arg | None = None,
        functions: tuple[tuple[int | str, Path, Callee], ...] = (),
        objects: tuple[tuple[int | str, tuple[str, ...]], ...] = (),
        at: Location | None = None,
    ) -> int:
        """Record a call of ``callees`` at ``node`` (a call, or what calls implicitly: a decorator,
        ``raise Error``, a for loop's ``__next__``); its index among the function's calls."""
        site = CallSite(
            # Interned: the same callee is called many times in a module, and a summary pickles
            # one string object once (the heads of the corpus: 165,000 strings to load, not 205,000).
            callee=_interned(callees[0]),
            text=sys.intern(self.mod.pos.text(text or node)),
            args=args,
            kwargs=kwargs,
            location=at or self.loc(node),
            loops=self.loops_of(callees),
            unless_set=self.unset,
            unless_same=self.unless_same,
            on_change=self.change_read(node),
            arms=self.arms,
            star=star,
            receiver=receiver,
            spread=spread,
            functions=tuple((key, path, _interned(callee)) for key, path, callee in functions)
            if functions
            else (),
            alternatives=tuple(map(_interned, callees[1:])) if len(callees) > 1 else (),
            # Interned as callees are: most objects passed are one of a few (``p:self``).
            objects=tuple((key, _interned(refs)) for key, refs in objects) if objects else (),
            contexts=tuple(self.contexts),
        )
        self.fn.calls.append(site)
        self.recorded[id(node)] = len(self.fn.calls) - 1
        return len(self.fn.calls) - 1

    def loops_of(self, callees: list[Callee]) -> tuple[int, ...]:
        """The loops around a call that repeat it: not one whose turns each pick another function
        (``for f in (a, b): f()``), when that is what is called, nor one that does not repeat the
        branch it is in (``calls_settled_by``: a one-shot flag, a local memo)."""
        if not self.choosing and not self.calls_settled:
            return tuple(self.loops)
        return tuple(
            loop
            for loop in self.loops
            if loop not in self.calls_settled
            and (loop not in self.choosing or not set(callees) <= self.choosing[loop])
        )

    def new_jit(
        self,
        wrapper: Wrapper,
        node: ast.AST,
        keywords: list[ast.keyword],
        target: tuple[str, ...] | None,
        target_text: str,
        fresh: str | None,
        fresh_sources: frozenset[Src] = EMPTY,
        decorated: bool = False,
        traces_on_call: bool = False,
        handed_to: Location | None = None,
        maker_call: int | None = None,
        fresh_if_bound: bool = False,
        on_self: bool = False,
        configured_by: frozenset[Src] = EMPTY,
        closes_over: bool = False,
        lengths: tuple[str, ...] = (),
    ) -> int:
        if self.cache_misses:
            fresh_sources = EMPTY  # made once per key of the cache that keeps it
        kw = {k.arg: k.value for k in keywords if k.arg}
        for key, text in wrapper.preset:  # an alias's keywords, unless this use gives its own
            kw.setdefault(key, ast.parse(text, mode="eval").body)
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
            traces_on_call=traces_on_call,
            handed_to=handed_to,
            closes_over=closes_over,
            maker_call=maker_call,
            fresh_if_bound=fresh_if_bound,
            on_self=on_self,
            unless_same=self.unless_same,
            on_change=self.change_read(node),
            configured_by=configured_by,
            lengths=lengths,
        )
        existing = self._same_site(spec)
        if existing is not None:
            if self.recording:  # what it wraps may be a call's result, known only when recorded
                self.mod.summary.jits[existing] = replace(spec, index=existing)
            return existing
        self.mod.summary.jits.append(spec)
        return spec.index

    def _same_site(self, spec: JitSpec) -> int | None:
        # Loop bodies are walked twice: the second walk must find the site of the first. A lax
        # loop's site is the function it is handed, which may be a jax.jit(...) site too.
        for other in reversed(self.mod.summary.jits):
            if (other.location, other.function, other.wrapper) == (
                spec.location,
                spec.function,
                spec.wrapper,
            ):
                return other.index
        return None

    def fresh_tree(
        self, node: ast.Call, canon: str, args: list[Value], kwargs: dict[str | None, Value]
    ) -> Value:
        """The results of a call whose item ``_FRESH_TREES`` names is a pytree holding an object
        the call makes anew (``jax.vjp``'s pullback): a new structure each time the call runs."""
        item = _FRESH_TREES[canon]
        text = self.mod.pos.text(node)
        what = f"the pytree {text} returns holds a function {MADE_ANEW}"
        made = Value(shape=frozenset({Taint("RTL403", what, self.loc(node), self.context_src())}))
        rest = combine([*args, *kwargs.values()], keep_shape=False)
        return Value(ty=TUPLE, items=tuple(made if i == item else rest for i in range(item + 1)))

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
        if module == "math":
            return Value(ty=INT if name in _MATH_INTS else FLOAT, vsrc=_args_vsrc(args, kwargs))
        if canon in BUILTIN_KINDS:
            return Value(ty=_builtin_kind(node, canon, args), vsrc=_args_vsrc(args, kwargs))
        if canon in ("list", "sorted", "tuple") and args:
            atoms: Atoms = {}
            count = self.length(self.length_of(node.args[0], args[0], 0, atoms), atoms)
            # A list of an array's rows: its axes are the array's.
            value = args[0].with_(
                ty=LIST if canon != "tuple" else TUPLE, items=(), ref=None, dims=Dims((count,))
            )
            return self.one_per_number(value, node, node.args[0])  # type: ignore[attr-defined]
        if canon in ("dict",):
            # `dict(defaults, lr=lr)`: the items known of the copied dict, those given by keyword.
            items = self.merged_items({}, node, args, kwargs)
            value = combine([*args, *kwargs.values()], ty=DICT)
            return value.with_(fields=tuple(sorted(items.items()))) if items else value
        if canon in ("set", "frozenset"):
            return combine(args, ty=SET if canon == "set" else TUPLE)
        if canon in _BOUNDED_QUEUES and _argument_given(node, *_BOUNDED_QUEUES[canon]):
            return Value(ty=BOUNDED_QUEUE)
        if canon in ("next", "min", "max") and self.from_table(node):
            # next(b for b in BUCKETS if b >= n): one of a few constants, each traced once.
            return Value(ty=INT)
        if canon in BUILTIN_FOLDS and (items := self.dict_values(node)) is not None:
            # Over a dict's items known at their keys.
            op, start = BUILTIN_FOLDS[canon]
            return reduce(lambda a, b: self.arith(a, b, op()), items, Value(ty=start))
        if canon in ("min", "max", "abs", "sum") and module == "":
            ty = args[0].ty if len(args) == 1 else UNKNOWN
            if canon != "abs" and len(node.args) == 1 and not node.keywords:
                ty = self.folded_kind(canon, node.args[0], args[0])
            value = combine(args, ty=ty, keep_shape=False)
            # A number read from what a call returns (`max(len(s) for s in self.draw())`) changes
            # with that result: resolved where the call is known.
            value = value.with_(vsrc=value.vsrc.union(*(returned_sources(a) for a in args)))
            if canon in ("min", "max") and len(args) > 1:
                # One of the operands, whose kinds are asked where they are known (a float from
                # attributes: `max(self.shift0 * self.decay**k, self.floor)`); not their shapes.
                value = value.with_(deps=frozenset(shapeless(d) for a in args for d in a.deps))
            return self.scalar_type_chosen(node, canon, args, value)
        if canon in _STRUCTURE_KEYED and args:
            return _structure_keyed(canon, args, kwargs)
        if canon in _CLOCKS:
            return Value(ty=_CLOCKS[canon], vsrc=self.context_src())
        if canon in _FRESH_TREES and args:
            return self.fresh_tree(node, canon, args, kwargs)
        if canon.endswith(".DataLoader") and canon.partition(".")[0] in _LOADER_PACKAGES:
            if _one_at_a_time(node):
                return Value(ty="loader")
            return self.loader(node, "DataLoader", "drop_last", kwargs, self.batches(node))
        if canon in RESIZES and args:
            return self.resized_to(node, RESIZES[canon], args, kwargs)
        if module in _ARRAY_MODULES or module in _RANDOM_MODULES or _array_module(module):
            return self.array_call(node, module, name, args, kwargs)
        if module == "jax.nn" and name in NN_ELEMENTWISE:
            return self.array_call(node, "jax.numpy", name, args, kwargs)
        if module == "random" and name in _STDLIB_DRAWS:
            # A new value per iteration, or per call of the function that draws it.
            return Value(ty=_STDLIB_DRAWS[name], vsrc=_args_vsrc(args, kwargs) | self.context_src())
        if isinstance(func, ast.Attribute) and receiver is not None:
            return self.method_call(node, func.attr, receiver, args, kwargs)
        return None

    def dict_values(self, node: ast.Call) -> list[Value] | None:
        """The items of a dict at its literal keys that ``f(d.values())`` is given, when all are
        known (None otherwise)."""
        view = node.args[0] if len(node.args) == 1 else None
        if not (
            isinstance(view, ast.Call)
            and isinstance(view.func, ast.Attribute)
            and view.func.attr == "values"
            and not view.args
        ):
            return None
        held = self.quiet(view.func.value)
        items = items_of(held) if held.ty == DICT and held.keys is not None else {}
        return list(items.values()) if items and len(items) == len(held.keys or ()) else None

    def folded_kind(self, canon: str, node: ast.expr, iterable: Value) -> str:
        """The kind of ``sum(xs)`` (``0 + xs[0] + ...``), ``min(xs)`` or ``max(xs)`` of one
        iterable: its items' kind, as written in a comprehension (``sum(len(s) for s in seqs)``: an
        int) or a display of numbers, never the container's; else not known."""
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
            saved = dict(self.env)
            for comp in node.generators:
                for name in bound_names([ast.Assign([comp.target], comp.iter)], "targets"):
                    self.env[name] = UNKNOWN_VALUE  # the items, of kinds not known here
            try:
                item = self.quiet(node.elt)
            finally:
                self.env = saved
            kinds = {item.ty}
        else:
            kinds = {i.ty for i in iterable.items} if iterable.items else {UNKNOWN}
        if len(kinds) != 1 or not kinds <= SCALARS:
            return UNKNOWN
        kind = kinds.pop()
        return INT if canon == "sum" and kind == BOOL else kind  # True + True is 2

    def scalar_type_chosen(
        self, node: ast.Call, canon: str, args: list[Value], value: Value
    ) -> Value:
        """``max(1, total)``, ``max(1 - np.mean(a) / np.mean(b), 0)``: whichever operand wins, so its
        kind (a weak int, a weak float, a strong NumPy float) is the union of the operands' kinds,
        decided by data that changes between calls."""
        types = {a.ty for a in args}
        if canon not in ("min", "max") or len(args) < 2:
            return value
        if len(types) == 1 and types <= {INT, FLOAT}:
            return value.with_(ty=args[0].ty)
        x64 = self.mod.summary.x64
        if value.ty == UNKNOWN and any(_float_kind(a, x64) for a in args):
            value = value.with_(ty=FLOAT_LIKE)  # most likely a float, as a static argument
        flip = next((f for a in args[1:] if (f := _kind_flip(args[0], a, x64)) is not None), None)
        if flip is None or not value.vsrc:
            return value
        code, first, then = flip
        text = self.mod.pos.text(node)
        picks = "an int or a float" if types == {INT, FLOAT} else f"{first} or {then}"
        numbers = code == "RTL402" and int_and_float(args)
        taint = Taint(
            code, f"{text} picks {picks} anew", self.loc(node), value.vsrc, numbers=numbers
        )
        return value.with_(shape=value.shape | {taint})

    def holding(self, name: str, container: Value, added: Value) -> Value:
        """The list ``name`` after ``added`` went into it: what changes per iteration of the loops
        that fill it (those inside the one that makes it anew) changes per element."""
        filling = []
        for index in reversed(self.loops):
            if name in self.assigned.get(index, ()):
                break
            filling.append(index)
        element = collected(added, frozenset(filling))
        made = made_objects(added) if filling else EMPTY
        if not element.shape and not element.deps and not made:
            return container
        return container.with_(
            shape=container.shape
            | {t if ItemSrc() in t.sources else t.unlabelled() for t in element.shape},
            deps=container.deps | {unaligned_dep(d) for d in element.deps},
            elements=container.elements | made,
        )

    def from_table(self, node: ast.Call) -> bool:
        """``next(b for b in SIZES if b >= n)``: an item picked from a constant table of ints (the
        items themselves, whatever the condition that picks one)."""
        if len(node.args) != 1 or node.keywords:
            return False
        picks = node.args[0]
        if not isinstance(picks, ast.GeneratorExp | ast.ListComp) or len(picks.generators) != 1:
            return False
        comp = picks.generators[0]
        if not (isinstance(comp.target, ast.Name) and _is_name(picks.elt, comp.target.id)):
            return False
        table = self.quiet(comp.iter)
        return (
            not table.vsrc
            and not table.deps
            and bool(table.items)
            and all(item.ty == INT and not item.vsrc for item in table.items)
        )

    def loader(
        self,
        node: ast.Call,
        kind: str,
        flag: str,
        kwargs: dict[str | None, Value],
        batches: Chunking | None = None,
    ) -> Value:
        flag_node = next((k.value for k in node.keywords if k.arg == flag), None)
        if _is_true(flag_node) or (batches is not None and not batches.reads and batches.full({})):
            return Value(ty="loader")
        taint = Taint(
            "RTL103",
            f"{kind} without {flag}=True",
            self.loc(node),
            frozenset({ItemSrc()}),
            full_if=batches,
        )
        return Value(ty="loader", shape=frozenset({taint}))

    def batches(self, node: ast.Call) -> Chunking | None:
        """When a torch ``DataLoader``'s batches are all full: its data set's length a multiple of
        its ``batch_size`` (``Chunking``: sizes known here, or read where the callers make them; a
        size not known keeps the short last batch). None: no data set or batch size to read (a
        sampler of batches, ``*args``)."""
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg in (None, "batch_sampler", "sampler") for k in node.keywords
        ):
            return None
        data = _argument(node, "dataset", 0)
        size = _argument(node, "batch_size", 1)
        if data is None or size is None:
            return None
        whole = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[data], keywords=[])
        return self.chunking(_RangeLoop("", None, ast.copy_location(whole, node), size))

    def grow_item(self, name: str, node: ast.Call) -> None:
        """``log[key].append(x)`` on a container ``log``: its structure grows at each iteration of
        the loops that keep it from one iteration to the next (``for rows in log.values()`` inside
        them, too)."""
        current = self.env.get(name)
        kept = tuple(i for i in self.loops if name not in self.assigned.get(i, ()))
        if current is None or not kept:
            return
        self.env[name] = self.grow(current, node, self.mod.pos.text(node), True, kept)

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
        updated = _updated_array(func.value) if method in AT_UPDATES else None
        if updated is not None:
            array = self.quiet(updated)
            if array.ty in (*ARRAYS, UNKNOWN):
                # x.at[i].set(v): an array of x's dtype, weak type and floor, varying with i and v.
                sources = receiver.vsrc.union(*(a.vsrc for a in (*args, *kwargs.values())))
                ty = ARRAY if array.ty == UNKNOWN else array.ty
                kept = array.with_(ty=ty, weak=followed([array]), items=(), ref=None, fields=())
                return kept.with_(vsrc=array.vsrc | sources)
        if method in _LIST_GROW_METHODS:
            held = self.held_in(func.value)
            if held is not func.value and isinstance(held, ast.Name):
                self.grow_item(held.id, node)
        if method in _LIST_RESIZE and isinstance(func.value, ast.Name):
            name = func.value.id
            current = self.env.get(name)
            if current is not None and current.ty in (LIST, LIST_LIKE, UNKNOWN):
                # Of unknown kind, it grows as a list does if it is one (``LIST_LIKE``): an
                # object may have an ``append`` of its own.
                current = current.with_(ty=LIST if current.ty == LIST else LIST_LIKE, ref=None)
                resized = self.resized(func.value, current, node, args)
                # A list kept from one iteration to the next grows with each; one made in this
                # iteration grows only when its new length still depends on an unknown one.
                kept = bool(self.loops) and name not in self.assigned.get(self.loops[-1], ())
                if method in _LIST_GROW_METHODS and self.loops and (kept or resized is None):
                    # Its length relative to this iteration's start is still worth knowing (a loop
                    # that appends the same number of items each time fills it to a known length).
                    grown = self.grow(current, node, self.mod.pos.text(node))
                    self.env[name] = grown.with_(dims=resized.dims if resized else None)
                elif resized is not None:
                    self.env[name] = resized
                if method in _LIST_GROW_METHODS and args:
                    added = args[-1]
                    if method == "extend":  # how many it adds is the resize's, not an item's
                        added = added.with_(shape=frozenset(t for t in added.shape if t.axis != 0))
                    self.env[name] = self.holding(name, self.env[name], added)
            if method in _LIST_GROW_METHODS and self.loops:
                return Value(ty=NONE)
        if method in _STR_SPLITS and receiver.ty in (STR, UNKNOWN) and receiver.vsrc:
            # "the cat sat".split(): one piece per word, as many as the text has.
            what = f"{self.mod.pos.text(node)} (as many pieces as the text has)"
            taint = Taint("RTL104", what, self.loc(node), receiver.vsrc, 0)
            return Value(ty=LIST, vsrc=receiver.vsrc, shape=frozenset({taint}))
        width = _STR_PADS.get(method)
        if width is not None and receiver.ty in (STR, UNKNOWN) and len(node.args) > width:
            return self.padded_text(node, node.args[width], receiver, args)
        if receiver.ty == DICT and method in _DICT_MUTATORS and isinstance(func.value, ast.Name):
            self.env[func.value.id] = receiver.with_(keys=None, fields=())
        if receiver.ty == "loader":
            if method == "batch":
                return self.loader(node, ".batch()", "drop_remainder", kwargs)
            if method in _LOADER_PASS_METHODS:
                return receiver
        if method == "batch" and _looks_like_tf_data(func.value):
            return self.loader(node, ".batch()", "drop_remainder", kwargs)
        # ``x.astype(dtype)`` makes an array whatever ``x`` is known to be (``mask.sum()``, of a
        # mask built with ``.at[...].set``): only arrays have the method.
        cast = method == "astype" and receiver.ty == UNKNOWN
        if receiver.ty in (*ARRAYS, JIT_OUT) or receiver.shape or receiver.deps or cast:
            if method == "reshape" and node.args:
                return self.reshape(node, receiver, args, node.args, receiver.ty)
            if method in _REDUCTIONS or method in _INDEX_FUNCTIONS:
                keep = "axis" in kwargs or bool(node.args) or method not in _REDUCTIONS
                if method in _REDUCTIONS and keep:
                    receiver = reduced(receiver, _reduced_axes(node, method, given=0))
                value = combine([receiver, *args], ty=receiver.ty, keep_shape=keep)
                if method in _REDUCTIONS and not keep and not keeps_rank(node):
                    made = ONE_VALUE_OF.get(receiver.ty, receiver.ty)
                    value = value.with_(ty=made, dims=NO_AXES)
                if method in _MADE_STRONG:
                    # ``mask.sum()``: strongly typed whatever the array was (measured as the
                    # function form is), so arithmetic with it is strong too; of the receiver's
                    # dtype or a wider one.
                    inexact = method in MAKES_INEXACT  # ``counts.mean()``: a float
                    floor = promoted_floor([receiver], self.loc(node), inexact)
                    value = value.with_(weak=MADE_STRONG, floor=floor)
                given = _argument(node, "dtype", None)
                dtype = self.dtype_given(given) if given else reduced_dtype(method, receiver.dtype)
                if dtype != receiver.dtype:
                    # ``mask.sum()``: the default integer, or the dtype asked for, decided here.
                    value = value.with_(dtype=dtype, made=self.loc(node) if dtype else None)
                elif dtype is not None and method in KEEPS_RECEIVER_DTYPE:
                    # ``c.sum(-1)`` of bfloat16: bfloat16, decided where ``c`` was made.
                    value = value.with_(dtype=dtype, made=array_made(receiver))
                if method in _INDEX_FUNCTIONS:
                    dtype = _index_dtype(method, receiver.ty in NUMPY_DATA)
                    value = value.with_(dtype=dtype, made=self.loc(node))
                return counted(value)
            if method == "astype" and node.args:
                given = node.args[0]
                dtype = self.dtype_given(given)
                made = receiver.with_(
                    items=(),
                    ty=ARRAY,
                    dtype=dtype,
                    made=self.loc(node) if dtype else None,
                    weak=MADE_STRONG,  # any dtype, even float: strong
                    dtype_of=None,
                    floor=None,
                )
                return self.dtype_chosen(self.dtype_followed(made, node, given), node, given)
            if method in _ARRAY_METHODS_KEEP:
                return receiver.with_(items=())
            if method in _ARRAY_METHODS_MOVE:
                return unaligned(receiver).with_(items=())
            if method in _ARRAY_TO_LISTS:
                # Made here: a list, whatever pytree the array was saved from (a tuple state).
                return receiver.with_(
                    ty=LIST, items=(), dtype=None, made=self.loc(node), weak=None, floor=None
                )
        if method in _NUMPY_RANDOM and (
            receiver.ty == RNG or (receiver.ty == UNKNOWN and "size" in kwargs)
        ):
            # A NumPy Generator's draws; a receiver of unknown type drawing `size=` values is one.
            return self.draw(node, method, args, kwargs)
        key = _literal_str(node.args[0]) if method == "get" and node.args else None
        if key is not None and receiver.param is not None and receiver.ty in (UNKNOWN, DICT):
            # `cfg.get("n", 128)` of a parameter: the item at that key, as `cfg["n"]` reads it
            # (each caller's dict is asked for that item alone), or the default.
            item = keyed_item(unaligned(receiver).with_(items=()), entry(key))
            return _or_default(item, args[1]) if len(args) > 1 else item
        if method == "get" and receiver.ty == DICT:
            element = _element(receiver)
            if args and not (receiver.vsrc or receiver.deps):
                # A constant table (`CODEBOOKS.get(year)`): another item, or the default, for
                # another key, as `CODEBOOKS[year]` gives another item.
                return element.with_(vsrc=element.vsrc | args[0].vsrc)
            return element
        if method == "update" and isinstance(func.value, ast.Name) and func.value.id in self.env:
            self.update_items(func.value.id, args, kwargs)
            current = self.env[func.value.id]
            kept = {n: v for n, v in current.fields if not n.startswith("[")}
            known = {n: v for n, v in current.fields if n.startswith("[")}
            items = self.merged_items(known, node, args, kwargs)
            self.env[func.value.id] = current.with_(fields=(*kept.items(), *sorted(items.items())))
        return None

    def padded_text(
        self, node: ast.Call, width: ast.expr, receiver: Value, args: list[Value]
    ) -> Value:
        """``text.ljust(width)``: a string as long as ``width`` (padding is for texts no longer
        than it), whatever made the text's length change before."""
        length = self.length(*self.size_poly(width))
        made = Taint("RTL105", _clip(self.mod.pos.text(node)), self.loc(node), EMPTY)
        text = receiver.with_(ty=STR, vsrc=receiver.vsrc | _args_vsrc(args, {}), items=())
        return self.with_length(text, 0, length, frozenset(dict(length.atoms)), made)

    def merged_items(
        self,
        items: dict[str, Value],
        node: ast.Call,
        args: list[Value],
        kwargs: dict[str | None, Value],
    ) -> dict[str, Value]:
        """The items of a dict known at literal keys (``items``) once ``dict(...)`` or
        ``.update(...)`` gives it a mapping, ``**`` mappings and keywords, in that order."""
        if len(args) == 1:
            items = self.spread_into(items, args[0])
        elif args:
            return {}
        for keyword in node.keywords:
            if keyword.arg is None:
                items = self.spread_into(items, self.quiet(keyword.value))
            else:
                items[entry(keyword.arg)] = kwargs[keyword.arg]
        return items

    def update_items(self, name: str, args: list[Value], kwargs: dict[str | None, Value]) -> None:
        """``d.update({"k": f}, j=g)``: from here on, those items of ``d`` are those functions."""
        updates = args[0].callables if len(args) == 1 else EMPTY
        for key, value in kwargs.items():
            updates = funcrefs.union(updates, funcrefs.nested(value.callables, repr(key)))
        if not updates:
            return
        current = self.env[name]
        refs = current.callables
        for key in sorted({path[0] for path, _ in updates if path}):
            refs = funcrefs.stored(refs, (key,), funcrefs.element(updates, key, deep=()))
        self.env[name] = current.with_(callables=refs)


def _is_super(node: ast.AST) -> bool:
    """``super()`` (or ``super(Cls, self)``)."""
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _structure_keyed(canon: str, args: list[Value], kwargs: dict[str | None, Value]) -> Value:
    """A result jax compares by the structure of the pytree it was made from (``_STRUCTURE_KEYED``):
    it changes only when that structure (or its leaves' shapes and dtypes) does, not with the
    leaves' values."""
    item, shapes = _STRUCTURE_KEYED[canon]
    tree = args[0]
    keyed = Value(vsrc=kind_sources(tree) | (shape_sources(tree) if shapes else EMPTY))
    if item is None:
        return keyed
    rest = combine([*args, *kwargs.values()], keep_shape=False)
    return Value(ty=TUPLE, items=tuple(keyed if i == item else rest for i in range(item + 1)))


# Callees whose result the linker reads from what they return: named functions and methods, and
# what a call returned (`schedule = Schedule(...)`; `schedule(episode)` is its `__call__`).
# What jax.grad and jax.value_and_grad return, told by the transform's value (``Value.ref``):
# "<grad|value_and_grad>:<has_aux>:<argnums>" for a literal has_aux and an int argnums.
_DIFFERENTIATE = frozenset({"grad", "value_and_grad"})


def _differentiated(node: ast.Call, name: str) -> str | None:
    """``Value.ref`` of a ``jax.grad``/``value_and_grad`` transform whose outputs are known: its
    ``has_aux`` and ``argnums`` are literals (argnums an int)."""
    if name not in _DIFFERENTIATE:
        return None
    options = {k.arg: k.value for k in node.keywords}
    aux, argnums = options.get("has_aux"), options.get("argnums")
    if any(not isinstance(o, ast.Constant) for o in (aux, argnums) if o is not None):
        return None
    number = 0 if argnums is None else argnums.value  # type: ignore[union-attr]
    if type(number) is not int or len(node.args) != 1:
        return None
    return f"{name}:{bool(aux is not None and aux.value)}:{number}"  # type: ignore[union-attr]


def _jit_call_result(
    jit: Value | None, args: list[Value], kwargs: dict[str | None, Value]
) -> Value:
    """What a call of the jitted function ``jit`` returns: a jitted gradient (``Value.ref`` of its
    transform) as the gradient says, else jax arrays as weakly typed as all its inputs."""
    result = _jit_result(args, kwargs)
    if jit is not None and jit.ref is not None:
        return _gradient_outputs(jit.ref, result, args)
    return result


def _gradient_outputs(spec: str, result: Value, args: list[Value]) -> Value:
    """What a call of ``jax.grad(f, ...)`` (``spec``: ``_differentiated``) returns, ``result``
    being what f returns for the call: the gradients have the structure and dtype of the argument
    they are taken of; ``has_aux`` makes f return (value, aux)."""
    name, aux, number = spec.split(":")
    position = int(number)
    if position >= len(args):
        return Value(vsrc=result.vsrc)  # the argument differentiated is passed by keyword
    grads = _cotangent(args[position])
    if name == "value_and_grad":
        return _pair(result, grads)
    if aux == "True":
        item = frozenset(replace(d, item=1) for d in result.deps if isinstance(d, RetDep))
        return _pair(grads, Value(deps=item, vsrc=result.vsrc))
    return grads


def _carry_passed(kind: str, value: Value) -> Value:
    """What a lax loop's body gets for one parameter (``apis.CarryLoop``): the argument, a slice
    of it along its first axis (its dtype and weak type), or the loop's index."""
    if kind == ARGUMENT:
        return value
    if kind == COUNTER:
        return Value(ty=ARRAY, dtype="int32", vsrc=value.vsrc)
    return Value(
        ty=value.ty if value.ty in ARRAYS else UNKNOWN,
        vsrc=value.vsrc,
        deps=value.deps,
        dtype=value.dtype,
        dtype_of=dtype_taken(value),
        weak=value.weak,
    )


def _carried_back(init: Value, given: Value | None) -> Value:
    """The carry a lax loop gives back, from its initial carry (``apis.CarryLoop``): the same
    pytree (a tuple's items, a dict's keys, an instance of the same class), each number or array
    leaf a jax array of its shape and dtype. A leaf that starts strongly typed stays so; a weakly
    typed one is as the body gives it back (``given``, where known here), else not known."""
    if init.ty in (TUPLE, LIST) and init.items:
        parts = given.items if given is not None and len(given.items) == len(init.items) else ()
        backs = parts or (None,) * len(init.items)
        return init.with_(items=tuple(map(_carried_back, init.items, backs)))
    if init.ty not in ARRAYS and init.ty not in _SCALAR_DTYPES:
        return init
    kind = STRONG if init.ty == BOOL else weak_class(init)
    if kind != STRONG and given is not None:
        kind = weak_class(given)
    if kind == WEAK:
        return init  # kept weak: one cache key with the Python number it may start as
    dtype = _SCALAR_DTYPES.get(init.ty, init.dtype)
    return init.with_(ty=ARRAY, dtype=dtype, weak=MADE_STRONG if kind == STRONG else UNSURE)


# The dtype of a leaf jax makes of a Python number, in the 64-bit names summaries keep.
_SCALAR_DTYPES = {BOOL: "bool", INT: "int64", FLOAT: "float64", COMPLEX: "complex128"}


def _pair(first: Value, second: Value) -> Value:
    return Value(
        ty=TUPLE,
        items=(first, second),
        vsrc=first.vsrc | second.vsrc,
        deps=first.deps | second.deps,
    )


def _cotangent(primal: Value) -> Value:
    """The gradient with respect to ``primal``: a pytree of its structure, each leaf of its dtype,
    as weakly typed as it is (of a Python float, a weakly typed jax array)."""
    if primal.ty in (FLOAT, JIT_OUT_WEAK):
        return Value(ty=JIT_OUT_WEAK, vsrc=primal.vsrc, deps=primal.deps)
    array = primal.ty in ARRAYS
    return Value(
        ty=primal.ty if array or primal.ty in (TUPLE, LIST, DICT) else UNKNOWN,
        vsrc=primal.vsrc,
        deps=primal.deps,
        items=tuple(_cotangent(item) for item in primal.items),
        keys=primal.keys,
        dtype=primal.dtype,
        dtype_of=dtype_taken(primal),
        weak=primal.weak if array else (FOLLOWS if primal.deps else None),
    )


# "global": a local bound to project functions (``train_fn = step_logged if verbose else step``):
# what its call returns is read off the callees, as a named call's is, so that a field the callee
# copies from its argument (``TrainState(..., optimizer=state.optimizer)``) stays that argument's.
def _called_anew(called: Value | None) -> frozenset[Src]:
    """What a call of the local value ``called`` gives its result for a function that differs
    per iteration of a loop (``CalleeSrc``)."""
    if called is None:
        return EMPTY
    return frozenset(CalleeSrc(src.index) for src in called.vsrc if isinstance(src, LoopSrc))


_RESULT_KNOWN_AT_LINK = ("name", "qual", "global", "method", "self", "recv", "super", "ret")


def _names_class(param: str) -> bool:
    """Whether a parameter's name says it holds a class (``Model``, ``network_cls``)."""
    return _looks_like_class(param) or param.endswith(("_cls", "_class"))


def _float_kind(value: Value, x64: bool) -> bool:
    """Whether ``value`` is a float: a Python float or an array of a float dtype."""
    return value.ty in (FLOAT, FLOAT_LIKE) or (dtype_kind(value, x64) or "").startswith("float")


def _class_read_off(func: ast.AST) -> ast.expr | None:
    """``x`` when ``func`` reads the class of object ``x`` (``type(x)``, ``x.__class__``): calling
    it makes another instance of that class (scikit-learn's ``clone``)."""
    if isinstance(func, ast.Attribute) and func.attr == "__class__":
        return func.value
    args = builtin_args(func, "type", 1)
    return args[0] if args is not None else None


def _argument_given(node: ast.Call, keyword: str, position: int) -> bool:
    """Whether an argument is given (by keyword, at its position), and not None: a container's
    bound, ``round``'s digits."""
    given = _argument(node, keyword, position)
    return given is not None and not (isinstance(given, ast.Constant) and given.value is None)


def _builtin_kind(node: ast.Call, canon: str, args: list[Value]) -> str:
    """The kind of what a builtin of ``apis.BUILTIN_KINDS`` gives; of its operand's kind where
    ``OPERAND_KIND_WITH`` says so (most likely a float where that is not known)."""
    operand_with = OPERAND_KIND_WITH.get(canon)
    if operand_with is None or not _argument_given(node, *operand_with):
        return BUILTIN_KINDS[canon]
    return args[0].ty if args and args[0].ty in (INT, FLOAT) else FLOAT_LIKE


def _truth(node: ast.AST, defs: dict[str, ast.AST], stores: Callable[[str], int]) -> int | None:
    """A flag as ``True`` or ``False`` written, or as the one assignment of a local name (a name
    bound twice may be either; ``stores`` counts a name's bindings): 1 or 0."""
    if isinstance(node, ast.Name):
        node = defs.get(node.id) if stores(node.id) == 1 else None
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return int(node.value)
    return None


def _updated_array(node: ast.expr) -> ast.expr | None:
    """``x`` of ``x.at[i]`` (the receiver of ``.set(v)``), when ``x`` is a name or an attribute."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Attribute):
        return None
    at = node.value
    if at.attr != "at" or not isinstance(at.value, ast.Name | ast.Attribute):
        return None
    return at.value


def _or_default(item: Value, default: Value) -> Value:
    """A caller's item or ``default`` (``cfg.get(key, default)``). Beside a container default the
    item keeps a type not known here, as the caller's container may be another: a join would take
    the default's type without its items, and an element a parameter's container gives is taken
    alike for every index, so ``cfg.get("tasks", ("full",))[i]`` would stop varying with ``i``."""
    joined = join(item, default)
    return joined.with_(ty=UNKNOWN) if default.ty in (TUPLE, LIST, DICT) else joined


def _literal_str(node: ast.expr) -> str | None:
    """The text of a string literal."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
