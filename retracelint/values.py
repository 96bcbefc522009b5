"""The abstract values the summariser computes for expressions, and what makes them vary.

A value is described by *what changes between calls*, not by what it is: its Python-level value may change
(``vsrc``), its shape or pytree structure may change (``shape``: one ``Taint`` per reason), and for objects
compared by identity, whether a fresh object is made each time (``fresh``). Each of these names its sources:
a loop of the enclosing function (varies per iteration), a parameter (varies if the callers make it vary),
the call itself (a fresh object per call of the function), or an item of a generator. Whether a source is
really active is decided later, along the call graph, by ``propagate``.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Generic, TypeVar

from retracelint import funcrefs
from retracelint.funcrefs import FuncRef
from retracelint.model import Location
from retracelint.ordering import stable_repr


@dataclass(frozen=True)
class LoopSrc:
    """Varies per iteration of loop ``index`` of the enclosing function."""

    index: int


@dataclass(frozen=True)
class ParamSrc:
    """Varies when the value passed for parameter ``name`` varies (only its item at the literal key
    ``key``, an ``entry``, when given: ``cfg["n"]`` varies as the item the callers' dicts hold)."""

    name: str
    key: str | None = None


@dataclass(frozen=True)
class ParamShapeSrc:
    """Varies when the shape (or length) of the value passed for parameter ``name`` varies (only
    its axis ``axis``, when given; only its kind, when ``axis`` is ``KIND``)."""

    name: str
    axis: int | None = None

    def sees(self, taint: Taint | None) -> bool:
        """Whether a change of the argument's shape, ``taint``, changes this length."""
        return _axis_sees(self.axis, taint)


# ParamShapeSrc's axis for the kind of the argument: whether it is None, weakly typed, its dtype,
# its pytree structure (what ``if x is None`` tests).
KIND = -1
FLIP_CODES = frozenset({"RTL401", "RTL402", "RTL403"})


def _axis_sees(axis: int | None, taint: Taint | None) -> bool:
    """Whether a change of a value's shape, ``taint``, changes its length along ``axis`` (any, when
    None; only its kind, when ``KIND``)."""
    if axis == KIND:
        return taint is not None and taint.code in FLIP_CODES
    return taint is None or taint.axis is None or axis is None or taint.axis == axis


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


@dataclass(frozen=True)
class Made:
    """An object made by the call at ``at`` (element ``item`` of the tuple it returns, when given),
    or its attribute ``path`` (dotted). Locations name calls across the whole project, so a value
    keeps its meaning when it is returned to a caller."""

    at: Location
    item: int | None = None
    path: str = ""

    def attr(self, name: str) -> Made:
        return Made(self.at, self.item, f"{self.path}.{name}" if self.path else name)


# What an object value may be: a parameter of the function (its name; ``self.model`` for an
# attribute of one), or an object made by a call.
Obj = str | Made


@dataclass(frozen=True)
class FieldSrc:
    """Varies when the attribute ``made`` (a ``Made`` with a path) varies: its value, or its shape
    (on axis ``axis``, when given) if ``shape``."""

    made: Made
    shape: bool = False
    axis: int | None = None

    def sees(self, taint: Taint | None) -> bool:
        return _axis_sees(self.axis, taint)


@dataclass(frozen=True)
class ChoiceSrc:
    """An item of a list of instances that loop ``loop`` walks: one of the objects ``fields`` per
    iteration. Read off it, an attribute (``fields``: that attribute of each object, a ``Made``
    with a path) varies per iteration unless every object holds the same value there."""

    loop: int
    fields: frozenset[Made]
    # The items were made one per iteration of a loop (a comprehension, ``append``): each of
    # ``fields`` stands for every object its call made, which differ where what the call is given
    # for the attribute changes from one iteration to the next.
    each: bool = False


@dataclass(frozen=True)
class ElemShapeSrc:
    """Varies when the elements the callers pass for parameter ``name`` differ in shape (on axis
    ``axis``, when given) from one to the next: per iteration of loop ``loop``, which takes them one
    by one (``for seq in seqs: np.zeros(len(seq))``)."""

    name: str
    loop: int
    axis: int | None = None

    def sees(self, taint: Taint | None) -> bool:
        return _axis_sees(self.axis, taint)


@dataclass(frozen=True)
class DrawSrc:
    """A draw from what is passed for parameter ``name`` (``n = rng.poisson(3.0)``): when the
    callers pass a NumPy random generator, a new value per iteration of loop ``loop`` of the function
    (per call of it, when None or seen from its callers)."""

    name: str
    loop: int | None = None


@dataclass(frozen=True)
class ResizeSrc:
    """In a function's result: it is parameter ``name`` resized by a constant (one row longer,
    ``p[1:]``). A caller that passes a value and keeps the result in its place, iteration after
    iteration, resizes it every iteration."""

    name: str


@dataclass(frozen=True)
class RebindSrc:
    """Scratch: ``name = call(..., name, ...)`` in loop ``loop``, the call at ``call``: the value
    changes size per iteration if the callee returns that argument resized (resolved by
    ``propagate``; never exported)."""

    call: Location
    name: str
    loop: int


@dataclass(frozen=True)
class RetSrc:
    """In a size: varies when what call ``call`` of the function returns varies (element ``item``
    of the tuple it returns): its value, or its length along ``axis`` when ``shape``. Resolved by
    ``propagate`` against the callee's summary before the value leaves the function."""

    call: int
    item: int | None = None
    shape: bool = False
    axis: int | None = None
    key: str | None = None  # the item of the dict it returns at this key


@dataclass(frozen=True)
class AltSrc:
    """In a weak-type flip told only once the callers and callees are known (``MAYBE_WEAK``): a
    branch of function ``function`` binds ``name`` to ``first`` (at ``first_at``) and another to
    ``then`` (at ``then_at``), of kinds its own body does not show (what a parameter or a call
    gives, arithmetic on them). Not a source of variation: ``propagate`` asks each value's weak
    type where it is made and keeps the taint, as RTL401, when one is weak and the other strong."""

    function: str
    name: str
    first: Value
    first_at: Location
    then: Value
    then_at: Location


@dataclass(frozen=True)
class CalleeSrc:
    """Made by calling a function that differs per iteration of loop ``loop`` (the loop's item,
    ``for name, make in builders.items(): make(x)``, or a factory made from it): another
    computation per iteration, whose result's shape is that function's, not its arguments'."""

    loop: int


Src = (
    LoopSrc
    | CalleeSrc
    | ParamSrc
    | ParamShapeSrc
    | CallSrc
    | ItemSrc
    | CarrySrc
    | ResizeSrc
    | RebindSrc
    | FieldSrc
    | RetSrc
    | ChoiceSrc
    | DrawSrc
    | ElemShapeSrc
    | AltSrc
)


Terms = tuple[tuple[tuple[str, ...], int], ...]  # a polynomial, as a summary keeps it


@dataclass(frozen=True)
class Chunking:
    """The chunks of ``range(start, stop, step)`` in function ``function`` are all full when
    ``span`` (stop - start) is a multiple of ``step``: polynomials whose atoms are read where the
    callers make them (``reads``: per atom, the function whose callers make it and the value whose
    int it is, with an axis None, or the value whose length along the axis it is) or computed from
    others (``derived``, in order: per atom, numerator // denominator, as an enclosing function
    computes a local its closure reads)."""

    function: str
    span: Terms
    step: Terms
    reads: tuple[tuple[str, str, Value, int | None], ...]
    derived: tuple[tuple[str, Terms, Terms], ...] = ()
    # The function branches on the remainder (``if n % step:``): it expects a short last chunk.
    remainder: bool = False

    def step_reads(self) -> frozenset[str]:
        """The atoms read (``reads``) that the step is computed from."""
        names = {atom for monomial, _ in self.step for atom in monomial}
        for name, numerator, denominator in reversed(self.derived):
            if name in names:
                names |= {atom for monomial, _ in (*numerator, *denominator) for atom in monomial}
        return frozenset(names & {read[0] for read in self.reads})

    def full(self, sizes: dict[str, int]) -> bool:
        """Whether the last chunk is full when each atom read has the size ``sizes`` gives it."""
        sizes = dict(sizes)

        def evaluate(terms: Terms) -> int:
            total = 0
            for monomial, coefficient in terms:
                for atom in monomial:
                    coefficient *= sizes[atom]
                total += coefficient
            return total

        for name, numerator, denominator in self.derived:
            divisor = evaluate(denominator)
            if divisor == 0:
                return False  # the enclosing function raises before any chunk
            sizes[name] = evaluate(numerator) // divisor
        step = evaluate(self.step)
        return step > 0 and evaluate(self.span) % step == 0


# The code of a taint that stands for a ``RebindSrc`` until it is resolved.
REBIND = "rebind"


@dataclass(frozen=True)
class Taint:
    """One reason why a value's shape or structure changes: rule code, what, where, and when."""

    code: str
    what: str
    origin: Location
    sources: frozenset[Src]
    # The axis whose length it changes, when that is known; None: some axis, or the pytree structure.
    axis: int | None = None
    # For a last chunk (RTL103) whose sizes come from the callers: when they make it always full.
    full_if: Chunking | None = None
    # For a last chunk (RTL103) that the code skips when a flag is true (``if self.drop_last and
    # len(idx) < self.batch_size: return``): the function that reads the flag and its value there,
    # read where the callers make it (``Loader(x, y, 4, drop_last=True)``).
    dropped_if: tuple[str, Value] | None = None
    # For the pieces of a split into a count of them (``np.array_split(x, 100)``, RTL103): uneven
    # only where the length is known not to be a multiple, as a count a user picks most often
    # divides the data; where the length is not known, uneven pieces are an assumption.
    pieces: bool = False
    # For a flip between a Python int and a Python float (``min(1, step / warmup)``, ``0 if cold
    # else 0.5``): arithmetic with a float makes a float of either (``promotion.float_either``).
    numbers: bool = False

    def with_sources(self, sources: frozenset[Src]) -> Taint:
        return replace(self, sources=sources)

    def unlabelled(self) -> Taint:
        return self if self.axis is None else replace(self, axis=None)


# Each dependency is a view of what it refers to: ``fixed`` lists the axes (of the referred value) whose
# changes do not reach this value (it was padded or cut to a fixed length there), and ``aligned`` says
# whether this value's axes are still the referred value's axes (not after a transpose, a reshape, a
# broadcast...): only then can the referred value's axis labels be trusted here. ``joined`` says the
# referred value is a list joined into an array here (``np.stack``: 1, ``np.concatenate``: 0): the
# list's own length is the first axis, and an item's axis ``k`` is the array's ``k + joined``; ``fixed``
# and ``aligned`` then speak of the array's axes.


# A dependency can also refer to the elements of what it names (``elem``): an element taken per
# iteration of loop ``elem`` of the function (``for x in xs``, ``xs[i]``), or, when ``elem`` is
# ``ITEM``, any element (a container's elements, per element). What varies per element of a value is
# written with ``ItemSrc``; what varies per element of a container built in a loop (a comprehension,
# ``append``) is, before the call it comes from is resolved, what varies per iteration of that loop:
# ``each`` lists those loops. A taint that changes per element names its axis in the element's axes.
ITEM = -1


@dataclass(frozen=True)
class ParamDep:
    """The value is (a view of) parameter ``name``: it inherits that argument's shape changes."""

    name: str
    fixed: frozenset[int | None] = frozenset()  # axes it no longer changes (``WHOLE_SHAPE``)
    aligned: bool = True
    elem: int | None = None
    joined: int | None = None
    # The item at this literal key of the parameter (``cfg["lr"]``): where an item's weak type is
    # decided, the callers' dicts are asked for that item (``WeakKinds``).
    key: str | None = None


@dataclass(frozen=True)
class RetDep:
    """The value is the result of call ``call`` (an index into the function's call sites)."""

    call: int
    item: int | None = None  # element `item` of the tuple it returns (`a, b = f()`)
    fixed: frozenset[int | None] = frozenset()  # axes it no longer changes (``WHOLE_SHAPE``)
    aligned: bool = True
    elem: int | None = None
    joined: int | None = None
    each: frozenset[int] = frozenset()
    # The item of the dict it returns at a literal key (`f()["n"]`): only a size read from it
    # (``RetSrc``) tells it from the whole.
    key: str | None = None
    # The items within item ``item``, outermost first, that unpacking it again took (``carry, ys =
    # lax.scan(...)`` then ``state, _ = carry``: item 0 of the body's item 0).
    below: tuple[int, ...] = ()


@dataclass(frozen=True)
class IterDep:
    """The value is an item of iterating, in loop ``loop``, over the result of call ``call``."""

    call: int
    loop: int
    item: int | None = None  # element `item` of each tuple it yields (`for a, b in batches()`)
    fixed: frozenset[int | None] = frozenset()  # axes it no longer changes (``WHOLE_SHAPE``)
    aligned: bool = True
    elem: int | None = None
    joined: int | None = None
    each: frozenset[int] = frozenset()
    # Iterating element `of` of the tuple the call returns (`xs, ys = load()`, then `for x in xs`):
    # the other elements never reach the loop.
    of: int | None = None


@dataclass(frozen=True)
class FieldDep:
    """The value is (a view of) the attribute ``made`` (a ``Made`` with a path): it inherits the shape
    changes of what is stored there (of one of its elements, ``elem``, as for ``ParamDep``: the
    elements of an attribute are not followed)."""

    made: Made
    fixed: frozenset[int | None] = frozenset()  # axes it no longer changes (``WHOLE_SHAPE``)
    aligned: bool = True
    elem: int | None = None
    joined: int | None = None


Dep = ParamDep | RetDep | IterDep | FieldDep

# In a dependency's ``fixed``: every axis. The dependent value's whole shape is known (each axis's
# length), so no change of the shape it depends on, at any axis or at none in particular, reaches it.
WHOLE_SHAPE = None


# In a dependency's ``fixed``: the dependent value is an array made of what it refers to
# (``jnp.asarray(best(x))``), never None (``jnp.asarray(None)`` raises), so a flip between None and
# something else there does not reach it.
NEVER_NONE = -2
# In a dependency's ``fixed``: the dependent value is one item of what it refers to (``xs[i]``,
# ``d.get(k)``), so a change of how many items the container holds (its axis 0) does not reach it;
# how its items differ from one another (``ItemSrc``) does. A pool that grows while a fixed number
# of its items is drawn gives items of one shape.
ONE_ITEM = -3
# In a dependency's ``fixed``: the dependent value had an attribute read off it before it got here
# (``state.aux.logs`` on the line after ``state = update(state)``): on None that raises, so a flip
# between None and something else does not reach it; other flips of its structure do.
READ_OFF = -4
# A flip whose account names None as one of its kinds (``x starts as None and is an array``).
_NONE_KIND = re.compile(r"\bNone\b")


def none_flip(taint: Taint) -> bool:
    """Whether ``taint`` is a flip between None and something else."""
    return taint.code == "RTL403" and _NONE_KIND.search(taint.what) is not None


def _leaf_flip(taint: Taint) -> bool:
    """Whether ``taint`` changes nothing of an array made of the value it is on: a flip between None
    and something else (the array is never None), or any other pytree structure's (an array is
    one leaf whatever it was made of: the kinds read out of dicts whose keys differ)."""
    return none_flip(taint) or taint.code == "RTL403"


def axes_fixed(dep: Dep) -> frozenset[int | None]:
    """The axes ``dep`` fixes (``NEVER_NONE`` is no axis)."""
    return dep.fixed - {NEVER_NONE, ONE_ITEM, READ_OFF}


def read_off(value: Value) -> Value:
    """``value`` once an attribute was read off it (``READ_OFF``): not None, whatever else it
    may be (a call's result typed None here was something else where the read did not raise).
    A value that cannot be None here (no None in it, no call's result) stays as it is: its deps
    keep comparing equal to those a dtype was taken from (``x.astype(row.dtype)``)."""
    if not (
        value.ty == NONE
        or any(none_flip(t) for t in value.shape)
        or any(isinstance(d, RetDep) for d in value.deps)
    ):
        return value
    shape = frozenset(t for t in value.shape if not none_flip(t))
    deps = frozenset(replace(d, fixed=d.fixed | {READ_OFF}) for d in value.deps)
    return value.with_(ty=UNKNOWN if value.ty == NONE else value.ty, shape=shape, deps=deps)


def never_none(dep: Dep) -> Dep:
    """``dep`` for an array made of the value it refers to (``NEVER_NONE``)."""
    return replace(dep, fixed=dep.fixed | {NEVER_NONE})


def made_anew(loops: Sequence[int], module_level: bool = False) -> frozenset[Src]:
    """Where an object made under ``loops`` comes from: a new one per iteration of the innermost,
    per call of its function, or once at a module's top level."""
    if loops:
        return frozenset({LoopSrc(loops[-1])})
    return EMPTY if module_level else frozenset({CallSrc()})


def shapeless(dep: Dep) -> Dep:
    """``dep`` for a value that follows what it refers to but none of its shape (``max(a, b)`` of
    numbers, a whole shape known axis by axis)."""
    return replace(dep, fixed=dep.fixed | {WHOLE_SHAPE})


def fixes(dep: Dep, axis: int | None) -> bool:
    """Whether ``dep`` brings no change of axis ``axis`` (None: a change at no axis in particular):
    that axis is fixed, or the whole shape is."""
    return WHOLE_SHAPE in dep.fixed or axis in dep.fixed


def sees(dep: Dep, taint: Taint) -> Taint | None:
    """``taint`` of the value ``dep`` refers to, as the dependent value sees it (None: not at all)."""
    if dep.joined is not None:
        taint = joined_taint(taint, dep.joined)
    if fixes(dep, taint.axis) or (NEVER_NONE in dep.fixed and _leaf_flip(taint)):
        return None
    if READ_OFF in dep.fixed and none_flip(taint):
        return None
    if ONE_ITEM in dep.fixed and taint.axis == 0 and ItemSrc() not in taint.sources:
        return None  # how many items there are, not what one of them is
    if ItemSrc() in taint.sources and dep.fixed >= _BEYOND_ROWS:
        return None  # how the items differ is no change of how many there are (``rows_of``)
    return taint if dep.aligned else taint.unlabelled()


def through(value: Value, dep: Dep) -> Value:
    """``value``, which ``dep`` refers to, as the dependent value sees it: its changes on the axes
    ``dep`` fixes are gone, and its axis labels hold only while the axes are aligned; collected into
    a container per iteration of ``dep.each``, or one of its elements (``dep.elem``)."""
    if isinstance(dep, RetDep | IterDep) and dep.each:
        value = collected(value, dep.each)
    if dep.elem is not None:
        value = picked(value, dep.elem)
    if not dep.fixed and dep.aligned and dep.joined is None:
        return value
    shape = frozenset(seen for t in value.shape if (seen := sees(dep, t)) is not None)
    deps = frozenset(_compose(inner, dep) for inner in value.deps)
    ty = UNKNOWN if READ_OFF in dep.fixed and value.ty == NONE else value.ty
    return value.with_(ty=ty, shape=shape, deps=deps)


def collected(value: Value, loops: frozenset[int]) -> Value:
    """``value`` as an element of a container filled once per iteration of ``loops``: what changes
    per iteration of them changes per element."""
    if not loops:
        return value

    def per_element(sources: frozenset[Src]) -> frozenset[Src]:
        if not any(isinstance(s, LoopSrc) and s.index in loops for s in sources):
            return sources
        kept = frozenset(s for s in sources if not (isinstance(s, LoopSrc) and s.index in loops))
        return kept | {ItemSrc()}

    deps: set[Dep] = set()
    for dep in value.deps:
        if isinstance(dep, ParamDep | FieldDep):
            deps.add(replace(dep, elem=ITEM) if dep.elem in loops else dep)
        else:
            deps.add(replace(dep, each=dep.each | loops))
    return value.with_(
        vsrc=per_element(value.vsrc),
        shape=frozenset(t.with_sources(per_element(t.sources)) for t in value.shape),
        deps=_frozen(deps),
    )


def picked(value: Value, per: int) -> Value:
    """One element of the container ``value``, taken per iteration of loop ``per`` (``ITEM``: any
    one, per element): what changes per element changes with it, what changes the container's own
    shape (its length) does not."""
    item: frozenset[Src] = frozenset({ItemSrc() if per == ITEM else LoopSrc(per)})

    def as_item(sources: frozenset[Src]) -> frozenset[Src]:
        return (sources - {ItemSrc()}) | item if ItemSrc() in sources else sources

    # What changes per element is written in the element's axes: they are the item's.
    shape = frozenset(
        t.with_sources(as_item(t.sources)) for t in value.shape if ItemSrc() in t.sources
    )
    deps = frozenset(replace(d, elem=per, fixed=frozenset(), aligned=True) for d in value.deps)
    rows = value.ty in ARRAYS  # the rows of an array are arrays of its dtype
    vsrc = as_item(value.vsrc)
    if value.elements and per != ITEM:
        # Which of the objects a loop filled it with this one is changes per iteration.
        vsrc |= {ChoiceSrc(per, value.elements, each=True)}
    return Value(
        ty=value.ty if rows else UNKNOWN,
        vsrc=vsrc,
        shape=shape,
        deps=deps,
        dtype=value.dtype if rows else None,
        objs=value.elements,
    )


def typed_item(array: Value, item: Value) -> Value:
    """``item``, taken from ``array`` by iterating or unpacking it (``for lr in rates``, ``lo, hi =
    bounds``), with the dtype it surely shares: a strongly typed array's rows, a NumPy array's
    scalars, are of its dtype and strong whatever the rank (``np.float64`` items of a float64
    schedule widen a float32 state under x64). Of unknown kind, such an item is a pytree whose
    leaves are all of that dtype (``leaves_dtype``'s tree). ``item`` as it is for anything else."""
    strong = array.ty in NUMPY_DATA or (array.ty in ARRAYS and weak_class(array) == STRONG)
    if not strong or array.dtype is None:
        return item
    return item.with_(dtype=array.dtype, made=array.made or item.made, weak=MADE_STRONG)


def _compose(inner: Dep, outer: Dep) -> Dep:
    """``inner`` (a dependency of what ``outer`` refers to) seen through ``outer``."""
    if fixes(outer, WHOLE_SHAPE):  # none of inner's changes reach it, at any axis
        return shapeless(inner)
    if not inner.aligned:
        return inner
    if outer.aligned and not outer.fixed and outer.joined is None:
        return inner
    if outer.joined is not None:
        # Joined after its own fixes or joins, its axes are not known.
        if axes_fixed(inner) or inner.joined is not None or inner.elem is not None:
            return replace(inner, aligned=False)
        return replace(inner, joined=outer.joined, fixed=outer.fixed, aligned=outer.aligned)
    return replace(inner, fixed=inner.fixed | outer.fixed, aligned=outer.aligned)


# Every axis but the first (NumPy allows 64).
_BEYOND_ROWS = frozenset(range(1, 64))


@lru_cache(maxsize=4096)
def rows_of(dep: Dep) -> Dep:
    """``dep`` for a value as long as what it refers to, and nothing else of its shape (a list
    filled once per item of it, a comprehension over it)."""
    return replace(dep, fixed=_BEYOND_ROWS, aligned=True)


@lru_cache(maxsize=4096)
def unaligned_dep(dep: Dep) -> Dep:
    """``dep`` for a value whose axes are no longer those of what it refers to."""
    return dep if not dep.aligned else replace(dep, aligned=False)


def joined_taint(taint: Taint, item_shift: int) -> Taint:
    """``taint`` of a list, in an array joined from it: a change of the list's own length changes
    the first axis, a change of an item's axis ``k`` (``ItemSrc``) the axis ``k + item_shift``."""
    if ItemSrc() in taint.sources:
        return taint if taint.axis is None else replace(taint, axis=taint.axis + item_shift)
    shaping = taint.code not in KIND_CODES
    return replace(taint, axis=0) if taint.axis is None and shaping else taint


def joined_value(value: Value, item_shift: int) -> Value:
    """The list ``value`` joined into an array (``item_shift``: as in ``joined_taint``); what it
    depends on is seen joined too, where its axes are known."""
    shape = frozenset(joined_taint(t, item_shift) for t in value.shape)
    deps = frozenset(_joined_dep(d, item_shift) for d in value.deps)
    return value.with_(shape=shape, deps=deps, dims=None)


def stacked_value(value: Value, axis: int) -> Value:
    """The list ``value`` stacked along a new axis ``axis`` (``np.stack(frames, axis=1)``): a change
    of its length changes that axis, one of an item's axis ``k`` the axis ``k`` (``k + 1`` from
    ``axis`` on); what it depends on is no longer known axis by axis."""

    def moved(taint: Taint) -> Taint:
        if ItemSrc() in taint.sources:
            at = taint.axis
            return taint if at is None or at < axis else replace(taint, axis=at + 1)
        return replace(taint, axis=axis) if taint.code not in KIND_CODES else taint

    shape = frozenset(moved(t) for t in value.shape)
    return value.with_(shape=shape, deps=frozenset(unaligned_dep(d) for d in value.deps), dims=None)


def _joined_dep(dep: Dep, item_shift: int) -> Dep:
    if dep.aligned and not axes_fixed(dep) and dep.joined is None and dep.elem is None:
        return replace(dep, joined=item_shift)
    return unaligned_dep(dep)


def unaligned(value: Value) -> Value:
    """``value`` after an operation that may move its axes: what its axes were is no longer known."""
    if (
        value.dims is None
        and not any(t.axis is not None for t in value.shape)
        and not any(d.aligned for d in value.deps)
    ):
        return value
    return value.with_(
        shape=frozenset(t.unlabelled() for t in value.shape),
        deps=frozenset(unaligned_dep(d) for d in value.deps),
        dims=None,
    )


EMPTY: frozenset = frozenset()

# A polynomial over opaque atoms (a length, a slice bound): monomial (sorted atom names) -> coefficient.
# Integer coefficients: lengths add, subtract and multiply; a division that is not exact is an atom.
Poly = dict[tuple[str, ...], int]


def poly_constant(poly: Poly) -> int | None:
    """The value of a polynomial without atoms; None when it has some."""
    if len(poly) > 1 or (poly and () not in poly):
        return None
    return poly.get((), 0)


@dataclass(frozen=True)
class Length:
    """The length of one axis as a polynomial over opaque atoms, and what makes each atom change."""

    terms: tuple[tuple[tuple[str, ...], int], ...]
    atoms: tuple[tuple[str, frozenset[Src]], ...]

    @staticmethod
    def of(poly: Poly, sources: dict[str, frozenset[Src]]) -> Length:
        names = sorted({atom for monomial in poly for atom in monomial})
        return Length(tuple(sorted(poly.items())), tuple((n, sources.get(n, EMPTY)) for n in names))

    @property
    def poly(self) -> Poly:
        return dict(self.terms)

    @property
    def constant(self) -> int | None:
        """The length, when it has no atoms."""
        return poly_constant(self.poly)

    @property
    def sources(self) -> frozenset[Src]:
        out: frozenset[Src] = EMPTY
        for _, srcs in self.atoms:
            out = out | srcs if srcs else out
        return out


@lru_cache(maxsize=64)
def constant_length(n: int) -> Length:
    return Length((((), n),) if n else (), ())


@dataclass(frozen=True)
class Dims:
    """What is known of an array's (or a list's) lengths: ``lens[k]`` is axis k's length (None when
    unknown); ``ranked`` when the value has exactly ``len(lens)`` axes."""

    lens: tuple[Length | None, ...]
    ranked: bool = False

    def length(self, axis: int) -> Length | None:
        return self.lens[axis] if 0 <= axis < len(self.lens) else None

    def with_length(self, axis: int, length: Length | None) -> Dims:
        lens = list(self.lens) + [None] * (axis + 1 - len(self.lens))
        lens[axis] = length
        return Dims(tuple(lens), self.ranked and axis < len(self.lens))


# A 0-d array (``x.sum()``): no axis to change, and broadcast against another array it leaves each
# of that array's axes where it was.
NO_AXES = Dims((), ranked=True)


def no_axes(value: Value) -> bool:
    return value.dims is NO_AXES or (
        value.dims is not None and value.dims.ranked and not value.dims.lens
    )


def axis_lengths(value: Value) -> tuple[int | None, ...] | None:
    """The lengths of a value's axes as far as they are known where it is made, None for one not
    constant (``jnp.linspace(a, b, n)``: one axis); () for a number or a 0-d array, which have none;
    None when no axis is known."""
    if value.ty in AXISLESS or no_axes(value):
        return ()
    lens = value.dims.lens if value.dims is not None else ()
    return tuple(n.constant if n is not None else None for n in lens) or None


def join_dims(a: Dims | None, b: Dims | None) -> Dims | None:
    if a is None or b is None or a is b:
        return a if a is b else None
    lens = tuple(x if x == y else None for x, y in zip(a.lens, b.lens, strict=False))
    ranked = a.ranked and b.ranked and len(a.lens) == len(b.lens)
    return Dims(lens, ranked) if ranked or any(lens) else None


# Coarse types that matter for jit cache keys.
INT, FLOAT, BOOL, STR, NONE, COMPLEX = "int", "float", "bool", "str", "none", "complex"
LIST, TUPLE, DICT, SET = "list", "tuple", "dict", "set"
ARRAY, NP_ARRAY = "array", "ndarray"
# A NumPy scalar (``np.float32(0.5)``, ``np.timedelta64(1, "s")``): NumPy data of a dtype, as a 0-d
# array is, but hashable.
NP_SCALAR = "np-scalar"
NUMPY_DATA = frozenset({NP_ARRAY, NP_SCALAR})
LAMBDA, PARTIAL, FUNCTION, TRANSFORM = "lambda", "partial", "function", "transform"
INSTANCE, JIT, UNKNOWN, CLASS = "instance", "jit", "?", "class"
DTYPE = "dtype"  # a dtype (``np.int16``, ``x.dtype``, ``np.min_scalar_type(n)``): its name in Value.dtype
RNG = "rng"  # a NumPy random generator (``default_rng()``, ``RandomState()``): its methods draw arrays
JIT_OUT = "jit-out"  # what a jitted function returns: jax arrays, in a pytree we do not know
JIT_OUT_WEAK = "jit-out-weak"  # a weakly typed jax array: a jit result from Python scalars only, jnp.asarray(0.0)
PARAM_REF = "param:"  # Value.ref of a parameter itself (not of something derived from it)
FLOAT_LIKE = "float?"  # arithmetic with a float literal and an unknown operand: most likely a float
# A value of unknown kind that ``append``/``extend``/``insert`` is called on: a list only if what is
# stored there says so (an object may have an ``append`` of its own: a method, a vmapped function).
LIST_LIKE = "list?"
SCALARS = frozenset({INT, FLOAT, BOOL, COMPLEX})
BOUNDED_QUEUE = "bounded-queue"  # ``deque(maxlen=k)``: it holds at most k items
UNHASHABLE = frozenset({LIST, DICT, SET, ARRAY, NP_ARRAY, JIT_OUT, JIT_OUT_WEAK, BOUNDED_QUEUE})
ARRAYS = frozenset({ARRAY, NP_ARRAY, NP_SCALAR, "mask"})
# What a jit built once takes as traced arguments: data, where a new value needs no new trace (a
# NumPy scalar too: a reduction of a NumPy array, ``np.mean(x)``, is one).
TRACED_DATA = frozenset({ARRAY, NP_ARRAY, NP_SCALAR, FLOAT, FLOAT_LIKE, COMPLEX})
# What has no axes: a Python number, a NumPy scalar.
AXISLESS = SCALARS | {NP_SCALAR}
_ANY_ARRAY = ARRAYS | {JIT_OUT, JIT_OUT_WEAK}
JIT_RESULTS = frozenset({JIT_OUT, JIT_OUT_WEAK})


@dataclass(frozen=True, init=False)
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
    # What is known of its lengths (arrays: per axis; lists and tuples: axis 0 is the item count).
    # Only within one function's walk: summaries export values without it.
    dims: Dims | None = field(default=None, compare=False)
    # Where its dtype was decided (the constructor, ``astype`` or index function that made it): a
    # dtype flip is reported there, not at a call that only passes the value on.
    made: Location | None = field(default=None, compare=False)
    # Which objects it may be (a parameter, an object a call made, an attribute of either): reading
    # an attribute of it reads that attribute of each (``read_field``).
    objs: frozenset[Obj] = EMPTY
    # The project callables it may be, or hold (``funcrefs``): resolved at link time.
    callables: frozenset[FuncRef] = EMPTY
    # For a list filled in a loop (a comprehension, ``append``) with objects made there: the calls
    # that made them, one per iteration (``picked`` gives its items these objects).
    elements: frozenset[Made] = EMPTY
    # Attributes set on it here (``obj.lr = lr``, ``state.replace(step=...)``): they win over the
    # objects' own.
    fields: tuple[tuple[str, Value], ...] = field(default=(), compare=False)
    # For a jax array whose weak type is not simply strong (``weak_class``): FOLLOWS when it is
    # weakly typed exactly when every value it depends on (``deps``) is, as ``jnp.asarray(x)`` and
    # arithmetic keep ``x``'s; UNSURE when it is made from a value of unknown kind.
    weak: str | None = None
    # For an array made with the dtype of another value not known where it is made (``jnp.zeros(n,
    # p.dtype)``, ``x.astype(y.dtype)`` for a parameter ``p`` or ``y``, or a call's result): that
    # value, so that the dtype is read where the value is known (``propagate.substitute``/``resolve``).
    dtype_of: Value | None = field(default=None, compare=False)
    # For an array whose dtype is not known here but was promoted with a strongly typed operand of a
    # known dtype (``reg * jnp.eye(n)``: float64 in the 64-bit names summaries keep): that dtype, the
    # least the result can be on jax's promotion lattice, and where that operand's dtype was decided.
    floor: tuple[str, Location] | None = field(default=None, compare=False)
    # Computed from a part (``jnp.abs``, ``.real``) of a value whose dtype is not known here: a
    # complex dtype or floor of what it depends on is not its own (``promotion.floor_of``,
    # ``propagate._merge_shape``).
    parted: bool = field(default=False, compare=False)

    def __init__(self, **values: object) -> None:
        # A frozen dataclass sets each field through object.__setattr__: a value is made about a
        # million times on a large project, and writing its dict directly takes a third of that.
        # Fields are given by keyword (tests/test_values.py checks every name given in the code).
        state = self.__dict__
        state.update(_DEFAULTS)
        state.update(values)

    def with_(self, **changes: object) -> Value:
        # dataclasses.replace, without its per-field checks: values are copied a few hundred
        # thousand times on a large project. Only fields may be changed (checked as for __init__).
        new = object.__new__(Value)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def param(self) -> str | None:
        """The parameter's name when the value is exactly a parameter (not something computed from it)."""
        ref = self.ref
        return ref[len(PARAM_REF) :] if ref and ref.startswith(PARAM_REF) else None

    @property
    def refs(self) -> frozenset[FuncRef]:
        """The functions it is or holds (``callables``); a parameter itself is what its callers pass
        (not stored on every parameter's value: most are never called)."""
        if self.callables or self.ref is None:
            return self.callables
        param = self.param
        return self.callables if param is None else funcrefs.single(("param", param))

    @property
    def varies(self) -> bool:
        return bool(self.vsrc or self.shape or self.deps)


_DEFAULTS = {f.name: f.default for f in fields(Value)}
UNKNOWN_VALUE = Value()


# Values are immutable: every literal of a type can share one (made about 150k times otherwise).
# bool before int: a bool is an int.
_CONSTANTS: tuple[tuple[type, Value], ...] = (
    (bool, Value(ty=BOOL)),
    (int, Value(ty=INT)),
    (float, Value(ty=FLOAT)),
    (complex, Value(ty=COMPLEX)),
    (str, Value(ty=STR)),
    (type(None), Value(ty=NONE)),
)


def constant_value(value: object) -> Value:
    """What a literal (``0``, ``1.0``, ``None``, ``"a"``) is."""
    for kind, constant in _CONSTANTS:
        if isinstance(value, kind):
            return constant
    return UNKNOWN_VALUE


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
        deps=a.deps if a.deps is b.deps or not b.deps else _union_deps(a.deps, b.deps),
        fresh=_union(a.fresh, b.fresh),
        ref=a.ref if a.ref == b.ref else None,
        site=a.site if a.site == b.site else (a.site if b.site is None else b.site),
        items=a.items if a.items == b.items else (),
        dtype=a.dtype if a.dtype == b.dtype else None,
        keys=a.keys if a.keys == b.keys else None,
        dims=a.dims if a.dims is None else join_dims(a.dims, b.dims),
        callables=funcrefs.union(a.callables, b.callables) if b.callables else a.callables,
        made=a.made if a.made == b.made else None,
        # A parameter itself is told by its ``ref``, which the join drops when the other differs:
        # the object its callers pass is kept among the objects it may be.
        objs=_union(a.objs, b.objs) if a.ref == b.ref else _union(objects_of(a), objects_of(b)),
        elements=_union(a.elements, b.elements),
        fields=a.fields if a.fields is b.fields else _join_fields(a, b),
        weak=a.weak if a.weak == b.weak else _joined_weak(a.weak, b.weak),
        dtype_of=a.dtype_of if _same_dtype_of(a, b) else None,
    )


def join_returned(a: Value, b: Value) -> Value:
    """What a function returns on either of two paths: ``join``, but two tuples (or lists) of one
    length keep their items, each joined (``return val_loss, zero`` when ``best is None`` and
    ``return best, bad_epochs`` else): a caller that unpacks the result reads each item."""
    joined = join(a, b)
    if a.items == b.items or a.ty != b.ty or a.ty not in (TUPLE, LIST):
        return joined
    if len(a.items) != len(b.items) or not a.items:
        return joined
    return joined.with_(items=tuple(map(join_returned, a.items, b.items)))


def _same_dtype_of(a: Value, b: Value) -> bool:
    """Whether two values take their dtype from the same value (``Value.dtype_of``)."""
    if a.dtype_of is b.dtype_of:
        return True
    return a.dtype_of is not None and b.dtype_of is not None and dtype_source(a) == dtype_source(b)


def _joined_weak(a: str | None, b: str | None) -> str | None:
    """Two different ``Value.weak``: strong when both are (one surely), else not known."""
    return None if {a, b} <= {None, MADE_STRONG} else UNSURE


def _join_fields(a: Value, b: Value) -> tuple[tuple[str, Value], ...]:
    """The attributes set on either value: each may hold what one sets or what the other holds."""
    names = sorted({name for name, _ in a.fields} | {name for name, _ in b.fields})
    return tuple((name, join(read_field(a, name), read_field(b, name))) for name in names)


def made_objects(value: Value) -> frozenset[Made]:
    """The objects ``value`` may be when each is made by a call (``Probe(4.0)``); else none."""
    objs = value.objs
    return objs if objs and all(isinstance(o, Made) for o in objs) else EMPTY  # type: ignore[return-value]


def read_field(base: Value, attr: str) -> Value:
    """The value of ``base.attr``: what was set on it here, else that attribute of each object it may
    be (a parameter's ``p.attr``, named as a parameter of its own, or the attribute of an object a
    call made), resolved along the call graph. Of a value that is no known object, only that it
    varies with the value."""
    for name, value in base.fields:
        if name == attr:
            return value
    bases = objects_of(base)
    if not bases:
        return Value(vsrc=base.vsrc, deps=parts_deps(base))
    parts = [_attribute(obj, attr) for obj in bases]
    read = parts[0]
    for part in parts[1:]:
        read = join(read, part)
    # Read off an object carried from the previous iteration of a loop: so is the attribute. Off
    # the item of a list of instances a loop walks: the same attribute of each of them.
    changes: set[Src] = set()
    for src in base.vsrc:
        if isinstance(src, CarrySrc):
            changes.add(src)
        elif isinstance(src, ChoiceSrc):
            changes.add(replace(src, fields=frozenset(made.attr(attr) for made in src.fields)))
    return read.with_(vsrc=read.vsrc | changes) if changes else read


@lru_cache(maxsize=8192)
def _attribute(obj: Obj, attr: str) -> Value:
    """Attribute ``attr`` of one object: of a parameter, a parameter of its own (``self.lr``); of
    an object a call made, that attribute of it."""
    if isinstance(obj, str):
        name = f"{obj}.{attr}"
        src: Src = ParamSrc(name)
        dep: Dep = ParamDep(name)
        inner: Obj = name
    else:
        inner = obj.attr(attr)
        src, dep = FieldSrc(inner), FieldDep(inner)
    sources = frozenset({src})
    return Value(vsrc=sources, deps=frozenset({dep}), fresh=sources, objs=frozenset({inner}))


def objects_of(value: Value) -> frozenset[Obj]:
    """The objects ``value`` may be: a parameter itself is the object its callers pass."""
    param = value.param
    return value.objs if param is None else value.objs | {param}


def read_path(base: Value, path: str) -> Value:
    """``base.a.b`` for the dotted ``path`` ``a.b``."""
    for attr in path.split("."):
        base = read_field(base, attr)
    return base


def entry(key: str) -> str:
    """Where a dict keeps the item at literal key ``key``: among its fields, under a name no
    attribute has, so that the item travels through returns and calls as an attribute does."""
    return f"[{key!r}]"


def position(index: int) -> str:
    """The key of a tuple's item at ``index`` (``t, y = carry``), as ``entry`` names a dict's."""
    return f"[{index}]"


def positional_item(value: Value, key: str) -> Value | None:
    """The item of the tuple or list display ``value`` at the ``position`` ``key``, when known."""
    for index, item in enumerate(value.items):
        if key == position(index):
            return item
    return None


# Where a dict keeps what its function's ``**kwargs`` parameter holds (``out.update(overrides)``,
# ``{**params, **overrides}``): the keywords each call passes, once substituted (``items_of``).
SPREAD = "[**]"


def items_of(value: Value) -> dict[str, Value]:
    """The items known of a dict at literal keys (by ``entry``), the keywords spread into it from a
    ``**kwargs`` parameter included; a key both written and spread is not known (the order they were
    set in is not kept)."""
    items = {name: v for name, v in value.fields if name.startswith("[") and name != SPREAD}
    spread = next((v for name, v in value.fields if name == SPREAD), None)
    for name, item in items_of(spread).items() if spread is not None else ():
        if items.pop(name, None) is None:
            items[name] = item
    return items


def leaves_dtype(value: Value) -> str | None:
    """The dtype of an array of a known dtype, or the one dtype every leaf of a dict of literal
    keys, a tuple or a list of such arrays has (``{"w": w.astype(jnp.bfloat16), "b": jnp.zeros(n,
    jnp.bfloat16)}``: what a ``tree_map`` over it reads as ``p.dtype`` leaf by leaf). None when
    they differ or a leaf is not known."""
    if value.ty in ARRAYS or value.ty == DTYPE:
        return value.dtype  # a dtype object passed on (``jnp.zeros(n, dtype)``) names its own
    if value.ty == DICT and value.keys is not None:
        items = items_of(value)
        leaves = list(items.values()) if len(items) == len(value.keys) else []
    elif value.ty in (TUPLE, LIST):
        leaves = list(value.items)
    else:
        return None
    dtypes = {leaves_dtype(leaf) for leaf in leaves}
    return dtypes.pop() if len(dtypes) == 1 else None


def with_field(base: Value, attr: str, value: Value) -> Value:
    """``base`` once ``base.attr = value`` has run."""
    kept = tuple((name, v) for name, v in base.fields if name != attr)
    return base.with_(fields=(*kept, (attr, value)))


def parts_deps(value: Value) -> frozenset:
    """The values a part of ``value`` (an item, an attribute) comes from: its axes are its own."""
    if not value.deps:
        return EMPTY
    return frozenset(unaligned_dep(d) for d in value.deps if isinstance(d, ParamDep | FieldDep))


def one_item(dep: Dep) -> Dep:
    """``dep`` for items picked from what it refers to by position (``xs[i]``, ``x[idx]``): a
    change of how many items that holds does not reach them (``ONE_ITEM``)."""
    return replace(dep, fixed=dep.fixed | {ONE_ITEM})


def _either(a: str, b: str) -> str:
    """The type of a value that is of type ``a`` or ``b`` (both known, different). Grown by
    ``append`` (``LIST_LIKE``), it is what the other says it is: a list, or an object whose own
    ``append`` was called."""
    if LIST_LIKE in (a, b):
        return b if a == LIST_LIKE else a
    return JIT_OUT if {a, b} <= _ANY_ARRAY else UNKNOWN


def combine(
    values: list[Value], ty: str = UNKNOWN, keep_shape: bool = True, aligned: bool = False
) -> Value:
    """A value computed from ``values``: varies when any of them varies. Unless ``aligned`` (the
    result's axes are each input's axes), what the inputs' axes were is not known in the result."""
    vsrc: set[Src] = set()
    shape: set[Taint] = set()
    deps: set[Dep] = set()
    parts: list[frozenset[Dep]] = []
    for value in values:
        vsrc |= value.vsrc
        if keep_shape:
            shape |= value.shape if aligned else _unlabelled(value.shape)
            parts.append(value.deps if aligned else _unaligned(value.deps))
            deps |= parts[-1]
    merged = _frozen(deps)
    if len(merged) > 1:
        merged = _merged(merged, parts)
    value = Value(ty=ty, vsrc=_frozen(vsrc), shape=_frozen(shape), deps=merged)
    if not aligned:
        _UNLABELLED.add(value.shape, True)
        _UNALIGNED.add(value.deps, True)
    return value


F = TypeVar("F")


class Recent(Generic[F]):
    """The last few frozensets found to have a property, each with a fact of it, by identity. A chain
    ``a + b + c ...`` of n terms asks of each step's result again as the next step's operand: reading
    each again made the chain quadratic (8 s for 2,000 terms). Each set is held, so that its id is
    no other set's. Sets of fewer than ``least`` items are not worth it: read again, they cost less
    than remembering does."""

    def __init__(self, size: int = 16, least: int = 16) -> None:
        self._size = size
        self.least = least
        self._held: OrderedDict[int, tuple[frozenset, F]] = OrderedDict()

    def get(self, items: frozenset) -> F | None:
        held = self._held.get(id(items)) if len(items) >= self.least else None
        return held[1] if held is not None and held[0] is items else None

    def __contains__(self, items: frozenset) -> bool:
        return self.get(items) is not None

    def add(self, items: frozenset, fact: F) -> frozenset:
        """``items``, remembered (in place of the oldest, once there are ``size``)."""
        if len(items) < self.least:
            return items
        self._held[id(items)] = (items, fact)
        if len(self._held) > self._size:
            with suppress(KeyError):  # another thread took it first
                self._held.popitem(last=False)
        return items


# combine's results: no taint of a known axis, no dependency aligned.
_UNLABELLED: Recent[bool] = Recent()
_UNALIGNED: Recent[bool] = Recent()
# _merged's results, each with its one dependency per referred value.
_MERGED: Recent[dict[tuple, Dep]] = Recent()


# Sets are joined whole, as a set copies the hashes it holds; adding members one by one hashes
# each again.


def _unlabelled(shape: frozenset[Taint]) -> frozenset[Taint]:
    """``shape`` with no axis known: those taints whose axis is known, without it."""
    if shape in _UNLABELLED:
        return shape
    labelled = [t for t in shape if t.axis is not None]
    return shape.difference(labelled).union(map(Taint.unlabelled, labelled)) if labelled else shape


def _unaligned(deps: frozenset[Dep]) -> frozenset[Dep]:
    """``deps`` of a value whose axes are no longer those of what it refers to."""
    if deps in _UNALIGNED:
        return deps
    aligned = [d for d in deps if d.aligned]
    return deps.difference(aligned).union(map(unaligned_dep, aligned)) if aligned else deps


def _union(a: frozenset, b: frozenset) -> frozenset:
    return a if not b or a is b else b if not a else a | b


def _union_deps(a: frozenset[Dep], b: frozenset[Dep]) -> frozenset[Dep]:
    out = _union(a, b)
    return out if out is a or out is b else _merged(out)


def _merged(deps: frozenset[Dep], parts: Sequence[frozenset[Dep]] = ()) -> frozenset[Dep]:
    """One dependency per referred value, with the view that keeps the most of it: the same value
    reached two ways (a branch that transposes it, one that does not) is asked about once.
    ``parts``: the sets ``deps`` joins; one that ``_merged`` gave (a step of a chain ``a + b + c``)
    has one dependency per referred value already, and is not read again."""
    if len(deps) < 2:
        return deps
    known = next((part for part in parts if part in _MERGED), None)
    views = dict(_MERGED.get(known) or {}) if known is not None else {}
    groups: dict[tuple, list[Dep]] = {}
    for dep in deps.difference(known) if known is not None else deps:
        key = _referred(dep)
        group = groups.get(key)
        if group is not None:
            group.append(dep)
        else:
            groups[key] = [views[key], dep] if key in views else [dep]
    merging = {key: _one_view(group) for key, group in groups.items() if len(group) > 1}
    if merging:
        gone = (dep for key in merging for dep in groups[key])
        deps = deps.difference(gone).union(merging.values())
    if len(deps) >= _MERGED.least:
        views.update((key, group[0]) for key, group in groups.items())
        _MERGED.add(deps, {**views, **merging})
    return deps


def _one_view(views: list[Dep]) -> Dep:
    """The views of one value as one: the axes all of them fix, aligned if all are; the rest (the key
    read, the join) of the first by ``stable_repr``, not of the last a set's order (its hashes)
    happened to give."""
    if len(views) == 1:
        return views[0]
    first = min(views, key=stable_repr)
    fixed = frozenset.intersection(*(view.fixed for view in views))
    return replace(first, fixed=fixed, aligned=all(view.aligned for view in views))


def _referred(dep: Dep) -> tuple:
    """What a dependency refers to, whatever its view."""
    if isinstance(dep, ParamDep):
        return (ParamDep, dep.name, dep.elem)
    if isinstance(dep, RetDep):
        return (RetDep, dep.call, dep.item, dep.below, dep.elem, dep.each)
    if isinstance(dep, FieldDep):
        return (FieldDep, dep.made, dep.elem)
    return (IterDep, dep.call, dep.loop, dep.item, dep.elem, dep.each)


def _frozen(items: set) -> frozenset:
    """``EMPTY`` itself when there is nothing: most values vary in no way, and one shared empty set is
    pickled once per summary instead of once per value (130,000 fewer objects to load on the corpus)."""
    return frozenset(items) if items else EMPTY


def shape_sources(value: Value) -> frozenset[Src]:
    """What makes the shape (or length) of ``value`` change, as value sources of a size derived from it."""
    out: set[Src] = set()
    for taint in value.shape:
        if taint.code not in _TYPE_CODES:
            out |= taint.sources
    for dep in value.deps:
        if fixes(dep, WHOLE_SHAPE):
            continue  # its shape no longer changes this value's
        if isinstance(dep, ParamDep) and dep.elem is None:
            out.add(ParamShapeSrc(dep.name))
        elif isinstance(dep, ParamDep) and dep.elem is not None and dep.elem != ITEM:
            out.add(ElemShapeSrc(dep.name, dep.elem))
        elif isinstance(dep, FieldDep) and dep.elem is None:
            out.add(FieldSrc(dep.made, shape=True))
    return _frozen(out)


def trailing_sources(value: Value, first: int) -> frozenset[Src]:
    """What makes the axes of ``value`` from ``first`` on change (``x.shape[1:]``), not what changes
    only an axis before it (a ragged last chunk of rows); a parameter's, as its axis ``first``."""
    later = {
        s
        for t in value.shape
        if t.axis is not None and t.axis > first and t.code not in _TYPE_CODES
        for s in t.sources
    }
    return _frozen(axis_sources(value, first) | later)


def returned_sources(value: Value, axis: int | None = None, shape: bool = False) -> frozenset[Src]:
    """What a size read from ``value`` gets from the calls it comes from: their result's value, or
    its length along ``axis`` when ``shape`` (a count a helper draws, ``len(helper())``)."""
    return _frozen(
        {
            RetSrc(dep.call, dep.item, shape, axis if dep.aligned else None, dep.key)
            for dep in value.deps
            if isinstance(dep, RetDep)
            and not dep.each
            and dep.elem is None
            and not (shape and fixes(dep, axis))
        }
    )


def axis_sources(value: Value, axis: int) -> frozenset[Src]:
    """What makes the length of axis ``axis`` of ``value`` change."""
    length = value.dims.length(axis) if value.dims is not None else None
    if length is not None:
        return length.sources
    if axis == KIND:
        return kind_sources(value)
    out: set[Src] = set()
    for taint in value.shape:
        if (taint.axis is None or taint.axis == axis) and taint.code not in _TYPE_CODES:
            out |= taint.sources
    for dep in value.deps:
        if (
            isinstance(dep, FieldDep)
            and dep.elem is None
            and not fixes(dep, axis if dep.aligned else WHOLE_SHAPE)
        ):
            out.add(FieldSrc(dep.made, shape=True, axis=axis if dep.aligned else None))
        # Of an unaligned dependency only a fixed whole shape is known to hold at ``axis``.
        elif isinstance(dep, ParamDep) and not fixes(dep, axis if dep.aligned else WHOLE_SHAPE):
            if dep.elem is None:
                out.add(ParamShapeSrc(dep.name, axis if dep.aligned else None))
            elif dep.elem is not None and dep.elem != ITEM:
                out.add(ElemShapeSrc(dep.name, dep.elem, axis if dep.aligned else None))
    return _frozen(out)


def kind_sources(value: Value) -> frozenset[Src]:
    """What makes the kind of ``value`` change (``None`` or not, weak type, dtype, structure)."""
    out: set[Src] = set()
    for taint in value.shape:
        if taint.code in FLIP_CODES:
            out |= taint.sources
    for dep in value.deps:
        if isinstance(dep, ParamDep) and dep.elem is None:
            out.add(ParamShapeSrc(dep.name, KIND))
        elif isinstance(dep, FieldDep) and dep.elem is None:
            out.add(FieldSrc(dep.made, shape=True, axis=KIND))
    return _frozen(out)


def localised(value: Value, item: bool = False) -> Value:
    """A function's value as its callers see it: its own loops are not theirs, and a generator's
    per-iteration changes are per item it yields (``item``)."""

    def local(src: Src) -> bool:
        return isinstance(src, LoopSrc | CarrySrc | RebindSrc | ChoiceSrc | ElemShapeSrc)

    def convert(sources: frozenset[Src]) -> frozenset[Src]:
        if not any(local(s) for s in sources):
            return sources
        kept = frozenset(s for s in sources if not local(s))
        return kept | {ItemSrc()} if item and any(isinstance(s, LoopSrc) for s in sources) else kept

    shape = set()
    for taint in value.shape:
        sources = convert(taint.sources)
        if sources:
            shape.add(taint if sources is taint.sources else taint.with_sources(sources))
    deps = frozenset(
        replace(d, elem=ITEM) if d.elem is not None and d.elem >= 0 else d for d in value.deps
    )
    return value.with_(
        vsrc=convert(value.vsrc),
        shape=_frozen(shape),
        fresh=convert(value.fresh),
        deps=deps,
        items=tuple(localised(i, item) for i in value.items),
        fields=tuple((name, localised(v, item)) for name, v in value.fields),
        dims=None,  # its atoms are this function's
    )


def keyed_item(value: Value, key: str) -> Value:
    """``value[key]`` of a parameter of unknown type: its dependency on the parameter, and what it
    varies with, name the key."""
    param = value.param
    deps = frozenset(
        replace(d, key=key) if isinstance(d, ParamDep) and d.name == param else d
        for d in value.deps
    )
    vsrc = frozenset(
        ParamSrc(param, key) if isinstance(s, ParamSrc) and s.name == param else s
        for s in value.vsrc
    )
    return value.with_(deps=deps, vsrc=vsrc)


def item_passed(value: Value, key: str) -> Value | None:
    """What a caller passes as the item at literal key ``key`` (an ``entry``) of a dict parameter:
    the item its dict holds there; None where its dict is a display of literal keys without it
    (``.get`` gives the callee's default); the same item of a parameter passed on, else the whole
    dict (an item of a dict not known varies with it)."""
    items = items_of(value)
    if key in items:
        return items[key]
    item = positional_item(value, key)
    if item is not None:
        return item
    if value.keys is not None and not any(name == SPREAD for name, _ in value.fields):
        return None
    return keyed_item(value, key) if value.param is not None else value


def item_key(value: Value) -> str | None:
    """The literal key of the parameter's item ``value`` is, when it is one (``keyed_item``)."""
    param = value.param
    return next(
        (d.key for d in value.deps if isinstance(d, ParamDep) and d.name == param and d.key),
        None,
    )


def reduced(value: Value, axes: tuple[int, ...]) -> Value:
    """``value`` reduced over its axes ``axes`` (``x.mean(axis=0)``): a change of their lengths
    alone is gone; the axes after them move, so no label holds any more."""
    if not axes:
        return value
    shape = frozenset(t.unlabelled() for t in value.shape if t.axis not in axes)
    deps = frozenset(
        replace(d, fixed=d.fixed | frozenset(axes), aligned=False) if d.aligned else d
        for d in value.deps
    )
    return value.with_(shape=shape, deps=deps, dims=None)


def lengths_differ(values: list[Value]) -> bool:
    """Whether ``values`` are strings, lists or tuples of known lengths, not all the same."""
    lengths = {
        v.dims.length(0) if v.ty in (LIST, TUPLE, STR) and v.dims is not None else None
        for v in values
    }
    return None not in lengths and len(lengths) > 1


def shared_fields(values: list[Value]) -> dict[str, list[Value]]:
    """Of records (dicts with items at literal keys): what each holds at every key they all have, in
    key order; empty unless every value is one."""
    if not values or not all(v.ty == DICT and v.fields for v in values):
        return {}
    keys = set.intersection(*({name for name, _ in v.fields} for v in values))
    return {key: [dict(v.fields)[key] for v in values] for key in sorted(keys)}


def uneven(values: list[Value]) -> bool:
    """Whether ``values`` (the items of a display, or what they hold at one key or position) differ
    in length: strings, lists or tuples of other lengths, or records holding such at the same key or
    position (``[{"seq": "MKT"}, {"seq": "GSHML"}]``)."""
    if len(values) < 2:
        return False
    if lengths_differ(values):
        return True
    records = shared_fields(values)
    if records:
        return any(uneven(held) for held in records.values())
    widths = {len(v.items) if v.ty == TUPLE else 0 for v in values}
    if len(widths) == 1 and 0 not in widths:
        return any(uneven([v.items[i] for v in values]) for i in range(widths.pop()))
    return False


def size_of(value: Value) -> Value:
    """The value of a size (``len(x)``, ``x.shape[0]``) read off ``value``."""
    return Value(ty=INT, vsrc=axis_sources(value, 0))


# -- the parts of a jit signature a value decides -------------------------------------------------
# Two values of one parameter with different kinds are two cache entries: a Python scalar is weakly
# typed and an array is not, dtypes are part of the key, and so is the pytree structure.


WEAK, STRONG = "a weakly typed scalar", "a strongly typed array"


def weak_said(kind: str, value: Value) -> str:
    """How a finding names a value of weak-type class ``kind``: a weakly typed array is no scalar
    (``jnp.where(mask, 1.0, 0.0)``, an array made from Python numbers only, is weakly typed too)."""
    return "a weakly typed array" if kind == WEAK and value.ty == ARRAY else kind


# Without x64, jax stores each 64-bit dtype as its 32-bit kin (measured on jax 0.10.2).
_WITHOUT_X64 = {
    "int64": "int32",
    "uint64": "uint32",
    "float64": "float32",
    "complex128": "complex64",
}


def canonical_dtype(dtype: str, x64: bool) -> str:
    """The dtype jax gives an array asked to be ``dtype``: with x64 off, int64 becomes int32."""
    return dtype if x64 else _WITHOUT_X64.get(dtype, dtype)


FOLLOWS, UNSURE = "follows", "unsure"  # Value.weak
# Value.weak of an array that is strongly typed whatever its operands were: made with a dtype, by a
# reduction (``jnp.sum`` of weak values is strong), or computed with such an array. A strong array
# without it (the default of an array call) is strong only as far as the API tables know.
MADE_STRONG = "made strong"
# Value.weak of an array that is weakly typed whatever its operands were: jax's promotion lands on a
# weak node (``jnp.arange(n) / 1000.0``: a strong int array with a Python float is a weak float).
MADE_WEAK = "made weak"


def weak_class(value: Value) -> str | None:
    """WEAK, STRONG, FOLLOWS (weak when the values it depends on are), or None (not known). A
    Python number is weakly typed, and so is an array made from weak values only; an array made
    with a dtype (a constructor, ``astype``, a random draw, a NumPy array) is strong, and so is
    anything computed with one. A Python bool is neither: jax has no weakly typed bool (measured on
    jax 0.10.2: ``jit(f)(True)`` and ``jit(f)(jnp.array(True))`` share a trace)."""
    if value.ty in (INT, FLOAT, COMPLEX, JIT_OUT_WEAK) or value.weak == MADE_WEAK:
        return WEAK
    if value.weak == FOLLOWS and (value.ty in ARRAYS or value.ty == UNKNOWN):
        return FOLLOWS if value.deps else WEAK
    if value.ty in ARRAYS or value.ty == JIT_OUT:
        return STRONG if value.weak in (None, MADE_STRONG) else None
    if value.ty == UNKNOWN and value.weak == MADE_STRONG:
        return STRONG  # a reduction of an array of unknown kind (``mask.sum()``), or arithmetic with one
    if value.ty == UNKNOWN and (
        value.param is not None
        or (value.deps and all(isinstance(d, RetDep | IterDep) for d in value.deps))
    ):
        return FOLLOWS  # a parameter or a project function's result: as its callers say
    if of_parameters(value):
        return FOLLOWS  # arithmetic on parameters: Python numbers or arrays, as they are
    return None


def data_array(value: Value) -> Value:
    """An operand of an array product (``apis._ARRAY_PRODUCTS``): one of unknown kind, neither a
    parameter nor a project function's result (whose kinds the callers say), is an array of data,
    surely strong."""
    if value.ty == UNKNOWN and value.weak is None and weak_class(value) is None:
        return value.with_(ty=ARRAY, weak=MADE_STRONG)
    return value


# The kinds of value whose ``made`` is the place a number (or a value of unknown kind) is set (``return
# 0, state``, ``replace(s, n=s.n + 1)``, ``self.n += 1``), where a flip or a static part that changes
# is told; it decides no array's dtype.
_PLACED = SCALARS | {FLOAT_LIKE, UNKNOWN}


def placed(value: Value, at: Location) -> Value:
    """``value``, a number set at ``at``, with that place as its ``made``."""
    return value.with_(made=at) if value.made is None and value.ty in _PLACED else value


def dtype_source(value: Value) -> tuple[object, ...] | None:
    """What ``value`` takes its dtype from (``Value.dtype_of``), as a comparable key: the parameter
    or call result it reads."""
    of = value.dtype_of
    return None if of is None else (of.ref, of.deps, of.objs)


def dtype_taken(value: Value) -> Value | None:
    """The value whose dtype an array made with ``x.dtype`` takes (``Value.dtype_of``), when that
    dtype is not known where the array is made: a parameter, a field of one or a call's result."""
    if value.dtype is not None:
        return None
    if value.dtype_of is not None:
        return value.dtype_of
    if not value.deps and value.param is None:
        return None
    return Value(ty=value.ty, ref=value.ref, deps=value.deps, objs=value.objs)


def array_made(value: Value) -> Location | None:
    """Where an operand's dtype was decided, when it is an array's: an array computed with it keeps
    that place."""
    return None if value.ty in _PLACED else value.made


def followed(values: list[Value]) -> str | None:
    """``Value.weak`` of an array computed from ``values`` by an operation that keeps their weak
    type (arithmetic, ``jnp.asarray`` without a dtype): strong with any strong one (MADE_STRONG when
    that one surely is); else weak when all are, or as the ones it depends on are; UNSURE with one of
    unknown kind."""
    classes = {weak_class(v) for v in values}
    if STRONG in classes:
        return (
            MADE_STRONG
            if any(v.weak == MADE_STRONG or v.ty in NUMPY_DATA for v in values)
            else None
        )
    if None in classes:
        return UNSURE
    return FOLLOWS


def weak_kind(value: Value, x64: bool = False) -> str | None:
    """A Python scalar and a jitted function's result made only from Python scalars are weakly
    typed (one cache key); an array made with a dtype is not."""
    found = weak_class(value)
    return found if found in (WEAK, STRONG) else None


def scalar_class(value: Value) -> str | None:
    """Whether a weakly typed number is an int (``INT``) or a float (``FLOAT``): a Python number,
    or arithmetic that makes a float of anything (``t + dt / 2``, ``jnp.sqrt(step)``); None when
    not known."""
    if value.ty in (INT, FLOAT):
        return value.ty
    # Computed so that ints become floats (``1 / jnp.sqrt(step)``: ``Value.floor``).
    floor = value.floor[0] if value.floor is not None else ""
    return FLOAT if value.ty == FLOAT_LIKE or floor.startswith(("float", "bfloat")) else None


def int_and_float(values: list[Value]) -> bool:
    """Whether ``values`` are Python numbers, an int and a float among them: what a pick between
    them gives is one or the other (``Taint.numbers``)."""
    return {scalar_class(v) for v in values} == {INT, FLOAT} and all(
        v.ty in (INT, FLOAT, FLOAT_LIKE) for v in values
    )


def dtype_kind(value: Value, x64: bool = False) -> str | None:
    """The dtype jax sees (``x64``: whether the program enables 64-bit types): a Python int or float
    takes jax's default integer or float."""
    if value.ty == INT:
        return canonical_dtype("int64", x64)
    if value.ty == FLOAT:
        return canonical_dtype("float64", x64)
    return canonical_dtype(value.dtype, x64) if value.ty in ARRAYS and value.dtype else None


_NOT_NONE = "not None"  # a jitted function's result: some pytree of arrays, never None


def structure_kind(value: Value, x64: bool = False) -> str | None:
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


# The code of a taint that is a weak-type flip (RTL401) only if ``propagate`` finds the two values of
# its ``AltSrc`` of different weak types.
MAYBE_WEAK = "RTL401?"
# The codes of taints that change a value's kind (dtype, weak type, structure), not its shape.
KIND_CODES = FLIP_CODES | {MAYBE_WEAK}
# Those that change its type alone: a size read off it stays (a structure may change a length).
_TYPE_CODES = frozenset({"RTL401", "RTL402", MAYBE_WEAK})
# The code of a taint that is a boolean mask's data-dependent shape (RTL104) only if ``propagate``
# finds that the call whose result indexes the array (its ``RetSrc``) returns a mask.
MAYBE_MASK = "RTL104?"

# How the account of a flip between two kinds of value that the code picks again each time ends (a
# branch, a conditional expression, a dtype chooser): the finding says when it is picked.
CHOSEN_ANEW = "chosen anew"
# How the account of a pytree that holds an object made anew each time ends (``jax.vjp``'s pullback):
# a structure never seen before at every run, a trace each time rather than a few.
MADE_ANEW = "made anew"


def counted(value: Value) -> Value:
    """``value`` as an array of numbers where a reduction or an index function of a mask made it
    (``mask.sum()``, ``(cumulative > r).argmax()``): a count or an index picks elements by
    position, never by truth, so indexing with it keeps the indexed shape."""
    if value.ty == "mask" and value.dtype not in (None, "bool"):
        return value.with_(ty=ARRAY)
    return value


def weak_unknown(value: Value) -> bool:
    """Whether the weak type of ``value`` is not known where it is made but may be where what it
    comes from is: a parameter, a call's result, arithmetic on them (``lr * 0.5``)."""
    return weak_class(value) == FOLLOWS  # neither WEAK nor STRONG: no kind of its own


def of_parameters(value: Value) -> bool:
    """Whether ``value`` is a number of unknown kind computed from parameters alone (``peak * (step
    + 1) / warmup``): as weakly typed as they are, Python numbers or arrays."""
    return (
        value.ty in (UNKNOWN, FLOAT_LIKE)
        and value.weak is None
        and bool(value.deps)
        and all(isinstance(d, ParamDep) and d.elem is None for d in value.deps)
    )


def kinds_differ(a: str | None, b: str | None) -> bool:
    """Whether two known kinds are surely different cache entries (a jit result is any structure
    but None)."""
    if a is None or b is None or a == b:
        return False
    return (_NOT_NONE not in (a, b)) or "None" in (a, b)
