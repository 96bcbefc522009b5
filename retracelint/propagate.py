"""Decide which variations really reach a jit site, and along which call path.

The summaries say, for every argument, what would make it vary: a loop of the calling function, a
parameter, a fresh object per call. Here those conditions are resolved against the call graph: a shape
that depends on parameter ``n`` varies only if some caller passes an ``n`` that varies, which is asked of
that caller in turn. Each answer is a ``Cause``: the reason (a ``Taint`` for shapes), the loop or call that
drives it, and the call path from there to the jit site.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import islice, product
from typing import TYPE_CHECKING

from retracelint.callgraph import (
    ClassTarget,
    FuncTarget,
    JitTarget,
    Project,
    Signature,
    Site,
    Target,
)
from retracelint.frequency import (
    FEW_ITERATIONS,
    Driver,
    Found,
    Frequency,
    jits_with,
    walked,
    where,
)
from retracelint.jitspec import x64_setting
from retracelint.model import Location, PathStep
from retracelint.objects import ObjectModel, Origin, attribute_of
from retracelint.ordering import stable_repr
from retracelint.readlog import active, query, resumed
from retracelint.session import Picked
from retracelint.summarise.promotion import floor_of, is_complex, lifted, promoted_floor
from retracelint.summary import (
    Arg,
    CallSite,
    FunctionSummary,
    JitSpec,
    LoopInfo,
    ModuleSummary,
    Points,
)
from retracelint.values import (
    ARRAYS,
    AXISLESS,
    DICT,
    DTYPE,
    EMPTY,
    FLOAT,
    FOLLOWS,
    INSTANCE,
    INT,
    ITEM,
    KIND,
    LIST,
    MADE_STRONG,
    MAYBE_MASK,
    MAYBE_WEAK,
    REBIND,
    RNG,
    SET,
    STRONG,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    UNSURE,
    WEAK,
    AltSrc,
    CallSrc,
    ChoiceSrc,
    Dep,
    DrawSrc,
    ElemShapeSrc,
    FieldDep,
    FieldSrc,
    ItemSrc,
    IterDep,
    LoopSrc,
    Made,
    Obj,
    ParamDep,
    ParamShapeSrc,
    ParamSrc,
    RebindSrc,
    ResizeSrc,
    RetDep,
    RetSrc,
    Src,
    Taint,
    Value,
    axis_lengths,
    axis_sources,
    canonical_dtype,
    combine,
    dtype_taken,
    entry,
    followed,
    item_passed,
    join,
    leaves_dtype,
    localised,
    made_anew,
    made_objects,
    objects_of,
    picked,
    read_field,
    returned_sources,
    sees,
    shape_sources,
    through,
    uneven,
    weak_said,
)

if TYPE_CHECKING:
    from retracelint.evidence import Paths
    from retracelint.weak import WeakKinds

# Call-path frames followed from a jit site (callers upwards, results downwards). Every question is
# memoised per function, so a deeper limit costs only the chains that are that deep; past it, the
# chain is cut and the run says so (``Propagation.cut``, one RTL000 note per project).
MAX_FRAMES = 32
# What an object may hold as a collection of items it walks again alike (``holds_collection``).
_COLLECTIONS = frozenset({LIST, TUPLE, DICT, SET})
_MAX_COMBINATIONS = 64  # sizes of a chunked loop tried together: more, and it is left as it is
_MAX_CAUSES = (
    12  # causes kept per question: every caller's origin up to this, bounded on huge graphs
)
# Steps (questions asked, values resolved) one check may take. The depth bounds keep each chain of
# questions finite, but not their number: what is not kept may be asked again along every path.
# The most a check takes is 414 on the fixtures, examples and accuracy programs, 3,203 on the speed
# corpus (a check of the whole 663 kLOC; tests/test_termination.py); one step is about 10 us. Past
# the budget the check stops and says so (``cut_short``).
MAX_STEPS = 200_000


class CutShort(Exception):
    """A check ran out of steps while resolving something of function ``function``."""

    def __init__(self, function: str) -> None:
        super().__init__(function)
        self.function = function


@dataclass(frozen=True)
class Cut:
    """A check cut short: the jit call it was about (None: a check of the whole project), and the
    function whose question was being answered when its steps ran out."""

    at: Location | None
    function: str


@dataclass(frozen=True)
class Cause:
    taint: Taint | None  # why the shape changes (None when it is the value that changes)
    driver: Driver
    path: tuple[PathStep, ...] = ()  # calls from the driver's function down to the current function


# A place where a static value is made: the function, the argument there, its loops, the call path.
Candidate = tuple[FunctionSummary, Arg, tuple[int, ...], tuple[PathStep, ...]]


@dataclass
class Propagation(ObjectModel):
    project: Project
    # What the frequency model of the project's last run found (``Frequency.last``), if any.
    found: Found | None = None
    # The functions each module gave the checks of the whole project, by the summary (the
    # project's last run's, in a long-lived process).
    picked: Picked = field(default_factory=Picked)
    frequency: Frequency = field(init=False)
    _params: dict[tuple[str, str, str], list[Cause]] = field(default_factory=dict)
    _returns: dict[str, Value | None] = field(default_factory=dict)
    _forwards: dict[tuple[str, str, int], list[Candidate]] = field(default_factory=dict)
    _made: dict[Made, list[Origin]] = field(default_factory=dict)
    _place_memo: dict[tuple[str, Value, tuple[int, ...]], list[Candidate]] = field(
        default_factory=dict
    )
    _placing: int = 0  # origins of attributes being resolved, one inside another
    _classes: dict[tuple[str, Value], frozenset[str]] = field(default_factory=dict)
    _settled: dict[tuple[str, str], Arg | None] = field(default_factory=dict)
    _generators: dict[tuple[str, str], bool] = field(default_factory=dict)
    _constructions: dict[str, list[Site]] | None = None
    _assigned_names: set[str] | None = None
    _read_names: set[str] | None = None
    _assigning: dict[str, list[ModuleSummary]] | None = None
    _param_writes: dict[str, list[tuple[FunctionSummary, str, tuple[Arg, ...]]]] = field(
        default_factory=dict
    )
    _elements: dict[tuple[str, str, str], list[tuple[Taint, tuple[PathStep, ...]]]] = field(
        default_factory=dict
    )
    _stored_kinds: dict[tuple[str, str], str] = field(default_factory=dict)
    _alike: dict[tuple[str, str, str], bool] = field(default_factory=dict)  # ``elements_alike``

    _weak_flips: dict[Taint, Taint | None] = field(default_factory=dict)
    _fields: dict[tuple[Made, str, tuple[int, ...], int], list[tuple[str, Cause]]] = field(
        default_factory=dict
    )
    _results: dict[tuple[str, Dep, int], Value | None] = field(default_factory=dict)
    # What the source says of the paths two values meet on, for the checks that pair them
    # (``evidence.Paths``, set by the checks).
    paths: Paths | None = None
    steps: int = 0  # taken by the current check
    cut_short: list[Cut] = field(default_factory=list)
    # The calls that bring a taint made elsewhere into a function through what they return, by the
    # function and the taint's origin: from that function down to the one holding the origin.
    _brought: dict[tuple[str, Location], tuple[PathStep, ...]] = field(default_factory=dict)
    # The functions where a chain of calls was cut at ``MAX_FRAMES``: their callers (or what their
    # calls return) were not followed, so findings they would make are missing.
    cut: set[str] = field(default_factory=set)
    _asking: list[str] = field(default_factory=list)  # the functions whose callers are being asked
    # How many of those are asked for a field of an object passed down (``gp.train_x``): the
    # object's fields are read down there, not where its callers pass it (``field_causes``).
    _by_reference: int = 0
    _x64_blocks: dict[str, bool] = field(default_factory=dict)  # ``_in_x64_block``'s answers
    # The functions the calls inside a loop run (``Frequency.run_by_loop``), by function and loop.
    _loop_runs: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict)
    _jit_site_list: list[tuple[str, int, JitTarget]] | None = None  # ``_jit_sites``

    def __post_init__(self) -> None:
        # What the model asks of the propagation fills the propagation's memos, which the rules
        # read again: logged as the rules' own reads (``readlog.resumed``).
        self.frequency = Frequency(
            self.project, resumed(self.walks_held), resumed(self._passed), self.found, self.picked
        )

    def _passed(self, fn: FunctionSummary, param: str) -> list[Arg | None]:
        """What each known call of ``fn`` passes for ``param`` (None: nothing), with the points of
        a collection its own module could not read (``_given_points``)."""
        return [
            self._given_points(caller, passed)
            for caller, _, passed, _, _ in self.calls_of(fn, param)
        ]

    def _given_points(self, caller: FunctionSummary, passed: Arg | None) -> Arg | None:
        """``passed`` with the points it gives where only the linked project tells them: a
        collection imported from another module (``from evaluate import TASKS``), or what a
        function of the project makes of one it is given with what the command line says
        (``normalize_task_specs(args.tasks, DEFAULT_TASKS)``: the default's items, or as many
        of the same kind as the run is given)."""
        if passed is None or passed.points is not None:
            return passed
        points = self._imported_points(caller, passed)
        made_by = sorted({dep.call for dep in passed.value.deps if isinstance(dep, RetDep)})
        for index in made_by if points is None else ():
            targets = self.project.site_targets.get((caller.qualname, index), ())
            if index >= len(caller.calls) or not any(isinstance(t, FuncTarget) for t in targets):
                continue
            given = (self._imported_points(caller, arg) for arg in caller.calls[index].args)
            points = next(filter(None, given), None)
            if points is not None:
                break
        return passed if points is None else replace(passed, points=points)

    def _imported_points(self, caller: FunctionSummary, passed: Arg) -> Points | None:
        if passed.points is not None or not passed.text.isidentifier():
            return passed.points
        module = self.project.owner.get(caller.qualname)
        imported = module.imports.get(passed.text) if module is not None else None
        found = self.project.symbols.module_of(imported, module) if imported else None
        return found[0].points.get(found[1]) if found is not None else None

    # -- the budget of one check -----------------------------------------------------------------
    def charge(self, fn: FunctionSummary) -> None:
        """One step of a question about ``fn``; past ``MAX_STEPS`` in one check, ``CutShort``."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise CutShort(fn.qualname)

    @contextmanager
    def check(self, at: Location | None = None) -> Iterator[None]:
        """Run one check (about the jit call at ``at``, or, None, the whole project) with a budget
        of its own: cut short, it stops there, keeps what it found so far, and ``cut_short`` says
        where. What it left unanswered stays so for later checks (a cycle's placeholder: nothing),
        the same in every run, as the steps are counted, not timed."""
        self.steps = 0
        try:
            yield
        except CutShort as cut:
            self.cut_short.append(Cut(at, cut.function))
        log = active()
        if log is not None and self.steps > MAX_STEPS // 2:
            # The steps a question about the whole project takes are not in its answer: near
            # the budget, the same answers may not give the same cut.
            log.unsure = True

    # -- values in a function's own terms --------------------------------------------------------
    def x64(self, fn: FunctionSummary) -> bool:
        """Whether ``fn`` runs with jax's 64-bit types on: from an entry point whose process turns
        them on (``Symbols.runs_x64``; a script's own code runs in its own process, a function
        nothing calls in whoever's imports it), or only inside ``with jax.enable_x64(True):``."""
        project = self.project
        return (
            project.x64
            and any(
                project.symbols.runs_x64(
                    project.owner[entry].module, project.functions[entry].kind != "module"
                )
                for entry in self.frequency.entries(fn.qualname)
            )
        ) or self._in_x64_block(fn.qualname, frozenset())

    def _in_x64_block(self, qualname: str, asking: frozenset[str]) -> bool:
        """Whether every known call of the function runs with x64 turned on by a context manager
        (``with jax.enable_x64(True):`` around it, the innermost setting deciding), or from a
        function that only runs so: what its body calls, jitted steps included, runs in 64 bits.
        A function called both inside and outside such a block is not (its 32-bit calls stay)."""
        known = self._x64_blocks.get(qualname)
        if known is not None:
            return known
        callers = self.project.callers.get(qualname, ())
        inside = bool(callers) and qualname not in asking and len(asking) < MAX_FRAMES
        for caller, index in callers if inside else ():
            setting = x64_setting(self.project.function(caller).calls[index].contexts)
            if setting is None:
                setting = self._in_x64_block(caller, asking | {qualname})
            if not setting:
                inside = False
                break
        if inside or not asking:  # a no within a cycle may be the cycle's, cut where it started
            self._x64_blocks[qualname] = inside
        return inside

    def resolve(self, fn: FunctionSummary, value: Value, depth: int = 0) -> Value:
        """Expand the results of calls (``RetDep``/``IterDep``) through the callees' summaries,
        and what ``x = f(x)`` in a loop does to ``x`` (``REBIND``). An array made with the dtype of
        another value (``Value.dtype_of``) has that value's, not the one it was made from."""
        out = self._resolved(fn, value, depth)
        if value.dtype_of is None or depth > MAX_FRAMES:
            return out
        taken = self.resolve(fn, value.dtype_of, depth + 1)
        return _dtype_from(out.with_(dtype=None, made=value.made), taken)

    def _resolved(self, fn: FunctionSummary, value: Value, depth: int) -> Value:
        self.charge(fn)
        if any(t.code == REBIND for t in value.shape):
            value = value.with_(shape=frozenset(self.rebound(fn, value.shape)))
        if any(isinstance(s, RetSrc) for t in value.shape for s in t.sources):
            value = value.with_(shape=frozenset(self.sized_by_results(fn, value.shape, depth)))
        if any(isinstance(s, RetSrc) for s in value.vsrc):
            value = value.with_(vsrc=self.from_results(fn, value.vsrc, depth))
        if not any(isinstance(d, RetDep | IterDep) for d in value.deps):
            return value
        if depth > MAX_FRAMES:
            return value
        out = value.with_(deps=frozenset(d for d in value.deps if isinstance(d, ParamDep)))
        if self._linked_result(fn, value):
            # What the callees return says what it changes with, not the summary's guess that a
            # call's result changes with every argument (`steps = self.steps_for(request)` reads
            # one field of the request).
            out = out.with_(vsrc=EMPTY)
        # The dtype of a call's result is the value's only when it is that call's result alone: of
        # two (``reward * (1 - done)``), neither one's, whichever a set's order gives first.
        sole = sum(isinstance(d, RetDep | IterDep) for d in value.deps) == 1
        # In one order whatever the hash seed: the first call's result decides what kind a value
        # of unknown kind is.
        for dep in sorted(value.deps, key=stable_repr):
            if isinstance(dep, RetDep | IterDep):
                expanded = self.call_result(fn, dep, depth)
                if expanded is not None:
                    out = _merge_shape(out, through(expanded, dep), sole)
                    if isinstance(dep, IterDep) and not out.objs:
                        out = out.with_(objs=_filled_with(expanded))
                elif out.weak == FOLLOWS:
                    out = out.with_(weak=UNSURE)  # made from a result of unknown kind
        return out

    def _linked_result(self, fn: FunctionSummary, value: Value) -> bool:
        """Whether ``value`` is what one call of ``fn`` returns, as the summary guessed it (what
        varies with the call's arguments), and the call reaches only functions of the project that
        return a value: their returns are known."""
        if len(value.deps) != 1:
            return False
        dep = next(iter(value.deps))
        if not isinstance(dep, RetDep) or dep.elem is not None:
            return False
        guessed = self._guessed(fn, dep.call)
        return guessed is not None and value.vsrc <= guessed

    def _guessed(self, fn: FunctionSummary, call: int) -> frozenset[Src] | None:
        """What the summary guessed the result of call ``call`` of ``fn`` varies with (what its
        arguments vary with), when the call reaches only functions of the project that return a
        value, whose returns say instead; None for any other call."""
        if call >= len(fn.calls):
            return None
        site = fn.calls[call]
        targets = self.project.site_targets.get((fn.qualname, call), ())
        if not targets or not all(
            isinstance(t, FuncTarget) and self.project.function(t.qualname).returns is not None
            for t in targets
        ):
            return None
        return _inputs_vary(site, receiver=True)

    def rebound(self, fn: FunctionSummary, taints: frozenset[Taint]) -> Iterator[Taint]:
        """Each ``REBIND`` taint of ``x = f(..., x, ...)`` in a loop as what ``f`` does to that
        argument: when it returns it resized (``ResizeSrc``), ``x`` changes size per iteration,
        reported where ``f`` resizes it; otherwise nothing."""
        for taint in taints:
            if taint.code != REBIND:
                yield taint
                continue
            for src in taint.sources:
                if isinstance(src, RebindSrc):
                    yield from self._resized_by(fn, src)

    def sized_by_results(
        self, fn: FunctionSummary, taints: frozenset[Taint], depth: int
    ) -> Iterator[Taint]:
        """Each taint whose size is read from what a call returns (``RetSrc``), with what makes
        that result's value (or length) change in ``fn``'s terms instead; gone when nothing does."""
        for taint in taints:
            if not any(isinstance(s, RetSrc) for s in taint.sources):
                yield taint
                continue
            if taint.code == MAYBE_MASK:
                # A boolean mask only if a call it names returns one: as what makes it change.
                if not any(self._returns_mask(fn, s, depth) for s in taint.sources):
                    continue
                taint = replace(taint, code="RTL104")
            sources = taint.sources
            for call in sorted({s.call for s in sources if isinstance(s, RetSrc) and not s.shape}):
                # A size a helper computes (``bucket(len(seq))``) varies as its result does.
                guessed = self._guessed(fn, call)
                if guessed is not None:
                    sources = sources - guessed
            sources = self.from_results(fn, sources, depth)
            if sources:
                yield taint.with_sources(sources)

    def _returns_mask(self, fn: FunctionSummary, src: Src, depth: int) -> bool:
        if not isinstance(src, RetSrc) or depth > MAX_FRAMES:
            return False
        result = self.call_result(fn, RetDep(src.call, src.item), depth)
        return result is not None and result.ty == "mask"

    def from_results(
        self, fn: FunctionSummary, sources: frozenset[Src], depth: int
    ) -> frozenset[Src]:
        """``sources`` with each ``RetSrc`` replaced by what makes that result's value (or length)
        change in ``fn``'s terms."""
        out = set(s for s in sources if not isinstance(s, RetSrc))
        for src in sources:
            if not isinstance(src, RetSrc):
                continue
            result = (
                self.call_result(fn, RetDep(src.call, src.item), depth)
                if depth <= MAX_FRAMES
                else None
            )
            if result is None:
                if not src.shape:
                    out |= self._jitted_inputs(fn, src.call)
                continue
            item = entry(src.key) if src.key is not None else None
            result = next((v for name, v in result.fields if name == item), result)
            if not src.shape:
                out |= result.vsrc
            elif src.axis is None:
                out |= shape_sources(result)
            else:
                out |= axis_sources(result, src.axis)
        return frozenset(out)

    def _jitted_inputs(self, fn: FunctionSummary, call: int) -> frozenset[Src]:
        """What the value a jitted function returns at call ``call`` of ``fn`` changes with: its
        arguments (``bool(jnp.any(contact(q) < 0))`` changes as ``q`` does); nothing for a call
        that reaches anything else."""
        targets = self.project.site_targets.get((fn.qualname, call), ())
        if call >= len(fn.calls) or not targets:
            return EMPTY
        if not all(isinstance(t, JitTarget) for t in targets):
            return EMPTY
        return _inputs_vary(fn.calls[call], receiver=False)

    def _resized_by(self, fn: FunctionSummary, src: RebindSrc) -> Iterator[Taint]:
        index = next((i for i, c in enumerate(fn.calls) if c.location == src.call), None)
        target = self.project.targets.get((fn.qualname, index)) if index is not None else None
        if not isinstance(target, FuncTarget):
            return
        callee = self.project.function(target.qualname)
        result = self.summary_of(callee, yields=False)
        call = fn.calls[index]  # type: ignore[index]
        for taint in result.shape if result is not None else ():
            for resize in taint.sources:
                if not isinstance(resize, ResizeSrc):
                    continue
                passed = self.project.signature(target, callee).arg(call, resize.name)
                if passed is not None and passed.text == src.name:
                    yield taint.with_sources(frozenset({LoopSrc(src.loop)}))

    def call_result(self, fn: FunctionSummary, dep: Dep, depth: int) -> Value | None:
        """What call ``dep.call`` of ``fn`` returns (or yields), in ``fn``'s terms: any of the
        functions it may call. Kept: a result passed on to the next call (`a, b = update(a, b)`
        over and over) is asked again along every path through the calls, exponentially many."""
        key = (fn.qualname, dep, depth)
        if key not in self._results:
            self.charge(fn)
            self._results[key] = self._call_result(fn, dep, depth)
        return self._results[key]

    def _call_result(self, fn: FunctionSummary, dep: Dep, depth: int) -> Value | None:
        index = dep.call  # type: ignore[union-attr]
        if index >= len(fn.calls):
            return None
        call = fn.calls[index]
        iterated = isinstance(dep, IterDep)
        element = dep.item  # type: ignore[union-attr]
        out: Value | None = None
        for target in self.project.site_targets.get((fn.qualname, index), ()):
            if isinstance(target, ClassTarget) and not iterated and element is None:
                # A class the summary could not tell from a function (`from handlers import
                # seed`): a new instance each time the call runs.
                made = _new_instance(fn, call, target.qualname)
                out = made if out is None else join(out, made)
            if not isinstance(target, FuncTarget):
                continue
            callee = self.project.function(target.qualname)
            summary = self.summary_of(callee, True, element) if iterated else None
            # Iterating what a function returns (not a generator) walks the elements of the container.
            container = iterated and summary is None
            part = dep.of if container else element  # type: ignore[union-attr]
            summary = summary or self.summary_of(callee, False, part)
            if summary is None:
                continue
            item = LoopSrc(dep.loop) if iterated and not container else None  # type: ignore[union-attr]
            self._bring(fn, call, callee, summary)
            seen = self.project.signature(target, callee)
            value = self.substitute(summary, call, callee, seen, item, caller=fn)
            if container:
                value = picked(value, dep.loop)  # type: ignore[union-attr]
            value = _within(self.resolve(fn, value, depth + 1), dep)
            out = value if out is None else join(out, value)
        return out

    def _bring(
        self, fn: FunctionSummary, call: CallSite, callee: FunctionSummary, result: Value
    ) -> None:
        """Record ``call`` (of ``fn``) as the way into ``fn`` of each taint ``callee``'s result
        holds (made in the callee or below it), so that a finding's call path holds the call of
        the helper that makes the value (``data.prefix(x, step + 1)``), not only the jit call. The
        first call of ``fn`` found to bring an origin is the one told."""
        step = PathStep(fn.qualname, call.text, call.location)
        for origin in _origins(result):
            key = (fn.qualname, origin)
            if key not in self._brought:
                self._brought[key] = (step, *self._brought.get((callee.qualname, origin), ()))

    def brought(self, fn: FunctionSummary, taint: Taint) -> tuple[PathStep, ...]:
        """The calls of ``fn`` (and below) that bring ``taint`` into it through what they return;
        none when ``fn`` makes it itself."""
        return self._brought.get((fn.qualname, taint.origin), ())

    def summary_of(
        self, callee: FunctionSummary, yields: bool, element: int | None = None
    ) -> Value | None:
        """What ``callee`` returns (or yields), in its callers' terms; only element ``element`` of
        the tuple, when given and known, resolved as itself."""
        key = (
            callee.qualname
            + ("#yield" if yields else "")
            + ("" if element is None else f"#{element}")
        )
        if key in self._returns:
            return self._returns[key]
        self._returns[key] = None  # recursion: a function reached again while resolving itself
        raw = callee.yields if yields else callee.returns
        picked_item = raw is not None and element is not None and bool(raw.items)
        if picked_item:
            assert raw is not None and element is not None
            if element >= len(raw.items):
                return None  # a *spread past the tuple's end: the parameter keeps its default
            raw = raw.items[element]
        # Resolved, the callee's calls bring what changes per iteration of its own loops.
        result = localised(self._deep(callee, raw), yields) if raw is not None else None
        if result is not None and element is not None and not picked_item:
            result = self._element(callee, result, element)
        self._returns[key] = result
        return result

    def _deep(self, fn: FunctionSummary, value: Value, depth: int = 0) -> Value:
        """``value`` resolved, and each item of a tuple display within it (``return (state,
        timestep), ys``), in ``fn``'s terms: what a caller gets has no way back to ``fn``'s calls."""
        out = self.resolve(fn, value)
        if not value.items or depth > _DEEP_ITEMS:
            return out
        return out.with_(items=tuple(self._deep(fn, item, depth + 1) for item in value.items))

    def _element(self, fn: FunctionSummary, result: Value, index: int) -> Value:
        """Item ``index`` of what ``fn`` returns when its return is no tuple display: of the tuple
        a call it returns gives back (``return init_runner(cfg)``, resolved), else of a NamedTuple
        (``return Batch(x, y)``) by its field in that position."""
        if result.items:
            return result.items[index] if index < len(result.items) else result
        return self._positional_field(fn, result, index) or result

    def _positional_field(self, fn: FunctionSummary, value: Value, index: int) -> Value | None:
        """Item ``index`` of a NamedTuple ``value`` (``f(*graph)``, ``a, b = make()``): its field in
        that position; None when its class or fields are not known."""
        classes = self.classes_of_value(fn, value)
        if len(classes) != 1:
            return None
        fields = self.project.classes[next(iter(classes))].fields
        return attribute_of(value, fields[index]) if index < len(fields) else None

    def substitute(
        self,
        value: Value,
        call: CallSite,
        callee: FunctionSummary,
        seen: Signature,
        item: Src | None,
        receiver: Value | None = None,
        caller: FunctionSummary | None = None,
    ) -> Value:
        """``value`` from the callee's point of view, rewritten in terms of the caller's arguments
        (``seen``: the callee's parameters as the call passes them, ``Project.signature``).
        ``receiver``: what the callee's ``self`` is, when not the object the call is made on (the
        object a constructor call makes); ``caller``: the function that makes the call, where what
        its calls return is read when a size reads it (the chunk a helper's result is as long as)."""
        context: frozenset[Src] = (
            frozenset({LoopSrc(call.loops[-1])}) if call.loops else frozenset({CallSrc()})
        )

        def arg(name: str) -> Value:
            head, _, path = name.partition(".")
            found = _passed_for(call, callee, seen, head, receiver)
            passed = found if found is not None else left_out(call, callee, head)
            return attribute_of(passed, path) if path else passed

        def sources(srcs: frozenset[Src], sized: bool = False) -> frozenset[Src]:
            """``sized``: the sources of a size, which also reads what the caller's calls return
            (resolved in the caller's terms)."""
            out: set[Src] = set()
            for src in srcs:
                if isinstance(src, ParamSrc):
                    passed = arg(src.name)
                    out |= passed.vsrc | returned_sources(passed) if sized else passed.vsrc
                elif isinstance(src, ParamShapeSrc):
                    passed = arg(src.name)
                    out |= (
                        shape_sources(passed)
                        if src.axis is None
                        else axis_sources(passed, src.axis)
                    )
                    if sized and src.axis != KIND:
                        out |= returned_sources(passed, src.axis, shape=True)
                elif isinstance(src, CallSrc):
                    out |= context
                elif isinstance(src, DrawSrc):
                    # Drawn anew per call, from the generator this call passes (or its callers do).
                    passed = arg(src.name)
                    if passed.param is not None:
                        out.add(DrawSrc(passed.param, call.loops[-1] if call.loops else None))
                    elif passed.ty == RNG:
                        out |= context
                elif isinstance(src, ItemSrc):
                    out.add(item or src)  # per item yielded here, or per element still
                elif isinstance(src, ResizeSrc):
                    # A helper's helper: resized as its own parameter is, or not at all.
                    forwarded = arg(src.name).param
                    if forwarded is not None:
                        out.add(ResizeSrc(forwarded))
                else:
                    out.add(src)
            return frozenset(out)

        if value.param is not None:
            return arg(value.param)
        if value.ref == "<self>" and callee.kind == "method" and callee.params:
            # `return self` (a fluent `fit`): the very object the call is made on, as new as it is.
            return arg(callee.params[0].name)
        shape: set[Taint] = set()
        for taint in value.shape:
            read = _chunk_read(
                taint, arg if caller is None else lambda n: self.resolve(caller, arg(n))
            )
            if read is not None and not sources(taint.sources - {read[0]}, sized=True):
                shape |= read[1]
                continue
            srcs = sources(taint.sources, sized=True)
            if srcs:
                shape.add(taint.with_sources(srcs))
        deps: set[Dep] = set()
        objs: set[Obj] = set()
        for obj in value.objs:
            objs |= objects_of(arg(obj)) if isinstance(obj, str) else {obj}
        out = Value(
            ty=value.ty,
            vsrc=sources(value.vsrc),
            fresh=sources(value.fresh),
            ref=value.ref,
            site=value.site,
            dtype=value.dtype,
            keys=value.keys,
            made=value.made,
            objs=frozenset(objs),
            elements=value.elements,
            # A helper's tuple display (a ``lax.scan`` body's ``(state, timestep)`` carry): each
            # item in the caller's terms, so that a field of one is followed past the call.
            items=tuple(
                self.substitute(v, call, callee, seen, item, receiver, caller) for v in value.items
            ),
            fields=tuple(
                (name, self.substitute(v, call, callee, seen, item, receiver, caller))
                for name, v in value.fields
            ),
            weak=value.weak,
            floor=value.floor,
            parted=value.parted,
        )
        if value.dtype_of is not None:
            taken = self.substitute(value.dtype_of, call, callee, seen, item, receiver, caller)
            out = _dtype_from(out, taken)
        inputs: list[Value] = []
        for dep in value.deps:
            if isinstance(dep, ParamDep):
                given = arg(dep.name)
                if dep.key is not None:  # its item at a key or position: the one passed there
                    given = item_passed(given, dep.key) or given
                passed = through(given, dep)
                shape |= passed.shape
                deps |= passed.deps
                inputs.append(passed)
            else:
                if isinstance(dep, FieldDep):
                    deps.add(dep)  # an object made by a call: the same object for the caller
                inputs.append(UNKNOWN_VALUE)  # a call's result not expanded here: not known
        if value.weak == FOLLOWS or _keeps_floor(value):
            # At least as wide as each strongly typed value this call passes: arithmetic, an array
            # computed with a strongly typed one of its own (``samples * self.flip_signs``), a part
            # of a parameter (``connected[rows, choice]``).
            floor = promoted_floor((out, *map(self.field_floor, inputs)))
            out = out.with_(floor=floor)
            if value.weak == FOLLOWS:
                # As weakly typed as what this call passes (a Python float, a strong array).
                out = out.with_(weak=followed(inputs))
        if out.ty == UNKNOWN and len(value.deps) == 1:
            out = out.with_(ty=_number_at_key(next(iter(value.deps)), arg))
        if _passed_on(value) and len(inputs) == 1:
            # A parameter stored as it came in (``TimeStep(..., reward, ...)``): as weakly typed,
            # and of the dtype, that this call passes.
            given = inputs[0]
            out = out.with_(weak=given.weak, dtype=given.dtype, made=given.made)
        return out.with_(shape=frozenset(shape), deps=frozenset(deps))

    def field_floor(self, value: Value) -> Value:
        """``value``, when it is an attribute of an object a call made (``self.flip_signs`` of the
        operator a caller built) with no floor of its own, with the floor of what its class stores
        there (``1.0 - 2.0 * np.eye(n)``: float64), when every store has the same one."""
        deps = list(value.deps)
        if floor_of(value) is not None or len(deps) != 1 or not isinstance(deps[0], FieldDep):
            return value
        stores = self.made_origins(deps[0].made)  # an element of it too: of the same dtype
        floors = {floor_of(self.resolve(owner, found.value)) for owner, found, _ in stores}
        return value.with_(floor=floors.pop()) if len(floors) == 1 and None not in floors else value

    # -- questions asked along the call graph ----------------------------------------------------
    def shape_causes(
        self, fn: FunctionSummary, value: Value, loops: tuple[int, ...], depth: int = 0
    ) -> Iterator[Cause]:
        """Why the shape (or structure) of ``value`` differs between executions of this point."""
        self.charge(fn)
        value = self.resolve(fn, value)
        for taint in sorted(value.shape, key=_taint_order):
            if taint.code == MAYBE_WEAK:
                taint = self.weak_flip(taint)
                if taint is None:
                    continue
            for cause in self._source_causes(fn, taint.sources, loops, depth):
                # A size read off a chunk a caller passes changes where the chunk does, at the
                # last one: the chunk's own taint tells whether that one can be short.
                chunk = cause.taint is not None and cause.taint.code == "RTL103"
                told = cause.taint if chunk else taint
                path = cause.path if chunk else (*cause.path, *self.brought(fn, taint))
                yield Cause(told, cause.driver, path)
                break
        for dep in sorted(value.deps, key=stable_repr):
            if isinstance(dep, ParamDep) and dep.elem is not None:
                yield from self.element_causes(fn, dep, loops, depth)
                continue
            if isinstance(dep, ParamDep):
                causes = self.param_causes(fn, dep.name, "shape", depth, dep.key)
            elif isinstance(dep, FieldDep) and dep.elem is None:
                causes = self.field_causes(fn, dep.made, "shape", loops, depth)
            else:
                continue
            for cause in causes:
                seen = sees(dep, cause.taint) if cause.taint is not None else None
                if seen is not None or cause.taint is None:
                    yield Cause(seen, cause.driver, cause.path)

    def weak_flip(self, taint: Taint) -> Taint | None:
        """A ``MAYBE_WEAK`` taint as the RTL401 flip it is when one of its two values is surely
        weakly typed and the other surely strong (``weak.WeakKinds``: as every caller passes, as
        the callees return), told where the weak one is made; None otherwise."""
        if taint in self._weak_flips:
            return self._weak_flips[taint]
        self._weak_flips[taint] = None  # a flip reached again while telling itself
        alternatives = next(s for s in taint.sources if isinstance(s, AltSrc))
        if alternatives.function not in self.project.functions:
            return None
        owner = self.project.function(alternatives.function)
        sides = (
            (alternatives.first, alternatives.first_at),
            (alternatives.then, alternatives.then_at),
        )
        origins = [
            self.weak_kinds.of(owner, Arg(value, at, alternatives.name), 0) for value, at in sides
        ]
        kinds = [{o.kind for o in found} for found in origins]
        scalars = [{o.scalar for o in found} for found in origins]
        if kinds in ([{WEAK}, {STRONG}], [{STRONG}, {WEAK}]):
            first, then = (WEAK, STRONG) if kinds[0] == {WEAK} else (STRONG, WEAK)
            code, origin = "RTL401", sides[0][1] if first == WEAK else sides[1][1]
        elif {WEAK} in kinds and {frozenset(s) for s in scalars} == {
            frozenset({INT}),
            frozenset({FLOAT}),
        }:
            # A Python int and a float (`t = 0` then `t += dt / 2`): two dtypes, told where the
            # int is written (a default of the function, say).
            x64 = self.x64(owner)
            ints = 0 if scalars[0] == {INT} else 1
            if kinds[ints] != {WEAK}:
                return None
            first, then = (
                canonical_dtype("int64" if side == ints else "float64", x64) for side in (0, 1)
            )
            code, origin = "RTL402", origins[ints][0].location
        else:
            return None
        found = replace(
            taint,
            code=code,
            what=taint.what.format(
                start=weak_said(first, alternatives.first), then=weak_said(then, alternatives.then)
            ),
            origin=origin,
            sources=taint.sources - {alternatives},
        )
        self._weak_flips[taint] = found
        return found

    @cached_property
    def weak_kinds(self) -> WeakKinds:
        """Where the weak types of values are decided, asked along the call graph (one memo for
        every rule that asks)."""
        from retracelint.weak import WeakKinds  # it asks this propagation its questions

        return WeakKinds(self)

    def element_causes(
        self,
        fn: FunctionSummary,
        dep: ParamDep,
        loops: tuple[int, ...],
        depth: int,
        lengths: bool = False,
    ) -> Iterator[Cause]:
        """An element of a parameter taken per iteration of a loop (``for x in xs``): its shape
        changes per iteration where the elements the callers pass differ from one to the next
        (also, for a length read off it (``lengths``), where they are of several lengths)."""
        loop = dep.elem
        if loop is None or loop not in loops or not self._repeats(fn, loop):
            return
        driver = self.loop_driver(fn, loop)
        for taint, path in self.param_elements(fn, dep.name, depth, lengths):
            seen = sees(dep, taint.with_sources((taint.sources - {ItemSrc()}) | {LoopSrc(loop)}))
            if seen is not None:
                yield Cause(seen, driver, path)

    def param_elements(
        self, fn: FunctionSummary, param: str, depth: int, lengths: bool = False
    ) -> list[tuple[Taint, tuple[PathStep, ...]]]:
        """What makes the elements the callers pass for ``param`` differ from one to the next: the
        taints (per element: ``ItemSrc``) of each argument, through parameters passed on; with
        ``lengths``, a display whose items are of several lengths too (``uneven``): a length read
        off an element changes, though an array made from an element of it may not."""
        key = (fn.qualname, param, "lengths" if lengths else "elements")
        known = self._elements.get(key)
        if known is not None:
            return known
        self._elements[key] = []  # a cycle adds nothing new
        self.charge(fn)
        found: list[tuple[Taint, tuple[PathStep, ...]]] = []
        if depth < MAX_FRAMES:
            for caller, _, arg, step in self.caller_args(fn, param):
                value = self.resolve(caller, arg.value)
                shape = sorted(value.shape, key=_taint_order)  # the first few are kept
                found += [(t, (step,)) for t in shape if ItemSrc() in t.sources]
                if lengths and uneven(list(value.items)):
                    # A display of strings, lists or records of several lengths.
                    what = f"the items of {arg.text} (of different lengths)"
                    found.append((Taint("RTL105", what, arg.location, _PER_ITEM), (step,)))
                for dep in sorted(value.deps, key=stable_repr):
                    if isinstance(dep, ParamDep) and (dep.elem is None or dep.elem == ITEM):
                        for taint, path in self.param_elements(
                            caller, dep.name, depth + 1, lengths
                        ):
                            found.append((taint, (*path, step)))
                if len(found) >= _MAX_CAUSES:
                    break
        self._elements[key] = found
        return found

    def _repeats(self, fn: FunctionSummary, loop: int) -> bool:
        """Whether a loop of ``fn`` runs its body more than once at run time (a loop of trace-time
        code is unrolled once per trace; ``for t in [0.5]`` runs once, and so does ``for i in
        range(1, len(xs))`` where every call passes two items)."""
        info = fn.loops[loop]
        if self.frequency.traced(fn.qualname) or not info.repeats:
            return False
        turns = self.frequency.turns(fn, info)
        return turns is None or turns > 1

    def value_causes(
        self, fn: FunctionSummary, value: Value, loops: tuple[int, ...], depth: int = 0
    ) -> Iterator[Cause]:
        """Why the Python value of ``value`` differs between executions of this point (a call's
        result, ``RetSrc``, as what the callee returns changes)."""
        srcs = value.vsrc
        if any(isinstance(s, RetSrc) for s in srcs):
            srcs = self.from_results(fn, srcs, depth)
        yield from self._source_causes(fn, srcs, loops, depth)

    def fresh_causes(
        self, fn: FunctionSummary, value: Value, loops: tuple[int, ...], depth: int = 0
    ) -> Iterator[Cause]:
        """Why ``value`` is a different object (identity) between executions of this point."""
        yield from self._source_causes(fn, value.fresh, loops, depth, "fresh")

    def _source_causes(
        self,
        fn: FunctionSummary,
        srcs: frozenset[Src],
        loops: tuple[int, ...],
        depth: int,
        kind: str = "value",
    ) -> Iterator[Cause]:
        self.charge(fn)
        for src in sorted(srcs, key=_src_order):
            if isinstance(src, LoopSrc) and src.index in loops:
                if self._repeats(fn, src.index):
                    yield Cause(None, self.loop_driver(fn, src.index))
            elif isinstance(src, ParamSrc):
                # An attribute's identity is asked of where it is made; a parameter's value
                # stands for its identity (a value passed anew is a new object).
                asked = kind if "." in src.name else "value"
                yield from self.param_causes(fn, src.name, asked, depth, src.key)
            elif isinstance(src, ParamShapeSrc):
                for cause in self.param_causes(fn, src.name, "shape", depth):
                    if src.sees(cause.taint):
                        yield cause
            elif isinstance(src, ElemShapeSrc):
                element = ParamDep(src.name, elem=src.loop)
                for cause in self.element_causes(fn, element, loops, depth, lengths=True):
                    if src.sees(cause.taint):
                        yield cause
            elif isinstance(src, FieldSrc):
                asked = "shape" if src.shape else kind
                for cause in self.field_causes(fn, src.made, asked, loops, depth):
                    if not src.shape or src.sees(cause.taint):
                        yield cause
            elif isinstance(src, DrawSrc) and self.generator_passed(fn, src.name, depth):
                if src.loop in loops and self._repeats(fn, src.loop):  # type: ignore[operator]
                    yield Cause(None, self.loop_driver(fn, src.loop))  # type: ignore[arg-type]
                    continue
                driver = self.repeated(fn.qualname)
                if driver is not None:
                    yield Cause(None, driver, driver.path)
            elif isinstance(src, CallSrc):
                driver = self.repeated(fn.qualname)
                if driver is not None:
                    yield Cause(None, driver, driver.path)
            elif (
                isinstance(src, ChoiceSrc)
                and src.loop in loops
                and all(made.path for made in src.fields)  # the item itself: its LoopSrc says
                and self._repeats(fn, src.loop)
                and (
                    self.given_per_iteration(src.fields) != []
                    if src.each
                    else self.fields_differ(src.fields)
                )
            ):
                yield Cause(None, self.loop_driver(fn, src.loop))

    def generator_passed(self, fn: FunctionSummary, param: str, depth: int) -> bool:
        """Whether a caller of ``fn`` passes a NumPy random generator for ``param`` (or passes on
        one its own callers pass)."""
        key = (fn.qualname, param)
        known = self._generators.get(key)
        if known is not None:
            return known
        self._generators[key] = False  # reached again while answering itself: no more than that
        self.charge(fn)
        found = depth <= MAX_FRAMES and any(
            passed is not None
            and (
                self.resolve(caller, passed.value).ty == RNG
                or (
                    passed.value.param is not None
                    and self.generator_passed(caller, passed.value.param, depth + 1)
                )
            )
            for caller, _, passed, _, _ in self.calls_of(fn, param)
        )
        self._generators[key] = found
        return found

    def param_causes(
        self, fn: FunctionSummary, param: str, kind: str, depth: int, item: str | None = None
    ) -> list[Cause]:
        """Causes found at the callers of ``fn`` for the argument they pass as ``param`` (for its
        item at literal key ``item`` alone, when given: ``cfg.get("n", 128)``)."""
        key = (fn.qualname, param, kind, item)
        if key in self._params:
            return self._params[key]
        self._params[key] = []  # a cycle in the call graph adds nothing new
        if depth >= MAX_FRAMES:
            self._cut_above(fn, param)
            return []
        self.charge(fn)
        found: list[Cause] = []
        ask = self._question(kind)
        attribute = "." in param
        self._asking.append(fn.qualname)
        self._by_reference += attribute
        for caller, call, arg, step in self.caller_args(fn, param):
            value = self._without_unread(caller, arg)
            passed = value if item is None else item_passed(value, item)
            for cause in ask(caller, passed, call.loops, depth + 1) if passed is not None else ():
                found.append(Cause(cause.taint, cause.driver, _onto(cause.path, step, fn)))
                if len(found) >= _MAX_CAUSES:
                    break
            if len(found) >= _MAX_CAUSES:
                break
        self._asking.pop()
        self._by_reference -= attribute
        # What the methods of the class store in `self.attr` changes it as often as they run.
        for method, stored in self.self_stores(fn, param) if attribute else ():
            # Read through the calls it stores the result of (`self.recover = factor(A, b)`: a
            # new closure each time).
            stored_causes = ask(method, self.resolve(method, stored.value), (), depth + 1)
            found.extend(c for c in stored_causes if self._writes_again(method, c))
        self._params[key] = found = found[:_MAX_CAUSES]
        return found

    def _without_unread(self, caller: FunctionSummary, arg: Arg) -> Value:
        """``arg``'s value, where it is what one call returns, less what only the arguments that
        call passes for parameters the callee never reads bring to it (``data = play_games(n,
        iteration=iteration)`` where ``play_games`` never names ``iteration``): the result does
        not change with them (issue 36, paths)."""
        deps = arg.value.deps
        dep = next(iter(deps)) if len(deps) == 1 else None
        if not isinstance(dep, RetDep) or dep.item is not None or dep.call >= len(caller.calls):
            return arg.value
        targets = self.project.site_targets.get((caller.qualname, dep.call), ())
        if not targets or not all(isinstance(t, FuncTarget) for t in targets):
            return arg.value
        call = caller.calls[dep.call]
        given = [*call.args, *(value for _, value in call.kwargs)]
        unread = [a for a in given if all(self._binds_unread(t, call, a) for t in targets)]
        if not unread:
            return arg.value
        read = [a for a in given if all(a is not u for u in unread)]
        kept = frozenset().union(*(a.value.vsrc for a in read))
        kept |= call.receiver.value.vsrc if call.receiver is not None else EMPTY
        dropped = frozenset().union(*(a.value.vsrc for a in unread)) - kept
        return arg.value.with_(vsrc=arg.value.vsrc - dropped)

    def _binds_unread(self, target: FuncTarget, call: CallSite, arg: Arg) -> bool:
        """Whether ``call`` passes ``arg`` for a parameter ``target``'s function never reads."""
        callee = self.project.function(target.qualname)
        signature = self.project.signature(target, callee)
        return any(not p.read and signature.arg(call, p.name) is arg for p in callee.params)

    def _cut_above(self, fn: FunctionSummary, param: str) -> None:
        """Note that the callers of ``fn`` that pass ``param`` are too far up to be asked, when
        the question came down a chain of ``MAX_FRAMES`` distinct functions' callers (a cycle, or
        a depth that fields and results added, is no chain cut)."""
        chain = [*self._asking, fn.qualname]
        distinct = len(chain) > MAX_FRAMES and len(set(chain)) == len(chain)
        if distinct and next(self.caller_args(fn, param), None) is not None:
            self.cut.add(fn.qualname)

    def field_causes(
        self, fn: FunctionSummary, made: Made, kind: str, loops: tuple[int, ...], depth: int
    ) -> list[Cause]:
        """Causes of attribute ``made`` (of an object a call made) asked at a point of ``fn`` inside
        ``loops``: at each place its value is made; in ``fn`` itself with those loops."""
        if depth >= MAX_FRAMES:
            return []
        origins = self.made_origins(made)
        # The answer depends on ``fn`` only through the loops asked in, where an origin is in ``fn``.
        # Kept, since fields made from other fields (`replace(new, sigma=new.sigma * new.decay)`)
        # are asked again along every path through them: exponentially many without it.
        at = loops if any(owner is fn for owner, _, _ in origins) else ()
        key = (made, kind, at, depth)
        known = self._fields.get(key)
        if known is None:
            self.charge(fn)
            ask = self._question(kind)
            known = []
            for owner, arg, path in origins:
                for cause in ask(owner, arg.value, at if owner is fn else (), depth + 1):
                    if _spliced(cause, owner, path) or not self._writes_again(owner, cause):
                        continue
                    known.append(
                        (owner.qualname, Cause(cause.taint, cause.driver, (*cause.path, *path)))
                    )
                    if len(known) >= _MAX_CAUSES:
                        break
                if len(known) >= _MAX_CAUSES:
                    break
            self._fields[key] = known
        if self._by_reference:
            return [cause for _, cause in known]
        if not self._reads_once(fn, loops):
            return [
                at_read
                for owner, cause in known
                if (at_read := self._between_reads(fn, loops, made, owner, cause)) is not None
            ]
        return [cause for owner, cause in known if owner == fn.qualname or cause.driver is None]

    def _between_reads(
        self, fn: FunctionSummary, loops: tuple[int, ...], made: Made, owner: str, cause: Cause
    ) -> Cause | None:
        """``cause`` of a change to a field of the object ``made``, as a point of ``fn`` inside
        ``loops`` that reads the field itself sees it: the field changes between two executions of
        the point only when what changes it runs between them. A field its writer ``owner``
        changes on each of its calls (``self.items.append(x)``) changes there when the point's own
        loop runs the writer (told by that loop: a builder grown and built anew in each round); a
        change a loop drives, when that loop runs the point again. Otherwise the change is over
        before the point's loop starts (``space = builder.build()`` after the loop that filled the
        builder, or a loop elsewhere that fills another object of the class), and reaches the
        point only from one call of ``fn`` to the next (``_per_call``). None when it does not."""
        if cause.driver != self.repeated(owner):
            if self._drives_point(fn, loops, cause):
                return cause
        else:
            found = self._driver_loops(cause)
            if found is None or (found[0] is fn and any(loop in loops for loop in found[1])):
                return cause
            for loop in reversed(loops):
                if self._repeats(fn, loop) and owner in self._run_by_loop(fn.qualname, loop):
                    return Cause(cause.taint, self.loop_driver(fn, loop))
        return self._per_call(fn, made, owner, cause)

    def _per_call(self, fn: FunctionSummary, made: Made, owner: str, cause: Cause) -> Cause | None:
        """``cause``, a change made before a point of ``fn`` reads it, as the calls of ``fn`` see
        it: none when nothing repeats ``fn``; told by what repeats ``fn`` when each call fills an
        object of its own (a local builder: what it holds differs per call only as the filling
        does, a file parsed per model); as it is when the object outlives the call."""
        driver = self.repeated(fn.qualname)
        if driver is None or not self._filled_per_call(fn, made, owner):
            return None if driver is None else cause
        return Cause(cause.taint, driver, driver.path)

    def _filled_per_call(self, fn: FunctionSummary, made: Made, owner: str) -> bool:
        """Whether the object ``owner`` (a method) writes is ``made`` by a constructor call of
        ``fn``: each call of ``fn`` fills an object of its own (a local builder), which no other
        call of it sees. A field copied from another object (a scene ``self.builder.build()``
        makes) may come from one that outlives the call."""
        site = self.project.symbols.call_at(made.at)
        writer = self.project.functions.get(owner)
        if site is None or site[0] != fn.qualname or writer is None:
            return False
        target = self.project.targets.get(site)
        cls = self.project.symbols.class_of_method(writer)
        return isinstance(target, ClassTarget) and cls in self.project.symbols.mro(target.qualname)

    def _drives_point(self, fn: FunctionSummary, loops: tuple[int, ...], cause: Cause) -> bool:
        """Whether the loop that drives ``cause`` runs a point of ``fn`` inside ``loops`` again:
        it is one of ``loops``, or a loop elsewhere that runs ``fn``. A driver not found among the
        loops of the path's first function (a function repeated as a whole) does."""
        found = self._driver_loops(cause)
        if found is None:
            return True
        top, driving = found
        if top is fn:
            return any(loop in loops for loop in driving)
        return any(fn.qualname in self._run_by_loop(top.qualname, loop) for loop in driving)

    def _writes_again(self, owner: FunctionSummary, cause: Cause) -> bool:
        """Whether the loop that drives ``cause`` runs ``owner``, the method that stores the field,
        again. A field is what its writer computed when it ran: ``self.n_layers =
        relation.count(self.scatter)`` in a setup method holds one value for the run, however often
        a loop that never reaches the setup rebuilds ``self.scatter`` (an ``update_params`` per
        point of a scan). A driver not found among the loops of the path's first function (a
        function repeated as a whole) is kept."""
        found = self._driver_loop(cause)
        if found is None or found[0] is owner:
            return True
        return owner.qualname in self._run_by_loop(found[0].qualname, found[1])

    def _driver_loop(self, cause: Cause) -> tuple[FunctionSummary, int] | None:
        """The function the path of ``cause`` starts in and the index of its loop that is the
        cause's driver; None without a driver, a path, or such a loop."""
        start = self._driven_start(cause)
        if start is None:
            return None
        index = _loop_at(*start)
        return None if index is None else (start[0], index)

    def _driver_loops(self, cause: Cause) -> tuple[FunctionSummary, tuple[int, ...]] | None:
        """The function the path of ``cause`` starts in and its repeating loops that drive the
        cause: the loop the driver is, or those around the call it repeats (``each call of f(),
        called in the loop at ...``). None without a driver, a path, or such a loop."""
        start = self._driven_start(cause)
        if start is None:
            return None
        top, at = start
        index = _loop_at(top, at)
        if index is not None:
            return top, (index,)
        call = self.project.symbols.call_at(at)
        if call is None or call[0] != top.qualname:
            return None
        driving = tuple(i for i in top.calls[call[1]].loops if self._repeats(top, i))
        return (top, driving) if driving else None

    def _driven_start(self, cause: Cause) -> tuple[FunctionSummary, Location] | None:
        """The function the path of ``cause`` starts in, with where its driver is; None without a
        driver or a path, or when that function is not the project's."""
        if cause.driver is None or not cause.path:
            return None
        top = self.project.functions.get(cause.path[0].function)
        return None if top is None else (top, cause.driver.location)

    def _run_by_loop(self, qualname: str, loop: int) -> frozenset[str]:
        """The functions the calls inside loop ``loop`` of ``qualname`` run (memoised)."""
        key = (qualname, loop)
        runs = self._loop_runs.get(key)
        if runs is None:
            runs = self._loop_runs[key] = frozenset(self.frequency.run_by_loop(*key))
        return runs

    def _reads_once(self, fn: FunctionSummary, loops: tuple[int, ...]) -> bool:
        """Whether a point of runtime ``fn`` inside ``loops`` that reads a field itself (not an
        object it passes down, ``_by_reference``) runs once: no loop of them repeats and nothing
        repeats ``fn``. A loop or a repetition that drives the maker of a field it
        reads (a parser's `while` over the lines of one file, in a callee) ends before the point
        reads what it left: it repeats the making, not the read."""
        if self.frequency.traced(fn.qualname):
            return False
        return self.repeated(fn.qualname) is None and not any(
            self._repeats(fn, loop) for loop in loops
        )

    def _question(self, kind: str) -> Callable[..., Iterator[Cause]]:
        if kind == "shape":
            return self.shape_causes
        return self.fresh_causes if kind == "fresh" else self.value_causes

    # -- sizes made by the callers --------------------------------------------------------------
    def last_chunk_short(self, taint: Taint) -> bool | None:
        """Whether the last chunk of a range loop can be short for the calls the project makes:
        False when every size it reads (``Chunking.reads``) is known where its value is made (a
        literal or local constant passed, an array or list of constant lengths) and, for every
        combination of them, the span is a multiple of the step; None when the step is a number
        the Python does not hold (``configured``: read from a JSON file, the command line), so that
        no size is known to leave a remainder; True otherwise: sizes known to leave one, a step the
        program fixes over data of a length not known (a batch size of 32: all but one length in
        32 leave a remainder), a step the walk could not follow (``*args``, a method of an object
        not known), a function that branches on the remainder (``Chunking.remainder``), or a chunk
        the summariser saw short. False, too, when the code skips the short chunk under a flag
        (``Taint.dropped_if``) that every call making it passes true. The pieces of a split into
        a count of them (``Taint.pieces``) are short only where the length split is known: None
        where it is not."""
        if taint.dropped_if is not None and self.flag_set(*taint.dropped_if):
            return False
        chunking = taint.full_if
        if chunking is None:
            return None if taint.pieces else True
        names: list[str] = []
        choices: list[set[int]] = []
        step = chunking.step_reads()
        unknown = unknown_length = False
        for name, function, value, axis in chunking.reads:
            # The function itself, or the enclosing one whose parameter its closure reads.
            fn = self.project.functions.get(function)
            if fn is None or fn.location.path != taint.origin.path:
                return True
            read = Arg(value, fn.location, name)
            sizes = self.sizes(fn, read, axis, 0)
            if not sizes and name in step and not chunking.remainder and self.configured(fn, read):
                return None
            unknown = unknown or not sizes
            unknown_length = unknown_length or (not sizes and name not in step)
            names.append(name)
            choices.append(sizes or set())
        if unknown:
            return None if taint.pieces and unknown_length else True
        combinations = product(*choices)
        for combination in islice(combinations, _MAX_COMBINATIONS):
            if not chunking.full(dict(zip(names, combination, strict=True))):
                return True
        return next(combinations, None) is not None  # too many to try: left as it is

    def flag_set(self, function: str, value: Value) -> bool:
        """Whether the flag ``value`` (read in ``function``) is true on every way the project makes
        it: ``True`` passed, or a name bound to it alone (``Arg.known`` holds a bool as 1 or 0)."""
        fn = self.project.functions.get(function)
        if fn is None:
            return False
        sizes = self.sizes(fn, Arg(value, fn.location, "flag"), None, 0)
        return bool(sizes) and 0 not in sizes

    def sizes(self, fn: FunctionSummary, arg: Arg, axis: int | None, depth: int) -> set[int] | None:
        """Every size ``arg`` (at a point of ``fn``) may have: an int's value (``axis`` None) or the
        length of its axis ``axis``, as known where it is made (a call that leaves an int parameter
        out: its default written as an int). None when one of them is not known, or some call of
        ``fn`` does not pass the parameter it is and it has no such default (``*args``)."""
        self.charge(fn)
        known = self._known_size(fn, arg, axis)
        if known is not None:
            return {known}
        param = arg.value.param
        if depth >= MAX_FRAMES:
            return None
        defaults: set[int] = set()
        if param is None:
            places = [
                (owner, place) for owner, place, _, _ in self.field_candidates(fn, arg, (), ())
            ]
        else:
            places = []
            # A call that leaves an int parameter out passes its default (a length has none).
            default = given.size if (given := fn.param(param)) is not None else None
            if axis is not None:
                default = None
            for caller, _, passed, _, _ in self.calls_of(fn, param):
                if passed is None:
                    if default is None:
                        return None
                    defaults.add(default)
                else:
                    places.append((caller, passed))
        out = defaults
        for owner, place in places:
            found = self.sizes(owner, place, axis, depth + 1)
            if not found:
                return None
            out |= found
        return out

    def configured(self, fn: FunctionSummary, arg: Arg, depth: int = 0) -> bool:
        """Whether the int ``arg`` (at a point of ``fn``) is, on every way the project makes it,
        read from what code outside the project returns: a configuration loaded from JSON or YAML
        (``cfg["batch_size"]``), the command line (``args.batch_size``), through parameters, items
        of them and object fields. A value no call passes, or one the walk could not follow, is no
        such evidence."""
        if depth >= MAX_FRAMES or self._known_size(fn, arg, None) is not None:
            return False
        value = arg.value
        if value.param is not None:
            return self._passed_configured(fn, value.param, depth)
        if value.objs and all(map(self._made_outside, value.objs)):
            return True  # args.batch_size
        places = [(owner, place) for owner, place, _, _ in self.field_candidates(fn, arg, (), ())]
        if places:
            return all(self.configured(owner, place, depth + 1) for owner, place in places)
        return bool(value.deps) and all(self._read_outside(fn, dep, depth) for dep in value.deps)

    def _passed_configured(self, fn: FunctionSummary, param: str, depth: int) -> bool:
        calls = [(caller, passed) for caller, _, passed, _, _ in self.calls_of(fn, param)]
        return bool(calls) and all(
            passed is not None and self.configured(caller, passed, depth + 1)
            for caller, passed in calls
        )

    def _read_outside(self, fn: FunctionSummary, dep: Dep, depth: int) -> bool:
        """Whether ``dep`` is what a call the project holds no code of returns (or an attribute of
        the object it makes), or an item of a parameter (``cfg["bs"]``) whose callers pass such."""
        if isinstance(dep, RetDep):
            return not self.project.site_targets.get((fn.qualname, dep.call))
        if isinstance(dep, FieldDep):
            return self._made_outside(dep.made)
        if isinstance(dep, ParamDep) and dep.key is not None:
            return self._passed_configured(fn, dep.name, depth)
        return False

    def _made_outside(self, obj: object) -> bool:
        """Whether ``obj`` is (an attribute of) what a call the project holds no code of makes:
        ``parser.parse_args()``."""
        site = self.project.symbols.call_at(obj.at) if isinstance(obj, Made) else None
        return site is not None and not self.project.site_targets.get(site)

    def _known_size(self, fn: FunctionSummary, arg: Arg, axis: int | None) -> int | None:
        """An int argument's value (``axis`` None), an imported constant's, or the length of its
        axis ``axis``."""
        known = arg.known
        if axis is None:
            if isinstance(known, str):  # an imported name: what its module binds it to
                return self.project.symbols.constant(known, self.project.owner[fn.qualname])
            return known if isinstance(known, int) else None
        lengths = self.known_axes(fn, arg)
        return lengths[axis] if lengths is not None and axis < len(lengths) else None

    def known_axes(
        self, fn: FunctionSummary, arg: Arg, arrays: bool = False
    ) -> tuple[int | None, ...] | None:
        """The constant lengths of an argument's axes (a list's: its length), None where one is not
        known; () for a number, which has none; an imported name's as its module binds it. None
        when none is known, or with ``arrays`` for a collection (its length is its pytree
        structure, not a shape)."""
        known, value = arg.known, arg.value
        if isinstance(known, str):
            held = self.project.symbols.global_value(known, self.project.owner[fn.qualname])
            if held is None:
                return None
            known, value = axis_lengths(held), held
        if arrays and value.ty in _COLLECTIONS:
            return None
        if value.ty in AXISLESS:
            return ()
        return known if isinstance(known, tuple) else None

    # -- drivers ------------------------------------------------------------------------------------
    def loop_driver(self, fn: FunctionSummary, index: int) -> Driver:
        loop = fn.loops[index] if index < len(fn.loops) else None
        if loop is None:
            return Driver("every iteration of a loop", fn.location)
        return Driver(
            f"every iteration of the loop at {where(loop.location)} ({loop.text})",
            loop.location,
            bounded=loop.over_axes,
            count=loop.count,
            over_items=self.walks_held(fn, loop),
            walk=walked(loop),
        )

    def walks_held(self, fn: FunctionSummary, loop: LoopInfo) -> bool:
        """Whether the loop walks a collection held in memory: one the source shows
        (``LoopInfo.over_items``), one its object holds, a list built from such, or a few items
        every call gives it (``_given_few``)."""
        return (
            loop.over_items
            or self.holds_collection(fn, loop.walks)
            or self.walks_built(fn, loop.walks_calls)
            or self._given_few(fn, loop)
        )

    def _given_few(self, fn: FunctionSummary, loop: LoopInfo) -> bool:
        """Whether ``loop`` walks a parameter every call gives a few items the source spells out
        (``train(config, DEFAULT_TASKS)``); a long range given (``steps=range(10_000)``) is the
        steps of a run, not a collection."""
        given = self.frequency.given_points(fn, loop)
        return given is not None and given.count <= FEW_ITERATIONS

    def walks_built(self, fn: FunctionSummary, calls: tuple[int, ...]) -> bool:
        """Whether ``calls`` of ``fn`` return lists built by walking collections held in memory
        (``list_models()`` appending the names of a dict of configurations, a method listing the
        configured batch sizes), or a library's filter or sort of one (``fnmatch.filter(models,
        pattern)``): walked again, they give the same items; a loader or a generator does not."""
        built = [call for call in calls if self._builds_held(fn, call)]
        return bool(built) and all(
            call in built or self._passes_on(fn, call, built) for call in calls
        )

    def _builds_held(self, fn: FunctionSummary, call: int) -> bool:
        """Whether every function ``call`` runs walks only collections held in memory (at least
        one) and returns rather than yields: what it returns is made from their items."""
        targets = self.project.site_targets.get((fn.qualname, call), ())
        functions = [
            self.project.function(t.qualname) for t in targets if isinstance(t, FuncTarget)
        ]
        return bool(functions) and all(
            g.yields is None
            and bool(g.loops)
            and all(loop.over_items or self.holds_collection(g, loop.walks) for loop in g.loops)
            for g in functions
        )

    def _passes_on(self, fn: FunctionSummary, call: int, built: list[int]) -> bool:
        """Whether ``call`` is one of a library's (no function of the project) and is given what
        one of ``built`` returns: a filter or a sort of that list."""
        if any(
            isinstance(t, FuncTarget)
            for t in self.project.site_targets.get((fn.qualname, call), ())
        ):
            return False
        return any(
            isinstance(dep, RetDep) and dep.call in built
            for arg in self.project.function(fn.qualname).calls[call].args
            for dep in arg.value.deps
        )

    def holds_collection(self, fn: FunctionSummary, attr: str) -> bool:
        """Whether ``self.attr`` of method ``fn`` is a collection its object holds: what each
        ``__init__`` of its class hierarchy stores there is a list, tuple, dict or set (a
        configuration's sizes, the trainers built for it), and no other method or function stores
        there (none grows or replaces it). Walked again, it gives the same items: a sweep over
        them adds one trace per item, not one per step."""
        cls = self.project.symbols.class_of_method(fn) if attr else None
        if cls is None:
            return False
        return self.stored_kind(cls, attr) in _COLLECTIONS and not self.stores(cls, attr)

    def repeated(self, qualname: str) -> Driver | None:
        """Why a function runs more than once at run time (see ``frequency``)."""
        return self.frequency.repeated(qualname)

    @query("prop")
    def functions_with(self, has: Callable[[FunctionSummary], bool]) -> list[FunctionSummary]:
        """The functions of the project that ``has``, in its order (``Picked``)."""
        project = self.project
        return [project.functions[name] for name in self.picked.names(project.modules, has)]

    @query("prop")
    def jits_with(self, has: Callable[[JitSpec], bool]) -> list[JitTarget]:
        """The jit sites of the project whose spec ``has``, in its order (``Picked``)."""
        return jits_with(self.project, self.picked, has)

    # -- jit call sites -----------------------------------------------------------------------------
    def jit_calls(self) -> Iterator[tuple[FunctionSummary, int, JitTarget]]:
        """Each call of a jitted function, with the jit it calls (a call may reach several)."""
        project = self.project
        for caller, index, target in self._jit_sites():
            yield project.function(caller), index, target

    @query("prop")
    def _jit_sites(self) -> list[tuple[str, int, JitTarget]]:
        """``jit_calls``' sites in order, found once per run: four checks walk them, and the
        link does not change while they do (the speed corpus has 5,700)."""
        if self._jit_site_list is None:
            project = self.project
            sites = sorted({s for sites in project.jit_callers.values() for s in sites})
            self._jit_site_list = [
                (caller, index, target)
                for caller, index in sites
                for target in project.site_targets[caller, index]
                if isinstance(target, JitTarget)
            ]
        return self._jit_site_list

    def static_candidates(
        self,
        fn: FunctionSummary,
        arg: Arg,
        loops: tuple[int, ...],
        path: tuple[PathStep, ...],
        depth: int = 0,
    ) -> list[Candidate]:
        """Where a static argument's value is made: follow plain parameter forwarding up to the
        callers. Each place once, by its shortest call path (the first found if several): a value
        forwarded through layers of wrappers reaches the same place by many paths (jax's own
        sources: 24,817 paths to 252 places), and a finding keeps only the shortest anyway."""
        param = arg.value.param
        if param is None and arg.value.ref == "<self>" and _receiver_of(fn) is not None:
            param = _receiver_of(fn)  # `self.run_jitted(...)`: the object the method is called on
        if param is None or depth >= MAX_FRAMES:
            return [(fn, arg, loops, path)]
        return [
            (caller, origin, at, (*steps, *path))
            for caller, origin, at, steps in self._forwarded(fn, param, depth)
        ]

    def _forwarded(self, fn: FunctionSummary, param: str, depth: int) -> list[Candidate]:
        """``static_candidates`` for parameter ``param`` of ``fn``, with paths that end at ``fn``.
        The answer depends on nothing else, so it is kept: the same forwarding chains are walked
        for every static argument that goes through them."""
        key = (fn.qualname, param, depth)
        known = self._forwards.get(key)
        if known is not None:
            return known
        self.charge(fn)
        best: dict[tuple[str, Location, tuple[int, ...]], Candidate] = {}
        receiver = param == _receiver_of(fn)
        for seen, (caller, call, passed, step) in enumerate(
            self.caller_args(fn, param, receiver), start=1
        ):
            for found in self.static_candidates(caller, passed, call.loops, (step,), depth + 1):
                place = (found[0].qualname, found[1].location, found[2])
                kept = best.get(place)
                if kept is None or len(found[3]) < len(kept[3]):
                    best[place] = found
            if seen >= _MAX_CAUSES:
                break
        self._forwards[key] = answer = list(best.values())
        return answer

    def caller_args(
        self, fn: FunctionSummary, param: str, receiver: bool = False
    ) -> Iterator[tuple[FunctionSummary, CallSite, Arg, PathStep]]:
        """Each known call of ``fn`` that passes ``param``: the caller, the call, the argument, the
        step; with ``receiver``, a method's ``self`` is the object the method is called on (as it
        is for an attribute of it, ``self.lr``)."""
        head, _, path = param.partition(".")
        for caller, call, passed, step in self.passed_for(fn, head, receiver or bool(path)):
            if path:
                value = self.attribute_read(caller, passed.value, path)
                passed = Arg(value, passed.location, f"{passed.text}.{path}")
            yield caller, call, passed, step

    def passed_for(
        self, fn: FunctionSummary, param: str, receiver: bool = False
    ) -> Iterator[tuple[FunctionSummary, CallSite, Arg, PathStep]]:
        """Each known call of ``fn`` that passes ``param``; with ``receiver``, a method's ``self``
        is the object the method is called on."""
        for caller, call, passed, step, _ in self.calls_of(fn, param, receiver):
            if passed is not None:
                yield caller, call, passed, step

    def calls_of(
        self, fn: FunctionSummary, param: str, receiver: bool = False
    ) -> Iterator[tuple[FunctionSummary, CallSite, Arg | None, PathStep, Target | None]]:
        """Each known call of ``fn``, with what it passes for ``param`` (None: nothing), and what
        the call reaches ``fn`` as."""
        for caller_name, index in self.project.callers.get(fn.qualname, ()):
            caller = self.project.function(caller_name)
            call = caller.calls[index]
            target = self.project.target_to((caller_name, index), fn.qualname)
            seen = self.project.signature(target, fn)
            # A method called on an instance (or a class called to make one) has `self` bound.
            if receiver and seen.bound and fn.params and param == fn.params[0].name:
                passed = call.receiver
            else:
                passed = seen.arg(call, param)
            step = PathStep(caller.qualname, call.text, call.location)
            yield caller, call, passed, step, target


def _inputs_vary(site: CallSite, receiver: bool) -> frozenset[Src]:
    """What the arguments of ``site`` vary with (its receiver's too, with ``receiver``)."""
    inputs = [*site.args, *(arg for _, arg in site.kwargs)]
    if receiver and site.receiver is not None:
        inputs.append(site.receiver)
    return frozenset().union(*(arg.value.vsrc for arg in inputs))


def _chunk_read(taint: Taint, arg: Callable[[str], Value]) -> tuple[Src, frozenset[Taint]] | None:
    """The source of ``taint`` that reads the length of a chunk a caller passes (``len(batch)``),
    and the taints of that length, the chunk's own among them: the size changes where the chunk
    does, at the last one, and the chunk's taint tells whether that one can be short (``checks``
    asks ``last_chunk_short``). None when no source reads such a length."""
    reads = [s for s in taint.sources if isinstance(s, ParamShapeSrc)]
    if len(reads) != 1 or reads[0].axis is None or reads[0].axis == KIND:
        return None
    src = reads[0]
    passed = arg(src.name)
    on_axis = [t for t in passed.shape if t.axis in (src.axis, None) and ItemSrc() not in t.sources]
    if sum(t.code == "RTL103" for t in on_axis) != 1:
        return None
    if not axis_sources(passed, src.axis) <= frozenset().union(*(t.sources for t in on_axis)):
        return None
    return src, frozenset(replace(t, axis=taint.axis) for t in on_axis)


def _spliced(cause: Cause, owner: FunctionSummary, route: tuple[PathStep, ...]) -> bool:
    """Whether ``cause``, found above ``owner``, a callee that a field's ``route`` of calls went
    down into from the function that made the object, climbs out of it through another of its
    callers: a loop around a different call of it (``list_runs`` loading every run, or another
    call in the same function) does not repeat the call the object came back from (``evaluate``
    loading one)."""
    if not cause.path or not route or route[-1].function == owner.qualname:
        return False
    entry = route[-1].location  # the call the object came back from
    return all(step.location != entry for step in cause.path)


def _receiver_of(fn: FunctionSummary) -> str | None:
    """A method's ``self`` parameter."""
    return fn.params[0].name if fn.kind == "method" and fn.params else None


def _passed_for(
    call: CallSite, callee: FunctionSummary, seen: Signature, name: str, receiver: Value | None
) -> Value | None:
    """What ``call`` passes for ``callee``'s parameter ``name`` (``seen``: its parameters as the call
    passes them): for ``self``, the object it is called on (or ``receiver``)."""
    if seen.bound and callee.params and name == callee.params[0].name and callee.kind == "method":
        if receiver is not None:
            return receiver
        return call.receiver.value if call.receiver is not None else None
    found = seen.arg(call, name)
    if found is not None:
        return found.value
    if call.star or not any(p.name == name and p.kind == "kwarg" for p in callee.params):
        return None
    # `**overrides`: a dict of the keywords no other parameter takes.
    named = {p.name for p in callee.params}
    rest = [(key, arg.value) for key, arg in call.kwargs if key not in named]
    return combine([v for _, v in rest], ty=DICT).with_(
        fields=tuple(sorted((entry(key), v) for key, v in rest))
    )


def _number_at_key(dep: Dep, arg: Callable[[str], Value]) -> str:
    """The kind of a value that is the item at a literal key of a parameter (``entry["z_lens"]``)
    when the dict passed for it holds a number of one kind there (a record of a module's table);
    else not known."""
    if not isinstance(dep, ParamDep) or dep.key is None:
        return UNKNOWN
    item = read_field(arg(dep.name), dep.key)
    return item.ty if item.ty in (INT, FLOAT) else UNKNOWN


def _loop_at(fn: FunctionSummary, at: Location) -> int | None:
    """The index of the loop of ``fn`` at ``at``; None when no loop of it is there."""
    return next((i for i, loop in enumerate(fn.loops) if loop.location == at), None)


def _within(value: Value, dep: Dep) -> Value:
    """The item ``dep`` takes within the item of a call's result it names (``RetDep.below``), as
    far as the items are known; past that, the item it names. Of a dict, the item at its literal
    key (``skip_state["should_skip"]``): what the dict holds there, else a value of unknown kind,
    never the dict itself (its keys are not the item's structure)."""
    if not isinstance(dep, RetDep):
        return value
    for item in dep.below:
        if item >= len(value.items):
            break
        value = value.items[item]
    if dep.key is None or value.ty != DICT:
        return value
    held = entry(dep.key)
    return next((v for name, v in value.fields if name == held), _item_unknown(value))


def _item_unknown(container: Value) -> Value:
    """An item of ``container`` that the summary does not hold: it changes as the container does,
    of no known kind, dtype or structure."""
    return Value(vsrc=container.vsrc, shape=container.shape, deps=container.deps)


def _new_instance(fn: FunctionSummary, call: CallSite, cls: str) -> Value:
    """What a constructor call (in ``fn``) makes: a new object of class ``cls`` per iteration of
    its innermost loop, per call of ``fn``, or once at module level."""
    fresh = made_anew(call.loops, fn.kind == "module")
    return Value(ty=INSTANCE, ref=cls, fresh=fresh, objs=frozenset({Made(call.location)}))


def left_out(call: CallSite, callee: FunctionSummary, name: str) -> Value:
    """What ``callee``'s parameter ``name`` is when ``call`` does not pass it: the number its
    default is (``dt=0.01``, a constant), or the dtype it names (``dtype=jnp.float32``), else not
    known."""
    param = callee.param(name)
    if call.star or param is None:
        return UNKNOWN_VALUE
    if param.dtype is not None:
        return Value(ty=DTYPE, dtype=param.dtype)
    return UNKNOWN_VALUE if param.default is None else Value(ty=param.default)


def _filled_with(element: Value) -> frozenset[Made]:
    """The objects ``element``, an item of a list a callee filled in a loop, may be (``picked``)."""
    each = any(isinstance(s, ChoiceSrc) and s.each for s in element.vsrc)
    return made_objects(element) if each else EMPTY


def _keeps_floor(value: Value) -> bool:
    """Whether ``value``, of no known dtype, is at least as wide as each parameter it depends on:
    an array promoted with a surely strong one, or a part of one parameter (an item, a slice)."""
    if value.dtype is not None or value.dtype_of is not None or value.parted:
        return False
    if value.weak == MADE_STRONG and value.ty in ARRAYS:
        return True
    deps = list(value.deps)
    return (
        value.ty == UNKNOWN
        and value.weak is None
        and len(deps) == 1
        and isinstance(deps[0], ParamDep)
        and deps[0].elem is None
    )


def _passed_on(value: Value) -> bool:
    """Whether ``value`` is one parameter as it came in, of a kind the summary does not know."""
    if value.ty != UNKNOWN or value.weak is not None or len(value.deps) != 1:
        return False
    dep = next(iter(value.deps))
    return isinstance(dep, ParamDep) and dep.aligned and dep.elem is None and not dep.fixed


_DEEP_ITEMS = 2  # how many tuples deep a helper's result is resolved item by item


def _merge_shape(value: Value, extra: Value, sole: bool = True) -> Value:
    merged = value.with_(
        shape=value.shape | extra.shape,
        deps=value.deps | extra.deps,
        vsrc=value.vsrc | extra.vsrc,
        fresh=value.fresh | extra.fresh,
    )
    if value.ty == UNKNOWN and extra.ty != UNKNOWN:
        # Surely strong stays so (the leaves a tree_map makes with a dtype, of the tree it maps).
        weak = value.weak if value.weak == MADE_STRONG else extra.weak
        merged = merged.with_(ty=extra.ty, ref=extra.ref if extra.ref else value.ref, weak=weak)
    elif value.weak == FOLLOWS:
        # An array as weakly typed as the call's result: strong, weak or unknown as it is.
        merged = merged.with_(weak=followed([value.with_(deps=merged.deps), extra]))
    elif value.weak == UNSURE and extra.weak == MADE_STRONG:
        # Promoted with a value of unknown kind, and this call's result is surely strong: so is it.
        merged = merged.with_(weak=MADE_STRONG)
    elif sole and value.weak is None and not value.deps and value.ty == extra.ty:
        # The call's result as it is, typed by the caller's summary (a helper of its module returns
        # an array) but not weighed: as weakly typed as the callee makes it (``jnp.sqrt(jnp.mean(
        # ...))`` is strong).
        merged = merged.with_(weak=extra.weak)
    # The call's result is known to be an array; a part taken of it is not of its complex dtype.
    part = value.parted and is_complex(extra.dtype)
    if (
        sole
        and merged.dtype is None
        and extra.dtype is not None
        and extra.ty == merged.ty
        and not part
    ):
        merged = merged.with_(dtype=extra.dtype, made=extra.made)
        # Promoted where it is used (``counts(state) / 10.0``): the lattice's bound, made there.
        raised = lifted(extra.dtype, value.floor) if value.floor is not None else None
        if raised is not None:
            weak = UNSURE if raised.weak else MADE_STRONG
            merged = merged.with_(dtype=raised.dtype, made=value.floor[1], weak=weak)
    elif sole and merged.dtype is None and extra.dtype_of is not None and extra.ty == merged.ty:
        # A helper's array of the dtype of something it is given (``jnp.take(self.table, ids)``):
        # that dtype, read where the caller knows it.
        merged = merged.with_(dtype_of=merged.dtype_of or extra.dtype_of, made=extra.made)
    if merged.keys is None and extra.keys is not None and merged.ty == extra.ty:
        merged = merged.with_(keys=extra.keys)
    promoted = value.weak == FOLLOWS or (value.weak == MADE_STRONG and value.dtype is None)
    if promoted or (value.ty == UNKNOWN and value.weak is None and not value.deps):
        # The call's result promoted with the rest (or passed on as it is): at least as wide; also
        # beside a reduction (``beta * v + (1 - beta) * jnp.mean(g * g)``, ``beta`` a helper's
        # float32), which makes the whole strong but not its dtype.
        merged = merged.with_(floor=promoted_floor((value, extra)))
    if not value.fields and merged.ty == DICT:
        # The items a dict the call returns holds at literal keys (`dict(params, **overrides)`).
        merged = merged.with_(fields=tuple((n, v) for n, v in extra.fields if n.startswith("[")))
    if sole and not value.items and extra.items and merged.ty == extra.ty:
        # The tuple a helper returns (a ``lax.scan``'s carry, ``(state, timestep)``), item by item.
        merged = merged.with_(items=extra.items)
    if sole and merged.made is None and merged.ty == extra.ty and extra.ty in (TUPLE, LIST, DICT):
        # Where the helper writes the plain container it returns (``return tuple((n, mean))``).
        merged = merged.with_(made=extra.made)
    if sole and not value.objs and extra.objs and merged.ty == INSTANCE:
        # The object a helper makes (``transition(...)`` returns a ``TimeStep``): its fields are
        # asked where it is made.
        merged = merged.with_(objs=extra.objs)
    return merged


def _onto(path: tuple[PathStep, ...], step: PathStep, fn: FunctionSummary) -> tuple[PathStep, ...]:
    """``path``, from a driver down to the caller that makes ``step`` (a call of ``fn``), continued
    by it; unless it already runs in ``fn``: a loop of ``fn`` repeats a method (``gp.update()``)
    that changes what the caller passed, so the caller's call brackets the driver and is not on
    the way down from it. Appending it would show ``fn`` calling its own caller (library code
    calling a test, round 12's BOBE)."""
    if any(s.function == fn.qualname for s in path):
        return path
    return (*path, step)


def _taint_order(taint: Taint) -> tuple:
    """A total order: two taints of one place and rule (a loop walked twice words one flip two ways)
    left in a set's order would make the first cause found, and so the route and message shown,
    follow the hash seed."""
    loc = taint.origin
    axis = -1 if taint.axis is None else taint.axis
    return (
        loc.path,
        loc.line,
        loc.col,
        taint.code,
        taint.what,
        axis,
        sorted(map(_src_order, taint.sources)),
        stable_repr((taint.full_if, taint.dropped_if)),
    )


_PER_ITEM: frozenset[Src] = frozenset({ItemSrc()})


def _src_order(src: Src) -> tuple:
    """Innermost loops first (they have the highest index), then parameters, then calls."""
    if isinstance(src, LoopSrc):
        return (0, -src.index, "")
    if isinstance(src, AltSrc):
        return (8, 0, src.name)  # no source of variation: never a cause
    order = {ParamSrc: 1, ParamShapeSrc: 2, CallSrc: 3}
    return (order.get(type(src), 9), 0, stable_repr(src))


__all__ = ["EMPTY", "MAX_STEPS", "Cause", "Cut", "CutShort", "Driver", "Propagation", "join"]


def _origins(value: Value) -> set[Location]:
    """Where the taints of ``value`` and of its items and fields are made."""
    out = {taint.origin for taint in value.shape}
    for part in (*value.items, *(v for _, v in value.fields)):
        out |= _origins(part)
    return out


def _dtype_from(value: Value, taken: Value) -> Value:
    """``value``, made with the dtype of ``taken`` (``Value.dtype_of``): that dtype when ``taken``
    has one (or a pytree's leaves all have: ``p.dtype`` of a ``tree_map``'s leaf), else still to be
    read from what ``taken`` takes it from."""
    dtype = leaves_dtype(taken)
    if dtype is not None:
        return value.with_(dtype=dtype, dtype_of=None)
    return value.with_(dtype_of=dtype_taken(taken))
