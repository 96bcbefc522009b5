"""How often each function runs: once, repeatedly, or only while a jit traces.

A re-trace costs something only where the code that makes the new signature runs again and again at run
time. Three facts decide it, computed once per project on the linked call graph:

- **Runtime code** is what runs outside any trace: module level, entry points (a function nothing in the
  project calls: ``main()``, a CLI command, a test, a public API), and whatever runtime code calls
  directly. Calling a jitted function is not a direct call of its body: the body runs while it traces.
- **Trace-time code** runs only while a jit (or a transform, or a ``lax`` control-flow primitive) traces:
  the body of a jitted function, a function handed to ``grad``/``vmap``/``lax.scan``/..., the methods of
  flax linen and haiku modules, and what only such code calls. (A call of ``jax.grad(f)`` that runtime
  code makes is a direct call of ``f``: it traces ``f`` then and there, each time.) Its loops are
  unrolled once per trace, and a jitted function called there is inlined into the enclosing trace: it
  traces again only when the enclosing function does, and that is reported where the enclosing
  function's argument changes.
- **Repetition** comes only from loops: runtime code runs repeatedly when it is called inside a loop of
  runtime code, or by runtime code that runs repeatedly. Being called from several places is not
  repetition: an entry point calling a helper twice runs it twice per process, not per step. A loop
  whose iterations the source spells out (``for seat in SEATS``) repeats what it calls that many
  times, a bound the driver carries, unless a caller that repeats without bound reaches it too.

- **Sweeps and rates**: a loop may walk the points of a sweep (``sweep``: a few points the source
  spells out, or a collection held in memory) rather than the steps of a run; each point of one is a
  new problem that compiles once and then runs a loop of its own (``used_per_point``), which
  amortises what it compiles: one trace per point, needed or not, every rule alike. A function
  rebuilt each time a loop repeats it (a jit made per call) costs a trace per use only when nothing
  amortises it: ``own_use`` finds the loop of its own that calls it without rebuilding it (the
  epochs loop of a training run).

Everything here is derived from ``Project``; the rules ask it through ``Propagation``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from retracelint.callgraph import FuncTarget, JitTarget, Project, Target
from retracelint.funcrefs import Callee, scoped_kind
from retracelint.model import Bound, Location, PathStep
from retracelint.readlog import query
from retracelint.session import Picked
from retracelint.summarise.apis import CARRY_LOOPS
from retracelint.summary import (
    Arg,
    FunctionSummary,
    JitSpec,
    LoopInfo,
    ModuleSummary,
    Points,
)
from retracelint.values import RetDep

# Classes whose methods run only inside a transform's trace (``Module.apply``, ``hk.transform``).
TRACED_MODULE_BASES = frozenset(
    {
        "flax.linen.Module",
        "flax.linen.module.Module",
        "haiku.Module",
        "haiku._src.module.Module",
    }
)


# A loop that spells out at most this many iterations adds a few traces, not one per step.
FEW_ITERATIONS = 16


@dataclass(frozen=True)
class Driver:
    """What makes a value differ between calls: a loop, or repeated calls of a function."""

    text: str  # "every iteration of the loop at train.py:39"
    location: Location
    bounded: bool = False  # a loop over a small fixed set of values (the axes of an array)
    count: int | None = None  # how many iterations, when the source spells them out
    # Every loop it repeats in walks a collection held in memory (``LoopInfo.over_items``) or a
    # few spelled-out values.
    over_items: bool = False
    # For repeated calls: the calls from the loop's function down to the function repeated (the
    # first found), so that a finding's call path starts at the loop.
    path: tuple[PathStep, ...] = field(default=(), compare=False)
    # What the loops it repeats in walk, as a bound names them: "`cases`", "`AXES` and `SCALES`".
    walk: str = field(default="", compare=False)

    @property
    def bound(self) -> Bound | None:
        """What caps what it drives however long the program runs: a few iterations the source
        spells out, or a collection held in memory (a configuration's entries, a model's layers, a
        dict of parameters), whose items are the same each time round. None: it may take new
        values as long as the program runs. (``bounded`` is read from the loop's text,
        `range(0, x.shape[0], 64)` too: it says which causes a loop can drive, not how long it
        runs.)"""
        if self.count is not None and self.count <= FEW_ITERATIONS:
            return Bound("one per listed item", self.count)
        if self.over_items:
            return Bound(f"one per item of {self.walk or 'a collection held in memory'}")
        return None

    @property
    def grows(self) -> bool:
        """Whether what it drives may take new values as long as the program runs (``bound``)."""
        return self.bound is None


@dataclass(frozen=True)
class Sweep:
    """A loop that walks the points of a sweep (``Frequency.sweep``): walked again, it gives the
    same points, each a problem of its own."""

    points: int | None  # how many, where the source spells them out (at most ``FEW_ITERATIONS``)
    sizes: bool = False  # each spelled-out point gives a size of its own (``Points.sizes``)
    numbers: bool = False  # each spelled-out point is a number literal (``Points.numbers``)


@dataclass(frozen=True)
class Rebuilt:
    """One function on the way from the loop that repeats a build down to the function that
    builds (``Frequency.own_use``): the loops around its call onward (or around the build), which
    run the build again, and those every call it makes must stay inside to count (the repeating
    loop's own, in the function that holds it)."""

    function: str
    around: frozenset[int]
    within: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Found:
    """What a ``Frequency`` found of the whole call graph (``Frequency.found``), and the functions
    it was found from."""

    functions: dict[str, FunctionSummary]
    callers: dict[str, list[tuple[str, int]]]  # ``Frequency._direct``
    callees: dict[str, list[str]]
    roots: frozenset[str]  # traced
    runtime: frozenset[str]
    repeated: dict[str, Driver | None] | None  # None: not asked
    held: dict[tuple[str, int], bool]  # what ``repeated`` read (``Frequency._held``)
    once: dict[tuple[str, str], bool]
    entries: dict[str, frozenset[str]]
    # The callers table of the link it was found on (``Project.callers``), by identity: a project
    # linked from that link by linking one module again (``Project.relinked``) takes over what
    # the other modules give (``_direct_kept``, ``_kept_roots``).
    link: object = field(default=None, compare=False)
    # By module: its summary, and the traced roots it gives (``_module_roots``).
    module_roots: dict[str, tuple[ModuleSummary, frozenset[str]]] = field(
        default_factory=dict, compare=False
    )
    # The summary of each module it was found from: a module whose summary is the same object
    # holds the same functions (``_same_graph`` compares the others' alone).
    modules: dict[str, ModuleSummary] = field(default_factory=dict, compare=False)
    # Whether every runtime function is one of ``functions``: then, where none is gone, the runtime
    # functions kept are all of them (``Frequency.runtime``).
    runtime_named: bool = field(default=False, compare=False)


@dataclass
class Frequency:
    """The execution-frequency model of one project (see the module docstring)."""

    project: Project
    # Whether a loop of a function walks a collection held in memory, which for one over
    # ``self.attr`` or over what calls return only the propagation can tell
    # (``Propagation.walks_held``).
    holds: Callable[[FunctionSummary, LoopInfo], bool] = lambda fn, loop: loop.over_items
    # What each known call of a function passes for a parameter (None: nothing, the default is
    # taken), which only the linked project can tell (``Propagation.calls_of``).
    passed: Callable[[FunctionSummary, str], list[Arg | None]] = lambda fn, param: []
    # What the same project's model found before an edit (a long-lived process's last run): its
    # facts of the whole call graph are taken over where the edit changed none of what they were
    # found from (``_carried``).
    last: Found | None = None
    # What the rules picked from each module, by its summary (``session.Picked``).
    picked: Picked = field(default_factory=Picked)
    _runtime: frozenset[str] | None = None
    _runtime_named: bool = False  # every runtime function is one of the project's (``Found``)
    _repeated: dict[str, Driver | None] | None = None
    _callers: dict[str, list[tuple[str, int]]] | None = None
    _callees: dict[str, list[str]] | None = None
    _scripted: dict[bool, frozenset[str]] = field(default_factory=dict)  # by ``tests``
    _entries: dict[str, frozenset[str]] = field(default_factory=dict)
    _roots: frozenset[str] | None = None
    _module_roots: dict[str, tuple[ModuleSummary, frozenset[str]]] = field(default_factory=dict)
    # What the drivers read besides the call graph and the functions' loops and calls, each with
    # the answer it got: whether a loop walks a collection held in memory, by function and loop;
    # whether a call that runs until an attribute is set runs its callee once, by attribute and
    # callee. A model that takes the drivers over asks them again.
    _held: dict[tuple[str, int], bool] = field(default_factory=dict)
    _once: dict[tuple[str, str], bool] = field(default_factory=dict)
    _looping: dict[str, bool] = field(default_factory=dict)  # ``loops_in_trace``
    _param_callers: dict[str, bool] = field(default_factory=dict)  # ``_calls_parameters``
    _jit_sites: frozenset[tuple[str, int]] | None = None  # ``jit_call_sites``
    # Whether every read ``holds`` made for ``last``'s answers (``Found.held``) reads the same here
    # (``readlog.Replay``: the propagation's reads are logged, also the model's): its answers hold.
    held_known: bool = False
    # Whether ``last``'s facts hold here (None: not asked yet).
    _kept: bool | None = None
    # ``last``'s link and the traced roots it found each module gives, kept where the rest of it
    # does not hold (a call added): what the next run takes over is found from them.
    _roots_before: tuple[object, dict[str, tuple[ModuleSummary, frozenset[str]]]] | None = None

    def __post_init__(self) -> None:
        if self.last is not None:
            self._roots_before = (self.last.link, self.last.module_roots)

    # -- the questions --------------------------------------------------------------------------
    @query("frequency", whole=True)
    def traced(self, qualname: str) -> bool:
        """Whether the function runs only while an enclosing jit or transform traces."""
        return qualname not in self.runtime

    @query("frequency", whole=True)
    def repeated(self, qualname: str) -> Driver | None:
        """Why a runtime function runs more than once per process: the loop that drives it, directly
        or through the runtime functions that call it. None when it runs once, or only under a trace."""
        if self._repeated is None:
            last = self.last if self._carried() else None
            if last is not None and last.repeated is not None and self._same_answers(last):
                self._repeated = last.repeated
            else:
                self._repeated = self._drivers()
        return self._repeated.get(qualname)

    @query("frequency", whole=True)
    def run_by_scripts(self, qualname: str, tests: bool = True) -> bool:
        """Whether a script (or, with ``tests``, a test) runs the function outside any trace: it is
        reached by direct calls from a module's top level (``if __name__ == "__main__":``, a
        notebook-like script) or from a test function. A library's public function may be called by
        its users under their own jit, so what only such functions reach is not known to run
        eagerly."""
        scripted = self._scripted.get(tests)
        if scripted is None:
            scripted = self._scripted[tests] = self._scripted_from(tests)
        return qualname in scripted

    def _scripted_from(self, tests: bool) -> frozenset[str]:
        modules = self.project.modules.items()
        roots = set(self.picked.each(modules, _script_roots, _script_roots))
        if tests:
            roots.update(self.picked.each(modules, _test_roots, _test_roots))
        return frozenset(self._reach(roots, self._direct_callees()) & self.runtime)

    def found(self) -> Found | None:
        """What this model found of the whole call graph, for the project's next run; None when
        the run asked nothing of it."""
        if self._runtime is None:
            return None
        return Found(
            self.project.functions,
            self._direct(),
            self._direct_callees(),
            self._traced_roots_found(),
            self.runtime,
            self._repeated,
            self._held,
            self._once,
            self._entries,
            self.project.callers,
            self._module_roots,
            dict(self.project.modules),
            self._runtime_named,
        )

    def _carried(self) -> bool:
        """Whether ``last``'s runtime functions, drivers and entry points hold here: the same
        direct calls (a function added or removed that calls nothing and that nothing calls
        changes none of them), the same traced roots, and every function whose summary changed
        the same in what the drivers read of it (``_drivers_face``). What else the drivers read
        is asked again (``_same_answers``)."""
        if self._kept is None:
            self._kept = self.last is not None and self._same_graph(self.last)
            if not self._kept:
                self.last = None  # nothing of it is taken over: let it go
        return self._kept

    def _same_graph(self, last: Found) -> bool:
        callers = self._direct()
        if callers is not last.callers and (last.callers, last.callees) != (
            callers,
            self._direct_callees(),
        ):
            return False
        if last.roots != self._traced_roots_found():
            return False
        before, modules = last.functions, last.modules
        return all(
            fn is was or self._drivers_face(fn) == self._drivers_face(was)
            for key, module in self.project.modules.items()
            if modules.get(key) is not module
            for name, fn in module.functions.items()
            if (was := before.get(name)) is not None
        )

    def _drivers_face(self, fn: FunctionSummary) -> tuple[object, ...]:
        """What the runtime functions and the drivers read of a function's own summary: whether
        it is memoised, and of each of its calls that runs a function of the project, the call's
        text, place, condition, whether it keeps what the call returns where the condition reads
        (``once_per_object``), and loops (``_direct``, the same where this is asked)."""
        name = fn.qualname
        direct = self._direct()
        sites = sorted(
            {
                i
                for callee in self._direct_callees().get(name, ())
                for c, i in direct[callee]
                if c == name
            }
        )
        calls = tuple(
            (
                c.text,
                c.location,
                c.unless_set,
                bool(c.unless_set) and _keeps_result(fn, i, c.unless_set),
                tuple(fn.loops[loop] for loop in c.loops),
            )
            for i, c in ((i, fn.calls[i]) for i in sites)
        )
        return fn.memoised, calls

    def _same_answers(self, last: Found) -> bool:
        """Whether what ``last``'s drivers asked of the rest of the project gets the same answers
        here (asked again, they are kept again). Where what ``holds`` read to give them is known
        to read the same (``held_known``), they are taken as they are."""
        functions = self.project.functions
        if self.held_known:
            self._held.update(last.held)
            return all(
                callee in functions and self._until_set(unset, callee) == once
                for (unset, callee), once in last.once.items()
            )
        return all(
            name in functions and self._walks_held(functions[name], loop) == held
            for (name, loop), held in last.held.items()
        ) and all(
            callee in functions and self._until_set(unset, callee) == once
            for (unset, callee), once in last.once.items()
        )

    @query("frequency", whole=True)
    def entries(self, qualname: str) -> frozenset[str]:
        """The entry points (functions nothing in the project calls directly) from which the function
        runs: two functions with no entry point in common may never run in one process (two tests,
        two public functions of a library)."""
        known = self._entries.get(qualname)
        if known is not None:
            return known
        direct = self._direct()
        found: set[str] = set()
        seen = {qualname}
        queue = deque([qualname])
        while queue:
            name = queue.popleft()
            callers = direct.get(name)
            if not callers:
                found.add(name)
            for caller, _ in callers or ():
                if caller not in seen:
                    seen.add(caller)
                    queue.append(caller)
        self._entries[qualname] = answer = frozenset(found)
        return answer

    @query("frequency", whole=True)
    def callers(self, qualname: str) -> list[tuple[str, int]]:
        """The call sites (caller, call index) that run the function's body at run time: a jitted
        function's callers run its trace, not its body."""
        return self._direct().get(qualname, [])

    def bounded_repeats(self, site: tuple[str, int]) -> bool:
        """Whether the call at ``site`` runs again, but only as often as loops over a few spelled-out
        items or over collections held in memory make it (``for gen in gens: gen.run()``)."""
        caller, index = site
        if self.traced(caller):
            return False
        fn = self.project.functions[caller]
        drivers = [self.repeated(caller)]
        if _in_repeating_loop(fn, index):
            drivers.append(_loop_call(fn, index, caller, lambda f, i: self.holds(f, f.loops[i])))
        found = [driver for driver in drivers if driver is not None]
        return bool(found) and not any(driver.grows for driver in found)

    def loops_reach(
        self, qualname: str, loops: set[int], sites: frozenset[tuple[str, int]]
    ) -> bool:
        """Whether a call made inside one of ``loops`` of function ``qualname`` is one of ``sites``,
        or runs, through runtime calls, a function that makes one of them."""
        return self._reach_sites(self._calls_inside(qualname, loops), sites)

    def _reach_sites(self, calls: set[tuple[str, int]], sites: frozenset[tuple[str, int]]) -> bool:
        if calls & sites:
            return True
        makers = {caller for caller, _ in sites}
        return not makers.isdisjoint(self._run_from(calls))

    def run_by_loop(self, qualname: str, loop: int) -> frozenset[str]:
        """The functions whose bodies the calls inside loop ``loop`` of function ``qualname`` run,
        directly or through runtime calls (what one point of a sweep runs)."""
        return self._run_from(self._calls_inside(qualname, {loop}))

    def _calls_inside(
        self, qualname: str, loops: set[int], within: frozenset[int] = frozenset()
    ) -> set[tuple[str, int]]:
        """The calls of ``qualname`` made inside one of ``loops`` and inside every loop of
        ``within``."""
        fn = self.project.functions[qualname]
        return {
            (qualname, i)
            for i, call in enumerate(fn.calls)
            if loops.intersection(call.loops) and within.issubset(call.loops)
        }

    def own_use(
        self, chain: tuple[Rebuilt, ...], sites: frozenset[tuple[str, int]], builder: str
    ) -> tuple[str, LoopInfo] | None:
        """The first loop of the functions that a rebuild runs through (``chain``: from the loop
        that repeats the build down to the function that builds) that calls the built function,
        at one of ``sites``, more than a few times without running ``builder`` again: its own
        loop (the epochs loop of a training run, the timed loop after a warm-up), in which every
        call shares one build, or a loop of a function one of them calls in the same run (``agent =
        Agent(cfg)`` then ``train(agent, env, steps)``: one agent per task, its steps in ``train``).
        A build per iteration of that loop's caller is then amortised by the loop: one trace per
        run, not one per call."""
        for step in chain:
            fn = self.project.functions[step.function]
            loops = (loop for loop in fn.loops if loop.index not in step.around)
            used = self._used_in(step.function, loops, sites, builder, step.within)
            if used is not None:
                return used
        on_chain = {step.function for step in chain}
        for callee in dict.fromkeys(c for step in chain for c in self._called_in_run(step)):
            if callee not in on_chain:
                loops = iter(self.project.functions[callee].loops)
                used = self._used_in(callee, loops, sites, builder)
                if used is not None:
                    return used
        return None

    def _used_in(
        self,
        qualname: str,
        loops: Iterator[LoopInfo],
        sites: frozenset[tuple[str, int]],
        builder: str,
        within: frozenset[int] = frozenset(),
    ) -> tuple[str, LoopInfo] | None:
        """The first of ``loops`` of ``qualname`` that runs the steps of a run and reaches
        ``sites`` without running ``builder`` again (``own_use``)."""
        fn = self.project.functions[qualname]
        for loop in loops:
            if not self._amortises(fn, loop):
                continue
            inside = self._calls_inside(qualname, {loop.index}, within)
            if self._reach_sites(inside, sites) and builder not in self._run_from(inside):
                return qualname, loop
        return None

    def _called_in_run(self, step: Rebuilt) -> list[str]:
        """The functions ``step``'s function calls directly in one run of the build (inside every
        loop of ``step.within``)."""
        fn = self.project.functions[step.function]
        calls = {(step.function, i) for i, c in enumerate(fn.calls) if step.within <= set(c.loops)}
        direct = self._direct()
        return [
            callee
            for callee in self._direct_callees().get(step.function, ())
            if not calls.isdisjoint(direct[callee])
        ]

    def sweep(self, fn: FunctionSummary, loop: LoopInfo) -> Sweep | None:
        """The sweep a loop walks, one point per item, if it walks one: at most ``FEW_ITERATIONS``
        points the source spells out (``for opt in ["GD", "LBFGS"]``, ``range(3)``, a name bound
        once to a display, a parameter whose default and every call's argument spell them out,
        ``spelled``), or a collection held in memory (``for seed in seeds``). A range over a count
        (``range(2000)`` too), a while loop or a loader may be the training loop itself: what it
        repeats runs per step or per epoch."""
        spelled = self.spelled(fn, loop)
        if spelled is not None and spelled.count <= FEW_ITERATIONS:
            return Sweep(spelled.count, spelled.sizes, spelled.numbers)
        if _few(loop):
            return Sweep(loop.count)
        return Sweep(None) if self.holds(fn, loop) else None

    def walks_distinct(self, fn: FunctionSummary, loop: LoopInfo) -> bool:
        """Whether each turn of ``loop`` takes another item, the same items every run, however
        many: a sweep (``sweep``), or items the source fixes (``LoopInfo.distinct``: a range, a
        display, a curriculum's stages, a benchmark's sizes), or a parameter every call gives
        spelled-out points. What varies with such an item is another problem per item, traced
        once each, where it defines the program rather than feeding it data."""
        return (
            loop.distinct
            or self.sweep(fn, loop) is not None
            or (self.given_points(fn, loop) is not None)
        )

    def spelled(self, fn: FunctionSummary, loop: LoopInfo) -> Points | None:
        """The points a loop walks where the source spells them out: its own (``LoopInfo.points``),
        or, for a loop over a parameter, the most any call passes (its default where a call leaves
        it out, or where nothing calls the function), each of them spelled out; sizes where every
        one gives sizes."""
        return loop.points if loop.points is not None else self.given_points(fn, loop)

    def given_points(self, fn: FunctionSummary, loop: LoopInfo) -> Points | None:
        """The points a loop over a parameter of ``fn`` (``for task in enumerate(tasks)``) walks
        where every call's argument, or its default, spells them out (``spelled``)."""
        return self.points_passed(fn, loop.walked)

    def turns(self, fn: FunctionSummary, loop: LoopInfo) -> int | None:
        """The most turns a loop over ``range(k, len(xs))`` of a parameter ``xs`` takes, where
        every call spells out the items it passes (``[cheap_x, exact_x]``: one turn past the
        first level); None where not known."""
        if loop.numbers is None:
            return None
        name, skipped = loop.numbers
        points = self.points_passed(fn, name)
        return None if points is None else max(points.count - skipped, 0)

    def points_passed(self, fn: FunctionSummary, name: str | None) -> Points | None:
        """The points parameter ``name`` of ``fn`` holds where every call's argument, or its
        default, spells them out: as many as the most any gives."""
        param = fn.param(name) if name is not None and fn.params else None
        if param is None:
            return None
        given = [
            arg.points if arg is not None else param.points for arg in self.passed(fn, param.name)
        ] or [param.points]
        known = [points for points in given if points is not None]
        if len(known) < len(given):
            return None
        count = max(p.count for p in known)
        return Points(count, all(p.sizes for p in known), all(p.numbers for p in known))

    def used_per_point(self, fn: FunctionSummary, loop: LoopInfo) -> bool:
        """Whether each point of the sweep ``loop`` of ``fn`` uses a jitted function many times,
        which amortises what the point compiles: in a loop of its own over steps (``for step in
        range(n_steps): state = step_fn(state)``), in what the point runs or nested in the sweep,
        or by calling a jit that loops in its trace (a ``lax.while_loop`` over time steps). A point
        that calls its jit once or a few times (a per-size benchmark) is not."""
        project = self.project
        run = sorted(self.run_by_loop(fn.qualname, loop.index))
        sites = self.jit_call_sites()
        inner = [(fn, lp) for lp in fn.loops if _nested(fn, lp, loop)]
        inner += [(project.functions[q], lp) for q in run for lp in project.functions[q].loops]
        if any(_many(lp) and self.loops_reach(f.qualname, {lp.index}, sites) for f, lp in inner):
            return True
        calls = [(fn.qualname, i) for i, c in enumerate(fn.calls) if loop.index in c.loops]
        calls += [(q, i) for q in run for i in range(len(project.functions[q].calls))]
        jitted = {
            project.callee_function(t)
            for site in calls
            for t in project.site_targets.get(site, ())
            if isinstance(t, JitTarget)
        }
        return any(self.loops_in_trace(name) for name in sorted(filter(None, jitted)))

    @query("frequency", whole=True)
    def jit_call_sites(self) -> frozenset[tuple[str, int]]:
        """Every call of a jitted function in the project."""
        if self._jit_sites is None:
            sites = self.project.jit_callers.values()
            self._jit_sites = frozenset(site for sites in sites for site in sites)
        return self._jit_sites

    @query("frequency", whole=True)
    def loops_in_trace(self, qualname: str) -> bool:
        """Whether tracing ``qualname`` runs a lax loop (``lax.while_loop``, ``fori_loop``,
        ``scan``), in it or in what it calls: the jitted function runs many steps per call."""
        if qualname not in self._looping:
            self._looping[qualname] = self._loops_in_trace(qualname)
        return self._looping[qualname]

    def _loops_in_trace(self, qualname: str) -> bool:
        project = self.project
        seen, queue = {qualname}, [qualname]
        while queue:
            name = queue.pop()
            if name in self._lax_loopers:
                return True
            fn = project.functions.get(name)
            for index in range(len(fn.calls) if fn is not None else 0):
                for target in project.site_targets.get((name, index), ()):
                    callee = project.callee_function(target)
                    if callee is not None and callee not in seen:
                        seen.add(callee)
                        queue.append(callee)
        return False

    @cached_property
    def _lax_loopers(self) -> frozenset[str]:
        """The functions that call a lax loop primitive."""
        return frozenset(
            spec.function
            for module in self.project.modules.values()
            for spec in module.jits
            if spec.traces_on_call and spec.wrapper in CARRY_LOOPS
        )

    def _amortises(self, fn: FunctionSummary, loop: LoopInfo) -> bool:
        """Whether a loop may run the steps of a run, more than a few times: a range over a count
        or a while loop (``LoopInfo.runs_on``), or a walk over what the function or its object
        was given (``for batch in batches``, ``self.loader``: a loader); not one that spells out
        at most ``FEW_ITERATIONS`` iterations (``for _ in range(5)``, a few warm-up calls), nor a
        walk over a collection held in memory or over what the function makes (a few generators
        a helper builds, a model's layers)."""
        if _few(loop):
            return False
        if loop.runs_on:
            return True
        given = loop.walks or fn.param(loop.text.partition(" in ")[2]) is not None
        return given and not self.holds(fn, loop)

    def _run_from(self, calls: set[tuple[str, int]]) -> frozenset[str]:
        """The functions whose bodies ``calls`` run, directly or through runtime calls."""
        return self.run_from(frozenset(calls))

    @query("frequency", whole=True)
    def run_from(self, calls: frozenset[tuple[str, int]]) -> frozenset[str]:
        # What each call runs is among its function's direct callees: not a walk of the
        # 40,000 functions called in the speed corpus. Each callee once (a function listed once
        # per call of it), each asked once of all the calls (2,000 calls of one helper in one
        # expression made this quadratic).
        direct, callees = self._direct(), self._direct_callees()
        roots = {
            callee
            for caller in {caller for caller, _ in calls}
            for callee in set(callees.get(caller, ()))
            if not calls.isdisjoint(direct[callee])
        }
        return frozenset(self._reach(roots, callees))

    def runs(self, qualname: str) -> str:
        """``"traced"``, ``"repeated"`` or ``"once"``: for messages, the graph and the docs."""
        if self.traced(qualname):
            return "traced"
        return "repeated" if self.repeated(qualname) is not None else "once"

    # -- runtime reachability ---------------------------------------------------------------------
    @property
    def runtime(self) -> frozenset[str]:
        if self._runtime is None:
            last = self.last if self._carried() else None
            if last is None:
                self._runtime = self._reach_runtime()
                self._runtime_named = self._runtime <= self.project.functions.keys()
            else:
                # A function added calls nothing and nothing calls it: an entry point, runtime.
                names = self.project.functions.keys()
                added = self._added(last)
                if added is None or not last.runtime_named:
                    self._runtime = (last.runtime & names) | (names - last.functions.keys())
                else:
                    self._runtime = last.runtime | added if added else last.runtime
                self._runtime_named = True
                self._entries = {q: e for q, e in last.entries.items() if q in names}
        return self._runtime

    def _added(self, last: Found) -> frozenset[str] | None:
        """The functions added since ``last``, where none is gone; None where one is. Only a
        module whose summary is not the object ``last`` was found from can hold either (two set
        operations over the speed corpus's 100,000 functions cost 0.02-0.05 CPU s of an edit)."""
        functions, before, modules = self.project.functions, last.functions, self.project.modules
        added = frozenset(
            name
            for key, module in modules.items()
            if last.modules.get(key) is not module
            for name in module.functions
            if name not in before and name in functions
        )
        # Every function kept, counted: one gone (a module's, or a whole module) is missing here.
        return added if len(functions) == len(before) + len(added) else None

    def _traced_roots_found(self) -> frozenset[str]:
        if self._roots is None:
            self._roots = frozenset(self._traced_roots())
        return self._roots

    def _reach_runtime(self) -> frozenset[str]:
        """Functions reached from an entry point by direct calls. An entry point is a function that no
        call in the project reaches directly and that nothing hands to a trace; a function in a cycle
        that no entry point reaches is runtime too (nothing says it is traced)."""
        project = self.project
        direct = self._direct()
        traced = set(self._traced_roots_found())
        queue = deque(
            name for name in project.functions if not direct.get(name) and name not in traced
        )
        seen = set(queue)
        callees = self._direct_callees()
        while queue:
            for callee in callees.get(queue.popleft(), ()):
                if callee not in seen:
                    seen.add(callee)
                    queue.append(callee)
        # What neither an entry point nor a traced root reaches (a cycle of its own) stays runtime.
        under_trace = self._reach(traced, callees)
        seen.update(name for name in project.functions if name not in under_trace)
        return frozenset(seen)

    @staticmethod
    def _reach(roots: set[str], callees: dict[str, list[str]]) -> set[str]:
        seen = set(roots)
        queue = deque(roots)
        while queue:
            for callee in callees.get(queue.popleft(), ()):
                if callee not in seen:
                    seen.add(callee)
                    queue.append(callee)
        return seen

    def _direct(self) -> dict[str, list[tuple[str, int]]]:
        """Each function's call sites that run its body (a jitted function's callers do not)."""
        if self._callers is None:
            self._callers, self._callees = self._direct_kept() or self._direct_calls()
        return self._callers

    def _direct_callees(self) -> dict[str, list[str]]:
        """Each function's direct callees, through the calls ``_direct`` keeps."""
        if self._callees is None:
            self._callers, self._callees = self._direct_kept() or self._direct_calls()
        return self._callees

    def _direct_calls(self) -> tuple[dict[str, list[tuple[str, int]]], dict[str, list[str]]]:
        """``_direct`` and ``_direct_callees``, made in one pass over the call graph."""
        callers: dict[str, list[tuple[str, int]]] = {}
        callees: dict[str, list[str]] = {}
        for callee, sites in self.project.callers.items():
            kept = callers[callee] = self._runs_of(callee, sites)
            for caller, _ in kept:
                callees.setdefault(caller, []).append(callee)
        return callers, callees

    def _runs_of(self, callee: str, sites: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """Those of ``sites``, calls of ``callee``, that run its body."""
        project = self.project
        site_targets, target_to = project.site_targets, project.target_to
        kept = []
        for site in sites:
            # Most calls have one target, the function itself: no need to ask how they reach it.
            targets = site_targets.get(site, ())
            first = targets[0] if targets else None
            if (type(first) is FuncTarget and first.qualname == callee) or _runs_body(
                project, targets, target_to(site, callee), callee
            ):
                kept.append(site)
        return kept

    def _direct_kept(
        self,
    ) -> tuple[dict[str, list[tuple[str, int]]], dict[str, list[str]]] | None:
        """``last``'s direct calls, where they are this project's: it was linked from ``last``'s
        link by linking one module again, which left the other functions' callers as they were
        (the same call sites, with the same targets), the functions called in the same order, and
        the same calls of each function whose callers it changed run its body. None otherwise
        (``_direct_calls`` finds them)."""
        last, relinked = self.last, self.project.relinked
        if last is None or relinked is None or relinked.base is not last.link:
            return None
        callers = self.project.callers
        if list(callers) != list(last.callers):
            return None
        if any(
            self._runs_of(name, callers.get(name, [])) != last.callers.get(name, [])
            for name in relinked.moved
        ):
            return None
        return last.callers, last.callees

    def _traced_roots(self) -> set[str]:
        """Functions whose body runs under a trace when something runs it: jitted functions,
        functions handed to transforms and ``lax`` primitives, methods of flax/haiku modules."""
        project = self.project
        roots: set[str] = set()
        for target in jits_with(project, self.picked, every_jit):
            binding = project.jit_binding(target)
            if binding is not None and binding.wrapped is not None:
                roots.add(binding.wrapped.qualname)
        # A list: a module filled in again while its roots are found replaces its summary there.
        for name, module in list(project.modules.items()):
            kept = self._kept_roots(name, module)
            if kept is None:
                kept = frozenset(self._roots_of(module))
            self._module_roots[name] = (module, kept)
            roots |= kept
        return roots | self._handed_on(roots)

    def _handed_on(self, roots: set[str]) -> set[str]:
        """The functions callers pass for a parameter that only a trace runs: one the function
        hands to a transform (``def scan_over(fn, xs): return lax.map(fn, xs)``) or that a traced
        function calls (the ``body`` a helper hands to ``lax.scan`` calls its maker's ``fn``), through
        helpers that pass it on (``map_planes(fn, xs)`` calling ``scan_over(fn, xs)``), bound
        methods and tables of helpers included: what the call passes runs only while that traces
        (issue 36, enclosing transforms). A closure calls what any call of its maker passed, so
        each of them counts here, where linking a call takes only what every call agrees on."""
        project = self.project
        seen = set(roots)
        for qualname in self.picked.names(project.modules, _hands_a_parameter_on):
            fn = project.functions[qualname]
            for callee in fn.traces:
                seen |= self._passed_in(fn, callee)
        # In order: what linking finds through a cycle of function values depends on it.
        pending = deque(sorted(seen))
        while pending:
            fn = project.functions.get(pending.popleft())
            for call in fn.calls if fn is not None else ():
                added = sorted(self._passed_in(fn, call.callee) - seen)
                seen.update(added)
                pending.extend(added)
        return seen - roots

    def _passed_in(self, fn: FunctionSummary, callee: Callee) -> set[str]:
        """The functions ``callee``, named in ``fn``, may be where it reads a parameter of ``fn``
        or of a function around it: what any call of that function passes."""
        scope: FunctionSummary | None = fn
        while callee[:1] == ("up",) and scope is not None and scope.parent is not None:
            scope, callee = self.project.functions.get(scope.parent), callee[1:]
        if scope is None or callee[:1] != ("param",):
            return set()
        out = (self.project.callee_function(t) for t in self.project.resolve_ref(scope, callee))
        return {name for name in out if name is not None}

    def _kept_roots(self, name: str, module: ModuleSummary) -> frozenset[str] | None:
        """What the last run found ``module``, the same summary, gives of the traced roots, where
        this project was linked from that run's link by linking another module again: that edit
        changed none of the names, classes or bases the module's own resolve to
        (``Project._relinked``), whether or not it changed the calls."""
        before, relinked = self._roots_before, self.project.relinked
        if before is None or relinked is None or relinked.base is not before[0]:
            return None
        kept = before[1].get(name)
        return kept[1] if kept is not None and kept[0] is module else None

    def _roots_of(self, module: ModuleSummary) -> Iterator[str]:
        """The traced roots ``module`` gives: the functions it hands to transforms and ``lax``
        primitives, the methods of its flax/haiku module classes."""
        project = self.project
        for qualname in module.functions:
            fn = project.functions[qualname]
            for callee in fn.traces:
                resolved = project.symbols.resolve_callee(project.owner[qualname], fn, callee)
                function = project.callee_function(resolved) if resolved else None
                if function is not None:
                    yield function
        for qualname in module.classes:
            if self._traced_module(qualname):
                yield from project.classes[qualname].methods.values()

    def _traced_module(self, cls: str) -> bool:
        return self.project.symbols.derives_from(cls, TRACED_MODULE_BASES)

    # -- repetition ---------------------------------------------------------------------------------
    def _drivers(self) -> dict[str, Driver | None]:
        """For every runtime function, the first loop that makes it run repeatedly: the calls made
        inside runtime loops, then down through runtime calls (each function visited once)."""
        project = self.project
        functions = project.functions
        runtime = self.runtime
        loops: dict[str, Driver] = {}  # functions called inside a runtime loop: that call
        entry: dict[str, tuple[str, int]] = {}  # and the call it is entered by there
        # Calls that run only until the callee sets an attribute do not repeat it (rare: most
        # projects have none). A caller still repeats a callee through any other call of it.
        repeating: set[tuple[str, str]] = set()
        once: set[tuple[str, str]] = set()
        for callee, sites in self._direct().items():
            call: Driver | None = None
            for caller, index in sites:
                fn = functions[caller]
                if self.once_per_object(caller, index, callee):
                    once.add((caller, callee))
                    continue
                repeating.add((caller, callee))
                if caller in runtime and _in_repeating_loop(fn, index):
                    found = _more_often(call, _loop_call(fn, index, callee, self._walks_held))
                    if found is not call:
                        call, entry[callee] = found, (caller, index)
            # A memoised function runs once per distinct argument, not once per call.
            if call is not None and callee in runtime and not functions[callee].memoised:
                loops[callee] = call
        blocked = once - repeating
        loops = {callee: loops[callee] for callee in sorted(loops)}  # reached in name order
        out: dict[str, Driver | None] = dict(loops)
        root = dict(loops)  # the loop-driven function each repeated function is reached from
        callees = self._direct_callees()
        # Each function reached, with the call it is entered by, the loop's driver and the path: a
        # function that calls a parameter is reached again by each other call of it (what it
        # calls there is what that call passes, ``_passes_on``), the others once.
        queue = deque((name, entry[name], loops[name], loops[name].path) for name in loops)
        entered = {(name, entry[name]) for name in loops}
        while queue:
            caller, site, first, path = queue.popleft()
            for callee in callees.get(caller, ()):
                # A function a loop over a few spelled-out items calls runs per step all the same
                # when a caller that repeats without bound calls it too (that replaces the count
                # once: each function is queued at most twice).
                if (
                    callee not in runtime
                    or functions[callee].memoised
                    or (caller, callee) in blocked
                    or not self._passes_on(caller, callee, site)
                ):
                    continue
                fresh = callee not in out or _unbounded_over(first, out.get(callee))
                if not fresh and not self._calls_parameters(callee):
                    continue
                called = (caller, self._first_call(caller, callee))
                if not fresh and (callee, called) in entered:
                    continue
                step = self._step(caller, callee)
                if fresh:
                    root[callee] = first
                    out[callee] = Driver(
                        f"each call of {short_name(callee)}() ({first.text})",
                        first.location,
                        count=first.count,
                        over_items=first.over_items,
                        walk=first.walk,
                        path=(*path, step),
                    )
                entered.add((callee, called))
                queue.append((callee, called, root[callee], (*path, step)))
        return out

    def _passes_on(self, caller: str, callee: str, site: tuple[str, int]) -> bool:
        """Whether ``caller``, entered by call ``site``, may call ``callee``: unless it calls it only
        through parameters, for which that call passes other functions (two modules each handing
        their own ``core`` to one shared ``grid_eval``: the path from one module's caller goes on
        into its own ``core`` alone, issue 36's F4). A call that passes nothing known may run
        anything its other callers pass."""
        if not self._calls_parameters(caller):
            return True
        fn = self.project.functions[caller]
        through = [fn.calls[i].callee for c, i in self._direct()[callee] if c == caller]
        if not all(ref[0] == "param" for ref in through):
            return True
        for ref in through:
            passed = self.project.passed_at(site, fn, ref[1], ref[2:])
            if not passed or any(self.project.callee_function(t) == callee for t in passed):
                return True
        return False

    def _calls_parameters(self, qualname: str) -> bool:
        """Whether a function calls one of its parameters (so what it calls depends on who calls
        it); kept, as the drivers ask it of each call they follow."""
        known = self._param_callers.get(qualname)
        if known is None:
            calls = self.project.functions[qualname].calls
            known = self._param_callers[qualname] = any(c.callee[0] == "param" for c in calls)
        return known

    def _step(self, caller: str, callee: str) -> PathStep:
        """The first call of ``caller`` that runs ``callee``."""
        call = self.project.functions[caller].calls[self._first_call(caller, callee)]
        return PathStep(caller, call.text, call.location)

    def _first_call(self, caller: str, callee: str) -> int:
        return next(i for c, i in self._direct()[callee] if c == caller)

    def _walks_held(self, fn: FunctionSummary, index: int) -> bool:
        """``holds`` of loop ``index`` of ``fn``, as the drivers ask it: the answer kept
        (``_held``; the loop is one of a call of the project's functions, ``_drivers_face``)."""
        found = self._held[fn.qualname, index] = self.holds(fn, fn.loops[index])
        return found

    def once_per_object(self, caller: str, index: int, callee: str) -> bool:
        """Whether call ``index`` of ``caller`` (which runs ``callee``) runs only until an attribute
        of ``self`` is set, and sets it: through the method it calls, or by keeping what the call
        returns (``if not hasattr(self, "_fn"): self._fn = jit(fn)``)."""
        fn = self.project.function(caller)
        unset = fn.calls[index].unless_set
        return bool(unset) and (self._until_set(unset, callee) or _keeps_result(fn, index, unset))

    def _until_set(self, unset: str, callee: str) -> bool:
        """Whether a call that runs only until ``unset``, an attribute of ``self``, is set (``if
        self.state is None: self.init()``) calls a method that sets it: once per object, not once
        per call of the caller (the answer kept, ``_once``)."""
        found = False
        if unset.startswith("self."):
            fn = self.project.function(callee)
            found = fn.cls is not None and (unset in fn.writes or self._stores_result(unset, fn))
        self._once[unset, callee] = found
        return found

    def _stores_result(self, unset: str, callee: FunctionSummary) -> bool:
        """Whether a method of the callee's class stores what the callee returns at ``unset``
        (``self.step_fn = self.build()`` beside ``self.step_fn or self.build()``): the object
        keeps the one it built, and the call runs only until then."""
        project = self.project
        assert callee.cls is not None
        for klass in project.symbols.mro(callee.cls):
            for method in project.classes[klass].methods.values():
                for arg in project.function(method).writes.get(unset, ()):
                    if any(
                        isinstance(dep, RetDep)
                        and project.calls_function((method, dep.call), callee.qualname)
                        for dep in arg.value.deps
                    ):
                        return True
        return False


def _keeps_result(fn: FunctionSummary, index: int, unset: str) -> bool:
    """Whether ``fn`` stores what its call ``index`` returns at attribute ``unset`` of ``self``."""
    return unset.startswith("self.") and any(
        isinstance(dep, RetDep) and dep.call == index
        for arg in fn.writes.get(unset, ())
        for dep in arg.value.deps
    )


def _loop_call(
    fn: FunctionSummary, index: int, callee: str, holds: Callable[[FunctionSummary, int], bool]
) -> Driver:
    """What repeats a call made in the loops of ``fn``: as many times as the loops' iterations
    multiply to, when every one spells them out (agents made per name of a constant tuple)."""
    call = fn.calls[index]
    counts = [fn.loops[loop].count for loop in call.loops]
    count = None if None in counts else math.prod(c for c in counts if c is not None)
    return Driver(
        f"each call of {short_name(callee)}(), called in the loop at {where(call.location)}",
        call.location,
        count=count,
        # A grid of loops each over a few spelled-out values or held items (``for axis in
        # range(3): for scale in [...]``) is as fixed as each of them, however many it multiplies to.
        over_items=all(_few(fn.loops[loop]) or holds(fn, loop) for loop in call.loops),
        path=(PathStep(fn.qualname, call.text, call.location),),
        walk=" and ".join(walked(fn.loops[loop]) for loop in call.loops),
    )


def walked(loop: LoopInfo, limit: int = 32) -> str:
    """What a loop walks, as a bound names it: ``for s in cases`` walks "`cases`", a
    comprehension what it walks in turn (``[int(x) for x in args.sizes.split(",")]``:
    "`args.sizes.split(",")`"); shortened."""
    text = loop.text.partition(" in ")[2] or loop.text
    if text[:1] in "[({" and " for " in text:
        text = text.rpartition(" in ")[2][:-1]
    short = text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
    return f"`{short}`"


def _more_often(first: Driver | None, other: Driver) -> Driver:
    """Of two loop calls of a function, the first one that repeats without a known bound, else the
    first."""
    return other if first is None or _unbounded_over(other, first) else first


def _unbounded_over(driver: Driver, known: Driver | None) -> bool:
    """Whether ``driver`` repeats without a known count where ``known`` has one, or grows with the
    run where ``known`` walks a collection held in memory."""
    if known is None:
        return False
    return (driver.count is None and known.count is not None) or (driver.grows and not known.grows)


def _runs_body(
    project: Project, targets: tuple[Target, ...], reached_by: Target | None, callee: str
) -> bool:
    """Whether a call with ``targets`` runs ``callee``'s body itself, not only while a jit traces it:
    the target it is first reached by is no jit, or another is (a factory returning ``jax.jit(f)``
    or ``f`` by its argument: which of the two comes first must not decide it)."""
    if not isinstance(reached_by, JitTarget):
        return True
    return any(
        not isinstance(t, JitTarget) and project.callee_function(t) == callee for t in targets
    )


def _few(loop: LoopInfo) -> bool:
    """Whether a loop spells out at most ``FEW_ITERATIONS`` iterations."""
    return loop.count is not None and loop.count <= FEW_ITERATIONS


def _many(loop: LoopInfo) -> bool:
    """Whether a loop runs its body more than a few spelled-out times (steps, batches, ``while``)."""
    return loop.repeats and not _few(loop)


def _nested(fn: FunctionSummary, inner: LoopInfo, outer: LoopInfo) -> bool:
    """Whether loop ``inner`` of ``fn`` runs inside loop ``outer``."""
    return inner.location.line > outer.location.line and any(
        inner.index in c.loops and outer.index in c.loops for c in fn.calls
    )


def _in_repeating_loop(fn: FunctionSummary, index: int) -> bool:
    loops = fn.calls[index].loops
    return bool(loops) and any(fn.loops[loop].repeats for loop in loops)


def is_test(qualname: str) -> bool:
    """A test function of pytest or unittest (in a test file): ``test*``."""
    return qualname.rpartition(".")[2].startswith("test")


def is_test_file(path: str) -> bool:
    """A file of tests: ``test_*.py`` or ``*_test.py``."""
    file = path.replace("\\", "/").rpartition("/")[2]
    return file.startswith("test_") or file.endswith("_test.py")


def _script_roots(_: str, module: ModuleSummary) -> Iterator[str]:
    """A module's top level, where it runs as a script (``Frequency.run_by_scripts``): its only
    function of kind "module"."""
    top = module.functions.get(module.toplevel)
    if top is not None and top.kind == "module":
        yield top.qualname


def _test_roots(_: str, module: ModuleSummary) -> Iterator[str]:
    """A test file's tests (its other functions are looked at only there: tens of thousands of
    functions fewer per run)."""
    if is_test_file(module.path):
        yield from (name for name in module.functions if is_test(name))


def _hands_a_parameter_on(fn: FunctionSummary) -> bool:
    """Whether ``fn`` hands a transform a function read from a parameter (its own or one of the
    functions around it)."""
    return any(scoped_kind(callee) == "param" for callee in fn.traces)


def every_jit(_: JitSpec) -> bool:
    return True


def jits_with(project: Project, picked: Picked, has: Callable[[JitSpec], bool]) -> list[JitTarget]:
    """The jit sites of ``project`` whose spec ``has``, in order (by module key, then as the module
    lists them), picked module by module (``Picked``: after an edit, from the edited module alone)."""

    def pick(key: str, module: ModuleSummary) -> Iterator[JitTarget]:
        return (JitTarget(key, spec.index, bound=False) for spec in module.jits if has(spec))

    return picked.each(sorted(project.modules.items()), has, pick)


def where(location: Location) -> str:
    return f"{location.path}:{location.line}"


def short_name(qualname: str) -> str:
    parts = [p for p in qualname.split(".") if p != "<locals>"]
    return ".".join(parts[-2:]) if len(parts) >= 2 and parts[-2][:1].isupper() else parts[-1]


__all__ = [
    "FEW_ITERATIONS",
    "TRACED_MODULE_BASES",
    "Driver",
    "Found",
    "Frequency",
    "Rebuilt",
    "Sweep",
]
