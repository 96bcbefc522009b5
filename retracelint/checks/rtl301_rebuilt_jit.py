"""RTL301: a jit wrapper built around a fresh function object each time, so its cache starts empty."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import chain

from retracelint import funcrefs
from retracelint.callgraph import ClassTarget, FuncTarget, JitBinding, JitTarget, Project, Target
from retracelint.checks.common import (
    Fix,
    built_each_time,
    jit_site,
    make_finding,
    rebuilt_by,
    shaped_by,
    shown_code,
    unknown_base,
    when_text,
)
from retracelint.checks.rtl20x_static_args import static_findings
from retracelint.frequency import Rebuilt, is_test_file, short_name
from retracelint.funcrefs import Callee, unwrapped
from retracelint.jitspec import BY_PYTREE, keyed_by
from retracelint.model import PER_ITEM, Assumption, Finding, PathStep, Route
from retracelint.objects import attribute_called
from retracelint.propagate import Cause, Propagation
from retracelint.summarise.apis import (
    FUNCTION_RECORD_PACKAGES,
    FUNCTION_RECORDS,
    PYTREE_METHOD_BASES,
)
from retracelint.summary import Arg, CallSite, FunctionSummary, JitSpec, LoopInfo, Param
from retracelint.values import (
    BOOL,
    INT,
    TRACED_DATA,
    CalleeSrc,
    CallSrc,
    FieldSrc,
    LoopSrc,
    ParamShapeSrc,
    ParamSrc,
    RetDep,
    Value,
    shape_sources,
)

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL301",)


def rebuilt_jit_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    bodies = _lax_bodies(project, prop)
    found = {
        t: f
        for t in prop.jits_with(_made_anew)
        if (f := _rebuilt_jit(project, prop, t, bodies)) is not None
    }
    # A jit object made anew and handed to a lax primitive that is reported for tracing it again
    # (`lax.fori_loop(0, n, jax.jit(step), x)`): one finding, the primitive's, tells it.
    told = {
        (target.module, int(spec.target[2]))
        for target in found
        if (spec := project.symbols.jit_spec(target)).traces_on_call
        and spec.target is not None
        and spec.target[0] == "jit"
    }
    kept = [target for target in found if target.key not in told]
    for targets in _by_lax_call(project, kept):
        if len(targets) == 1:
            yield found[targets[0]]
            continue
        # An eager lax call handed several fresh functions (a cond's branches) re-traces them all
        # for one cause, fixed in one place: one finding, at the first, naming each (the others'
        # jit sites are its other routes).
        handed = tuple(project.symbols.jit_spec(t).target_text for t in targets)
        closes = any(project.symbols.jit_spec(t).closes_over for t in targets)
        merged = _rebuilt_jit(project, prop, targets[0], bodies, handed, closes)
        assert merged is not None  # the first one's finding, named differently
        others = (found[t] for t in targets[1:])
        yield replace(
            merged, other_routes=tuple(Route(f.call_path, f.jit_site, f.parameter) for f in others)
        )


def _by_lax_call(project: Project, targets: list[JitTarget]) -> list[list[JitTarget]]:
    """The jit sites, those handed to one lax call together (in source order), the others alone."""
    groups: dict[object, list[JitTarget]] = {}
    for target in targets:
        spec = project.symbols.jit_spec(target)
        key = (target.module, spec.handed_to) if spec.handed_to is not None else target
        groups.setdefault(key, []).append(target)
    for group in groups.values():
        group.sort(key=lambda t: project.symbols.jit_spec(t).location)
    return list(groups.values())


def _rebuilt_jit(
    project: Project,
    prop: Propagation,
    target: JitTarget,
    lax_bodies: frozenset[str],
    handed: tuple[str, ...] = (),
    closes_over: bool = False,
) -> Finding | None:
    """RTL301 for jit site ``target``, when what it wraps is made anew where it runs repeatedly;
    ``lax_bodies``: the functions made anew for lax primitives (``_lax_bodies``); ``handed``: the
    fresh functions a lax call is handed together with it, to name them all; ``closes_over``:
    whether another of them reads the arguments or locals of its function (``JitSpec.closes_over``)."""
    spec = project.symbols.jit_spec(target)
    if spec.fresh is None or spec.function not in project.functions:
        return None
    if spec.traces_on_call and not _run_eagerly(project, prop, target, spec, lax_bodies):
        return None
    if spec.maker_call is not None and not _made_per_call(project, spec, target):
        return None
    binding = project.jit_binding(target)
    assert binding is not None  # every jit site has a binding, if only an empty one
    if spec.fresh == "bound method" and (
        _same_object_per_read(project, target, spec, binding)
        or _same_pytree_per_build(project, spec, binding)
    ):
        return None
    if (
        spec.fresh_if_bound
        and not _method_of_instance(binding)
        and not (
            binding.wrapped is None and (spec.on_self or _library_method(project, target, spec))
        )
    ):
        return None  # `jax.jit(pipeline.step)` of a parameter that holds a module
    owner = project.function(spec.function)
    jit = ("jit", "", str(spec.index))
    calls = [c for c in owner.calls if c.callee == jit or jit in c.alternatives]
    fresh = Value(fresh=spec.fresh_sources)
    # The wrapper is rebuilt as often as its function object is new, and matters where it is
    # called; a lax primitive traces where it is called itself.
    uses = [spec.loops] if spec.traces_on_call else [call.loops for call in calls]
    causes = (c for loops in uses for c in prop.fresh_causes(owner, fresh, loops))
    if CallSrc() in spec.fresh_sources and not owner.memoised:
        causes = chain(causes, _escaped_from_repeated(project, prop, owner, target))
    kept = (c for c in causes if not _same_key_each_time(project, prop, owner, spec, c))
    cause = next(kept, None)
    if (
        cause is None
        or _one_per_object(project, prop, owner, target, spec)
        or _used_between_builds(project, prop, owner, target) is False
    ):
        return None
    unproven = _rate_unproven(project, prop, owner, target, binding, spec, cause)
    if unproven is not None:
        # Another cause may prove what this one leaves open (a collector built per task, and the
        # same builder called per step of another loop): the finding tells the proven one.
        proven = next(
            (
                c
                for c in kept
                if _rate_unproven(project, prop, owner, target, binding, spec, c) is None
            ),
            None,
        )
        cause, unproven = (cause, unproven) if proven is None else (proven, None)
    code = "RTL301"
    when, loop = when_text(cause.driver, spec.location, each=True)
    primitive = spec.wrapper.removeprefix("jax.")
    names = handed or (spec.target_text,)
    if spec.traces_on_call:
        made = f"a new {spec.fresh}" if len(names) == 1 else f"{len(names)} new functions"
        head = f"{primitive}(...) traces {made} {when}, so every call re-traces"
        details = [
            f"traced function{'s' if len(names) > 1 else ''}: "
            + ", ".join(shown_code(name) for name in names),
            f"called outside jit, {primitive} caches its traces by function object",
            loop,
        ]
    elif spec.decorated:
        head = f"@{spec.wrapper} rebuilds {spec.target_text}() {when}, so every call re-traces"
        details = [
            f"{spec.target_text} is a nested def: a new function object, with an empty cache",
            loop,
        ]
    else:
        head = f"{spec.wrapper} rebuilds a jitted {spec.fresh} {when}, so every call re-traces"
        details = ["a new function object starts with an empty cache", loop]
    site = jit_site(binding)
    path = (*cause.path, *(PathStep(owner.qualname, c.text, c.location) for c in calls[:1]))
    fix = (
        _lax_fix(primitive, names, owner.qualname, closes_over or spec.closes_over)
        if spec.traces_on_call
        else None
    )
    # A function made anew per iteration of a loop over a few items still makes new ones each time
    # its own function runs again: then that repetition bounds it, or not.
    again = prop.repeated(owner.qualname)
    driver = again if cause.driver.bound and again is not None and again.grows else cause.driver
    # Each run of its function builds them all again: the count of one loop is no total then,
    # unless that loop is the one repeating the function (``for epoch in range(10): evaluate()``).
    bound = driver.bound
    if bound is not None and again is not None and again != driver:
        bound = replace(bound, traces=None)
    assumptions = (unproven,) if unproven is not None else ()
    return make_finding(
        code,
        head,
        details,
        spec.location,
        site,
        None,
        path,
        driver,
        fix,
        bound=bound,
        assumptions=assumptions,
    )


def _lax_fix(primitive: str, names: tuple[str, ...], owner: str, closes_over: bool) -> Fix:
    """How to stop an eager lax primitive tracing new functions: define them once, unless they read
    what their function is called with (a cond's branches over its arguments), where only jitting
    the function (or its caller) makes the primitive trace once, while that jit traces."""
    if closes_over:
        name = owner.rpartition(".")[2]
        return Fix(
            f"call {name}() from inside a jitted function",
            f"jit {name}() or the function that calls it repeatedly, so that {primitive} traces"
            f" only while that jit does; {' and '.join(names)} read what {name}() is called with,"
            " so they cannot be defined once outside it",
        )
    return Fix(
        f"define {shown_code(', '.join(names), 40)} once",
        f"define {' and '.join(names)} once, outside the function that runs {primitive} (pass"
        " what they close over as arguments), or call it from inside a jitted function",
    )


def _run_eagerly(
    project: Project,
    prop: Propagation,
    target: JitTarget,
    spec: JitSpec,
    lax_bodies: frozenset[str],
) -> bool:
    """Whether the lax control flow at ``spec`` is known to run outside jit. It is mostly used under
    jit: it is taken to run eagerly only where a script runs it, or, in a test file, a test. A
    library's function may run under its users' jit, and where only tests run it eagerly they call
    an internal a few times to check it, as users do not (the library's own steps run it under
    their trace). That a jit of the project reaches it too does not make a script's eager calls
    trace less. Lax control flow in a function made anew for another lax primitive (a
    ``lax.cond`` in a scanned step) runs while that one traces, as often: the enclosing one's
    finding tells it."""
    frequency = prop.frequency
    if spec.function in lax_bodies:
        return False
    if frequency.run_by_scripts(spec.function, tests=False):
        return True
    return is_test_file(project.symbols.path_of(target.module)) and frequency.run_by_scripts(
        spec.function
    )


def _made_anew(spec: JitSpec) -> bool:
    """A jit site whose function object may be new each time it runs (``_rebuilt_jit`` asks
    of no other)."""
    return spec.fresh is not None


def _traces_on_call(spec: JitSpec) -> bool:
    return spec.traces_on_call


def _lax_bodies(project: Project, prop: Propagation) -> frozenset[str]:
    """The functions made anew for an eager lax primitive (each one's RTL301 site)."""
    bodies = set()
    for target in prop.jits_with(_traces_on_call):
        binding = project.jit_binding(target)
        if binding and binding.wrapped:
            bodies.add(binding.wrapped.qualname)
    return frozenset(bodies)


# What a jit built once takes as traced arguments: data, where a new value per point needs no
# new trace (by the value's kind), unless its parameter is annotated as a setting.
_COUNTS = frozenset({INT, BOOL})
_SETTINGS = frozenset({"int", "bool", "str"})


def _data(
    prop: Propagation, caller: FunctionSummary, param: Param, value: Value, numbers: bool
) -> bool:
    """Whether a value passed anew at each point is known to be data that a jit built once would
    take as a traced argument: an array or a float, or, with ``numbers``, an int or a bool (``v *
    k`` for ``k`` of a range; a count or flag baked into a partial, ``train_mask=task_id > 0``,
    may also be a setting). Code, structure or a setting (a function, an object, a name, a
    parameter annotated ``int``: a size), or a value of unknown kind, may need a new trace
    anyway."""
    if param.annotation in _SETTINGS:
        return False
    kind = prop.resolve(caller, value).ty
    return kind in TRACED_DATA or (numbers and kind in _COUNTS)


def _rate_unproven(
    project: Project,
    prop: Propagation,
    owner: FunctionSummary,
    target: JitTarget,
    binding: JitBinding,
    spec: JitSpec,
    cause: Cause,
) -> Assumption | None:
    """A jit built anew each time is a rebuild a user can remove, at a rate worth it, only where
    the build runs again with the same traced signature and closure more often than the jit's own
    use amortises it (issue 36, how often). Proven: a build driven by a step or epoch loop (a
    range over a count, a while loop) or by a function repeated without bound, however long each
    build is used (``_driven_by_steps``); a build whose jit is called a few times per build; a
    build that every repetition gives the same arguments (``factorize(a, b)`` per target: the
    same program compiled again). Not proven, a hidden assumption (``rate-unproven``):
    - what differs between the builds defines the program: the function or object it runs, a
      transform's setting, a length or mode it closes over, the shapes it is called with
      (``_new_computation``, the one test of it, for every rebuilt jit and eager lax body);
    - the jit is called in a loop of its own that does not build it again (the epochs loop of a
      training run, the timed loop after a warm-up, ``Frequency.own_use``), and each repetition
      may give the build something new: each build serves a run of its own;
    - each repetition gives the build something a jit built once would trace anew for all the
      same: a new problem or setting per point of a sweep over a fixed or configured collection,
      a new size or flag for a jit of no arguments (``_new_each_point``), a trace context jit
      keys its cache on (``_new_context``).
    A builder that runs once per program has no driver and is no finding at all."""
    sites = frozenset(project.jit_callers.get(target.key, ()))
    if not sites and _only_stored(project, prop, owner, target.index):
        # Kept on the object (``self.project = project``) and neither called nor read anywhere: a
        # jit never called never traces (issue 36 cause 2).
        text = f"`{spec.target_text}` is stored on the object, and no use of it is seen"
        return Assumption("rate-unproven", spec.location, text)
    unplaced = _used_between_builds(project, prop, owner, target)
    if isinstance(unplaced, str):
        text = (
            f"`{spec.target_text}` is used by {short_name(unplaced)}(), which nothing seen calls:"
            " it may not run between two builds"
        )
        return Assumption("rate-unproven", spec.location, text)
    chain = _rebuild_chain(project, owner, spec, cause)
    # A build in a step or epoch loop (a range over a count, a while loop) runs per step however
    # long each build is used: only a build per point of what a loop walks is a run of its own.
    steps = _driven_by_steps(project, prop, owner, cause)
    own = (
        prop.frequency.own_use(chain, sites, owner.qualname)
        if chain and sites and not steps
        else None
    )
    grown = _grown_closure(project, prop, owner, spec, cause)
    if grown is not None:
        text = f"`{grown}(...)` grows what the jit closes over: each trace is needed anyway"
        return Assumption("rate-unproven", cause.path[0].location, text)
    # An eager lax primitive traces at every call that hands it a new function, warm-up and
    # timed call alike: a new number per point does not make those traces needed (its body,
    # defined once, takes it as carry or operand); a new mode or model per point does (a body
    # per mode, or closing over another model, is another computation, traced once anyway).
    # What differs between the builds defines the program (a function, a transform's setting, a
    # length or mode the function closes over, the shapes it is called with): each build is
    # another program, traced once however it is built.
    computation = _new_computation(project, prop, owner, target, binding, spec, cause)
    computation = computation or _rebuilt_on_change(project, spec, cause)
    if computation is not None:
        text = f"{computation}: {PER_ITEM}"
        return Assumption(
            "per-item", cause.path[0].location if cause.path else cause.driver.location, text
        )
    if spec.traces_on_call:
        if own is not None:
            return _own_loop_unproven(own)
        new = _new_each_point(project, prop, binding, spec, cause, owner)
        return None if new is None else _point_unproven(new, cause)
    context = _new_context(project, prop, cause)
    if own is not None:
        given = _given_each_time(project, prop, cause, owner, spec, _baked(binding, spec), False)
        # The same closure each time: the same program built again. (A new object per point that
        # runs the build, a model per setting, is another program: ``_new_computation`` above.)
        if given is not None and not given[1] and context is None:
            renewed = _renewed_with_build(project, prop, target, binding)
            return None if renewed is None else _renewed_unproven(renewed, spec)
        # New data per point closed over (a gain, a question's samples): a jit built once taking
        # it as an argument traces once, however long each build's own loop runs.
        if (
            given is not None
            and context is None
            and _closes_over_data(project, prop, cause, owner, spec)
        ):
            return None
        return _own_loop_unproven(own)
    new = context or _new_each_point(project, prop, binding, spec, cause, owner)
    return None if new is None else _point_unproven(new, cause)


def _steps_around_points(project: Project, prop: Propagation, cause: Cause) -> bool:
    """Whether a loop that runs the steps of a run (``LoopInfo.runs_on``, not a sweep) encloses
    the innermost loop repeating the call at the top of ``cause.path``."""
    repeating = _repeating_call(project, cause)
    if repeating is None:
        return False
    fn, index = repeating
    innermost = _driving_loop(fn, index)
    if innermost is None:
        return False
    around = fn.calls[index].loops
    return any(
        fn.loops[i].runs_on and prop.frequency.sweep(fn, fn.loops[i]) is None
        for i in around[: around.index(innermost)]
    )


def _new_computation(
    project: Project,
    prop: Propagation,
    owner: FunctionSummary,
    target: JitTarget,
    binding: JitBinding,
    spec: JitSpec,
    cause: Cause,
) -> str | None:
    """What the loop that repeats the build gives it that defines the computation built
    (``JitSpec.configured_by``: the function wrapped, a transform's ``in_axes``), where the loop
    walks a sweep, not steps: ``for axes in patterns: jax.jit(jax.vmap(f, in_axes=axes))(x, y)``
    traces once per pattern however the jit is built, so hoisting it removes no trace; or the
    shapes of the jit's arguments (``_sized_by``, ``_argument_shapes``), where the loop walks items
    each another, however many (``Frequency.walks_distinct``: a benchmark's sizes, a range): a new
    shape is a new trace however the jit is built, where a new number or function closed over
    may be data an argument would take. What it says. Nothing where the function holding the
    loop runs again: each run rebuilds every item's program, which building once per item would
    not."""
    frequency = prop.frequency
    if not cause.path:
        # Built in the loop itself: whatever the loop walks (a sweep, a dict's buckets), an item
        # that defines the program or the shapes it is called with makes a program per item.
        loop = next((lp for lp in owner.loops if lp.location == cause.driver.location), None)
        if (
            loop is None
            or prop.repeated(owner.qualname) is not None
            or (loop.runs_on and not frequency.walks_distinct(owner, loop))
        ):
            # A function that runs again walks the same items again: each item's program is
            # built anew at every run (a stacked kernel per data set at every evaluation).
            return None
        made = spec.configured_by | _made_from(owner, spec.configured_by)
        made |= _maker_settings(project, owner, spec)
        around = spec.loops[: spec.loops.index(loop.index)] if loop.index in spec.loops else ()
        if any(owner.loops[i].repeats and not _defines(prop, owner, spec, made, i) for i in around):
            # A loop around it whose item defines nothing built repeats every item's program at
            # each of its turns, as a function that runs again does (four PDFs per trajectory).
            return None
        item = loop.text.removeprefix("for ").partition(" in ")[0].strip("()")
        if not loop.runs_on or frequency.sweep(owner, loop) is not None:
            if LoopSrc(loop.index) in made:
                return f"`{item}` makes another computation"
            handed = _handed_as_code(project, binding, item)
            if handed is not None:
                return f"`{handed}` makes another computation"
        sized = _sized_by(prop, owner, spec, LoopSrc(loop.index))
        return None if sized is None else f"`{sized}` takes another shape"
    repeating = _repeating_call(project, cause)
    if repeating is None or prop.repeated(repeating[0].qualname) is not None:
        return None
    fn, index = repeating
    driving = _driving_loops(prop, fn, index, distinct=True)
    swept = any(frequency.sweep(fn, fn.loops[i]) is not None for i in driving)
    if not swept and not any(frequency.walks_distinct(fn, fn.loops[i]) for i in driving):
        return None
    passed = _passed_down(project, prop, cause, owner, lambda *_: True, distinct=True)
    if passed is None or len(passed) < len(cause.path):
        return None
    configured = _params_of(spec.configured_by) | _makers_params(owner, spec.configured_by)
    reached = [text for param, text in passed[-1][1].items() if param in configured]
    reached = reached or _code_built_per_run(project, cause, owner, configured)
    if reached and swept:
        return f"`{reached[0]}` makes another computation"
    shapes = _argument_shapes(prop, owner, spec)
    sizes = _params_of(shapes)
    sized = [text for param, text in passed[-1][1].items() if param in sizes]
    if sized:
        return f"`{sized[0]}` sets the shapes it is called with"
    static = _static_params(owner, spec)
    keyed = [text for param, text in passed[-1][1].items() if param in static]
    if keyed:
        return f"`{keyed[0]}` is a static argument of it"
    called = _called_per_item(project, prop, target, fn, index, driving)
    if called is not None:
        return f"`{called}` sets the shapes it is called with"
    if not swept:
        return None
    # What a function that differs per item computes (``make(x)`` per ``make`` of a table of
    # builders), handed to the jit: its shape is that function's.
    computed = _passed_down(
        project,
        prop,
        cause,
        owner,
        lambda *_: True,
        lambda arg: any(
            isinstance(src, CalleeSrc) and src.loop in driving for src in arg.value.vsrc
        ),
        distinct=True,
    )
    handed = {src.name for src in shapes if isinstance(src, ParamShapeSrc)} | sizes
    made = (
        [text for param, text in computed[-1][1].items() if param in handed]
        if computed is not None and len(computed) == len(cause.path)
        else []
    )
    return f"`{made[0]}` is computed by another function" if made else None


# How many calls a jit a maker returns is handed down before it is called (``run(step, cache)``
# -> ``timed(step, *args)`` -> ``step(*args)``).
_HANDED_DOWN = 3


def _called_per_item(
    project: Project,
    prop: Propagation,
    target: JitTarget,
    fn: FunctionSummary,
    index: int,
    driving: frozenset[int],
) -> str | None:
    """The first argument, in ``fn``, that the jit a maker call (call ``index``, repeated by the
    ``driving`` loops) returns is called with, directly or handed down with it to the function
    that calls it (``bench(make_decode(cfg), init_cache(cfg, batch, n))``), whose shape each
    driving loop's item sets: each build serves another shape, traced once, as a jit built once
    would trace once per item. Its text."""
    made = ("ret", str(index))
    innermost = _driving_loop(fn, index)
    given = [
        handed
        for caller, site in project.jit_callers.get(target.key, ())
        for handed in _handed_with(prop, project.function(caller), site, fn, made, _HANDED_DOWN)
    ]
    for args, loops in given if innermost is not None else ():
        shaped = _shaped_by_loop(prop, fn, args, loops, innermost)
        # A loop around it gives each of its turns new arguments too (the batch size around the
        # decode lengths), if not surely new shapes: a loop whose item reaches none of them
        # repeats every shape's trace, which building once would not.
        around = (LoopSrc(d) for d in driving if d != innermost)
        if shaped and all(
            any(src in prop.resolve(fn, a.value).vsrc for a in args) for src in around
        ):
            return shaped
    return None


def _shaped_by_loop(
    prop: Propagation, fn: FunctionSummary, args: list[Arg], loops: tuple[int, ...], loop: int
) -> str | None:
    """The first of ``args`` (of a call in ``fn`` inside ``loops``) whose shape, or that of a
    field of it (``KVCache(k=jnp.zeros((batch, max_len, d)))``), loop ``loop``'s item sets. Its
    text."""
    at = fn.loops[loop].location
    for arg in args:
        value = prop.resolve(fn, arg.value)
        fields = (
            prop.resolve(fn, prop.attribute_read(fn, value, name))
            for cls in sorted(prop.classes_of_value(fn, value))
            for name in prop.project.classes[cls].fields
        )
        for part in (value, *fields):
            if LoopSrc(loop) in shape_sources(part) or any(
                cause.driver.location == at for cause in prop.shape_causes(fn, part, loops)
            ):
                return arg.text
    return None


def _handed_with(
    prop: Propagation,
    caller: FunctionSummary,
    site: int,
    fn: FunctionSummary,
    made: Callee,
    depth: int,
) -> Iterator[tuple[list[Arg], tuple[int, ...]]]:
    """For call ``site`` of ``caller`` that calls a jit, the arguments of each call in ``fn``
    that hands that jit, as ``fn``'s call ``made`` returned it, down to ``site``, and with it
    what reaches the jit's arguments (each call's list, with the loops around it), by parameters,
    or a ``*args`` passed on whole."""
    call = caller.calls[site]
    args = [*call.args, *(arg for _, arg in call.kwargs)]
    if call.spread is not None:
        args.append(call.spread)
    if caller.qualname == fn.qualname:
        if made == call.callee or made in call.alternatives:
            yield args, call.loops
        return
    if call.callee[0] != "param" or depth == 0:
        return
    yield from _handed_up(prop, caller, call.callee[1], args, fn, made, depth)


def _handed_up(
    prop: Propagation,
    callee: FunctionSummary,
    held: str,
    args: list[Arg],
    fn: FunctionSummary,
    made: Callee,
    depth: int,
) -> Iterator[tuple[list[Arg], tuple[int, ...]]]:
    """``_handed_with`` one call up: the callers of ``callee`` that pass its parameter ``held``
    (the jit), with what they pass for the parameters ``args`` are shaped by."""
    shaped = {
        src.name
        for arg in args
        for src in shape_sources(prop.resolve(callee, arg.value))
        if isinstance(src, ParamShapeSrc)
    }
    shaped |= {arg.value.param for arg in args if arg.value.param is not None}
    # What a call returns from a parameter may keep its shape (the cache a jitted prefill gives
    # back, decoded with next): that parameter's callers say.
    shaped |= {
        src.name
        for arg in args
        if any(isinstance(dep, RetDep) for dep in arg.value.deps)
        for src in arg.value.vsrc
        if isinstance(src, ParamSrc)
    }
    positional = [p.name for p in callee.params if p.kind in ("posonly", "normal")]
    rest = next((p.name for p in callee.params if p.kind == "vararg"), None)
    for caller, call, jit, _, target in prop.calls_of(callee, held):
        if jit is None:
            continue
        signature = prop.project.signature(target, callee)
        passed = [a for name in sorted(shaped) if (a := signature.arg(call, name)) is not None]
        if rest in shaped:
            passed += call.args[len(positional) - signature.offset :]
        if caller.qualname == fn.qualname:
            if any(made == callee_of for _, callee_of in jit.value.callables):
                yield passed, call.loops
        elif jit.value.param is not None and depth > 1:
            yield from _handed_up(prop, caller, jit.value.param, passed, fn, made, depth - 1)


def _rebuilt_on_change(project: Project, spec: JitSpec, cause: Cause) -> str | None:
    """What the build runs again only for a new value of, where a call on the path from the loop
    that repeats it, or the build itself, sits in ``if t != new_t: t = new_t; ...`` and reads what
    that block makes from the value (``CallSite.on_change``: a curriculum's horizon, the
    integrator made for it): each build is another value's program, traced once, as a jit built
    once would trace once per value. What it says."""
    calls = (_call_of(project, step) for step in cause.path)
    keys = [*(call.on_change for call in calls if call is not None), spec.on_change]
    changed = next((key for key in keys if key), None)
    return None if changed is None else f"built again only when `{changed}` changes"


def _defines(
    prop: Propagation, owner: FunctionSummary, spec: JitSpec, made: frozenset, index: int
) -> bool:
    """Whether the item of loop ``index`` of ``owner`` defines the program built at ``spec`` in
    it: what configures it (``made``) or the shapes it is called with."""
    src = LoopSrc(index)
    return src in made or _sized_by(prop, owner, spec, src) is not None


def _maker_settings(project: Project, owner: FunctionSummary, spec: JitSpec) -> frozenset:
    """The sources of what the call that makes the function the jit wraps passes to the maker's
    parameters that set the program it returns (``jax.vmap(solution_vector(int(order)))`` of a
    closure over ``leggauss(order)``'s nodes, ``FunctionSummary.configures``)."""
    made = funcrefs.unwrapped(spec.target)[0]
    if not made or made[0] != "ret":
        return frozenset()
    index = int(made[1])
    call = owner.calls[index]
    sources: set = set()
    for target in project.site_targets.get((owner.qualname, index), ()):
        if not isinstance(target, FuncTarget):
            continue
        maker = project.function(target.qualname)
        signature = project.signature(target, maker)
        for name in maker.configures:
            arg = signature.arg(call, name)
            sources |= arg.value.vsrc if arg is not None else set()
    return frozenset(sources)


def _code_built_per_run(
    project: Project, cause: Cause, owner: FunctionSummary, configured: set[str]
) -> list[str]:
    """The arguments of the builder's call, below the loop, that hand it code the run builds
    anew from a factory's result (``partial(make_policy, ...)`` of ``make_policy =
    make_inference_fn(network)``, made at each call of ``train``): each run's program runs its
    own function, so its trace is needed whatever the loop passes. Their texts."""
    if len(cause.path) < 2:
        return []  # called from the loop itself: what it passes is the loop's (``_passed_down``)
    site = project.symbols.call_at(cause.path[-1].location)
    target = project.target_to(site, owner.qualname) if site is not None else None
    if site is None or not isinstance(target, FuncTarget | ClassTarget):
        return []
    call = project.function(site[0]).calls[site[1]]
    signature = project.signature(target, owner)
    handed = (signature.arg(call, name) for name in sorted(configured))
    return [arg.text for arg in handed if arg is not None and _factory_made(arg.value)]


def _factory_made(value: Value) -> bool:
    """Whether ``value`` is code made anew at each call of its function from what a call there
    returns (a closure a factory builds, or a partial of one)."""
    return (
        CallSrc() in value.fresh
        and bool(value.callables)
        and any("ret" in callee for _, callee in value.callables)
    )


def _handed_as_code(project: Project, binding: JitBinding, item: str) -> str | None:
    """The loop's item, where the function made in the loop hands it as it is to a function of
    the project whose parameter is declared a class of the project with methods of its own
    (``self.constraint(params, constraint)``, ``constraint: Constraint``): an object whose code
    the traced program runs, another program per item. Its name."""
    wrapped = binding.wrapped
    if wrapped is None or wrapped.parent is None:
        return None
    names = {name.strip() for name in item.split(",")} - {p.name for p in wrapped.params}
    for index, call in enumerate(wrapped.calls):
        for target in project.site_targets.get((wrapped.qualname, index), ()):
            if not isinstance(target, FuncTarget):
                continue
            callee = project.function(target.qualname)
            module = project.owner[callee.qualname]
            signature = project.signature(target, callee)
            for param in callee.params:
                passed = signature.arg(call, param.name)
                if passed is None or passed.text not in names or param.declared is None:
                    continue
                cls = project.symbols.class_named(module, param.declared.strip("'\""))
                if cls is not None and _has_methods(project, cls):
                    return passed.text
    return None


def _has_methods(project: Project, cls: str) -> bool:
    """Whether a class of the project or a base of it defines a method other than how it is made
    (a constraint, a model: code; a record of arrays has none)."""
    return any(
        not (name.startswith("__") and name != "__call__")
        for klass in project.symbols.mro(cls)
        if klass in project.classes
        for name in project.classes[klass].methods
    )


def _loop_of(src: LoopSrc | CalleeSrc) -> int:
    return src.index if isinstance(src, LoopSrc) else src.loop


def _params_of(sources: frozenset) -> set[str]:
    return {src.name.partition(".")[0] for src in sources if isinstance(src, ParamSrc)}


def _makers_params(owner: FunctionSummary, sources: frozenset) -> set[str]:
    """The parameters of ``owner`` given to the calls in it that make the objects whose
    attributes ``sources`` read (``jax.vmap(env.reset)`` of ``env = wrap(env=given_env)``: a
    method of an object made from ``given_env``)."""
    return _params_of(_made_from(owner, sources))


def _made_from(owner: FunctionSummary, sources: frozenset) -> frozenset:
    """The sources of what the calls in ``owner`` that make the objects whose attributes
    ``sources`` read are given (``jax.jit(Rollout(substeps=n).step)``: ``n``, which configures
    the method's object)."""
    made = {src.made.at for src in sources if isinstance(src, FieldSrc)}
    return frozenset(
        src
        for call in owner.calls
        if call.location in made
        for arg in (*call.args, *(value for _, value in call.kwargs))
        for src in arg.value.vsrc
    )


def _argument_shapes(prop: Propagation, owner: FunctionSummary, spec: JitSpec) -> frozenset:
    """What sets the shapes of the arguments ``owner``'s calls give the jit built at ``spec``."""
    return frozenset(
        src
        for arg in _jit_arguments(owner, spec)
        for src in shape_sources(prop.resolve(owner, arg.value))
    )


def _sized_by(
    prop: Propagation, owner: FunctionSummary, spec: JitSpec, item: LoopSrc
) -> str | None:
    """The first argument of a call of the jit built at ``spec`` whose shape the loop's ``item``
    sets, here or through the calls that make it (``outer(jnp.tile(jnp.linspace(-5, 5, n),
    ...))`` per size ``n``, ``extract(tiles, shape)`` per shape bucket): a program per size,
    however the jit is built. Its text."""
    return shaped_by(prop, owner, _jit_arguments(owner, spec), item)


def _static_params(owner: FunctionSummary, spec: JitSpec) -> set[str]:
    """The parameters of ``owner`` that its calls of the jit built at ``spec`` pass as they are
    at a static position (``myfn(a, b, tile)`` of ``static_argnums=2``): a new value there is a
    new trace however the jit is built."""
    jit = ("jit", "", str(spec.index))
    calls = [c for c in owner.calls if c.callee == jit or jit in c.alternatives]
    passed = [
        *(arg for c in calls for i, arg in enumerate(c.args) if i in spec.static_argnums),
        *(arg for c in calls for name, arg in c.kwargs if name in spec.static_argnames),
    ]
    return {
        src.name
        for arg in passed
        for src in arg.value.vsrc
        if isinstance(src, ParamSrc) and src.name == arg.text
    }


def _jit_arguments(owner: FunctionSummary, spec: JitSpec) -> Iterator[Arg]:
    """The arguments of ``owner``'s calls of the jit built at ``spec``."""
    jit = ("jit", "", str(spec.index))
    for call in owner.calls:
        if call.callee == jit or jit in call.alternatives:
            yield from (*call.args, *(value for _, value in call.kwargs))


def _point_unproven(new: str, cause: Cause) -> Assumption:
    text = f"`{new}` is new at each iteration: each trace may be needed anyway"
    return Assumption("rate-unproven", cause.path[0].location, text)


# A shape that grows (an append, a concatenation onto itself), as the summaries tag it.
_GROWS = "RTL102"


def _grown_closure(
    project: Project, prop: Propagation, owner: FunctionSummary, spec: JitSpec, cause: Cause
) -> str | None:
    """An object that the loop repeating the build grows at each iteration, through a method
    that stores a longer array on it at each call (``gp.update(x, y)``: ``self.train_x =
    jnp.vstack([self.train_x, x])``), and that it hands down the path to what the jit closes
    over (``optimize(gp_loss, (gp,))``): every build then traces a new shape, which a jit built
    once would trace all the same (BOBE, fresh round 12). The text of that method's call."""
    repeating = _repeating_call(project, cause)
    driving = _driving_loop(*repeating) if repeating is not None else None
    if repeating is None or driving is None:
        return None
    fn, _ = repeating
    grown = {
        name: call.text
        for index, call in enumerate(fn.calls)
        if driving in call.loops
        for name in _grown_by(project, fn, index)
    }
    if not grown:
        return None

    def handed(arg: Arg) -> bool:
        return any(name in grown for name in _names(arg.text))

    steps = _passed_down(project, prop, cause, owner, lambda *_: True, handed)
    if steps is None or len(steps) < len(cause.path) or not steps[-1][1]:
        return None
    if not set(steps[-1][1]) - _passed_to_jit(owner, spec, False):
        return None
    first = steps[0][1].values()
    return next(grown[name] for text in first for name in _names(text) if name in grown)


def _grown_by(project: Project, fn: FunctionSummary, index: int, depth: int = 0) -> set[str]:
    """The objects that call ``index`` of ``fn`` grows (``_grows_per_call``), by their names in
    ``fn``: its receiver, or an attribute of it that a method it runs grows in turn
    (``self.update_gp(x, y)`` calling ``self.gp.update(x, y)``: ``self.gp``)."""
    call = fn.calls[index]
    if call.receiver is None:
        return set()
    name = call.receiver.text
    out: set[str] = set()
    targets = project.site_targets.get((fn.qualname, index)) or _methods_of_known(project, fn, call)
    for target in targets:
        if not isinstance(target, FuncTarget):
            continue
        method = project.function(target.qualname)
        if _grows_per_call(method):
            out.add(name)
        if depth < _GROWN_DEPTH:
            for inner in range(len(method.calls)):
                out.update(
                    name + grown[len("self") :]
                    for grown in _grown_by(project, method, inner, depth + 1)
                    if grown == "self" or grown.startswith("self.")
                )
    return out


def _methods_of_known(project: Project, fn: FunctionSummary, call: CallSite) -> tuple[Target, ...]:
    """The methods a call on an object the linker left unlinked runs where the object is one of
    the project's classes it may be (``self.gp.update(x, y)``, ``self.gp`` a ``GP``, a subclass's
    or what a loader returns): enough to say a growth it may make, which only weakens a claim."""
    if call.callee[0] != "recv":
        return ()
    module = project.owner[fn.qualname]
    classes = sorted(
        {cls for ref in call.callee[2:] for cls in project.classes_of(module, fn, (ref,), 0) or ()}
    )
    found = (project.symbols.member(cls, call.callee[1]) for cls in classes)
    return tuple(dict.fromkeys(t for t in found if t is not None))


# How many method calls deep an object's growth is followed (a method calling its attribute's).
_GROWN_DEPTH = 2


def _grows_per_call(method: FunctionSummary) -> bool:
    """Whether ``method`` stores on ``self`` an array that grows at each of its calls."""
    return any(
        taint.code == _GROWS and CallSrc() in taint.sources
        for attr, stored in method.writes.items()
        if attr.startswith("self.")
        for arg in stored
        for taint in arg.value.shape
    )


def _names(text: str) -> list[str]:
    """The dotted names an argument's text is made of (``(gp, k_train)``: ``gp``, ``k_train``)."""
    return re.findall(r"[A-Za-z_][\w.]*", text)


def _closes_over_data(
    project: Project, prop: Propagation, cause: Cause, owner: FunctionSummary, spec: JitSpec
) -> bool:
    """Whether all that the repetition passes the builder anew and reaches the jit's closure is
    data (an array, a float: ``_data``), the builder's last caller passing it: code, structure or
    a setting there (a model, a config, a size) makes another program per point."""
    last = cause.path[-1].function if cause.path else None

    def kept(caller: FunctionSummary, param: Param, value: Value, first: bool) -> bool:
        return caller.qualname != last or not _data(prop, caller, param, value, numbers=False)

    steps = _passed_down(project, prop, cause, owner, kept)
    if steps is None or len(steps) != len(cause.path):
        return False
    return not set(steps[-1][1]) - _passed_to_jit(owner, spec, False)


def _renewed_with_build(
    project: Project, prop: Propagation, target: JitTarget, binding: JitBinding
) -> str | None:
    """A static part of what the jit's calls pass (a static argument, a pytree's static field)
    that changes only with each build, made on the way into the function that builds the jit (an
    agent per training run whose ``__init__`` makes its state, with new optax transformations as
    static fields, and the jit of its step): a jit built once would trace once per build all the
    same, so building it once removes no trace (``common.built_each_time`` keeps the change from
    RTL201-RTL204, which would see one value per jit). What changes and where, or None."""
    site = jit_site(binding)
    builder = rebuilt_by(binding.spec)
    for caller, index in project.jit_callers.get(target.key, ()):
        fn = project.function(caller)
        call = fn.calls[index]
        step = PathStep(fn.qualname, call.text, call.location)
        for param in binding.params[binding.offset :]:
            arg = binding.signature.arg(call, param.name)
            if arg is None or param.kind in ("vararg", "kwarg"):
                continue
            static = binding.static_at(call, param.name)
            found = static_findings(
                project, prop, fn, arg, call.loops, step, site, param.name, fields=not static
            )
            renewed = next(
                (f for f in found if built_each_time(project, site, f.call_path, builder)), None
            )
            if renewed is not None:
                # Its headline up to the re-trace it claims: what changes, and where.
                return renewed.message.partition(", so ")[0]
    return None


def _renewed_unproven(renewed: str, spec: JitSpec) -> Assumption:
    text = f"{renewed}: a jit built once would trace once per build all the same"
    return Assumption("rate-unproven", spec.location, text)


def _own_loop_unproven(own: tuple[str, LoopInfo]) -> Assumption:
    function, loop = own
    text = f"used in a loop of {short_name(function)}() that does not rebuild it"
    return Assumption("rate-unproven", loop.location, text)


def _new_context(project: Project, prop: Propagation, cause: Cause) -> str | None:
    """A trace context that jit keys its cache on, entered around the call that repeats the
    build with a setting made from the loop's item (``with jax.default_device(device):
    test()`` per device): a jit built once would trace per setting all the same."""
    repeating = _repeating_call(project, cause)
    if repeating is None:
        return None
    fn, index = repeating
    driving = _driving_loops(prop, fn, index)
    return next(
        (
            context.text
            for context in fn.calls[index].contexts
            if any(isinstance(src, LoopSrc) and src.index in driving for src in context.varies)
        ),
        None,
    )


def _repeating_call(project: Project, cause: Cause) -> tuple[FunctionSummary, int] | None:
    """The function holding the call at the top of ``cause.path`` (the call the driving loop
    repeats) and that call's index; None where the build is repeated in its own function or the
    call is not known."""
    site = project.symbols.call_at(cause.path[0].location) if cause.path else None
    return None if site is None else (project.function(site[0]), site[1])


def _driven_by_steps(
    project: Project, prop: Propagation, owner: FunctionSummary, cause: Cause
) -> bool:
    """Whether the loop that repeats the build runs the steps of a run: a range over a count that
    the source does not spell out as a few, or a while loop (``LoopInfo.runs_on``); not a range
    over a configured count of tasks or models (one held in memory, ``Frequency.sweep``). Or the
    function holding it runs again without a known bound (an evaluation per split that the
    training loop runs at every step)."""
    if cause.path:
        repeating = _repeating_call(project, cause)
        if repeating is None:
            return False
        fn, call = repeating
        again = prop.repeated(fn.qualname)
        if again is not None and again.grows:
            return True
        index = _driving_loop(fn, call)
        loop = fn.loops[index] if index is not None else None
    else:
        fn = owner
        loop = next((lp for lp in owner.loops if lp.location == cause.driver.location), None)
    return loop is not None and loop.runs_on and prop.frequency.sweep(fn, loop) is None


def _rebuild_chain(
    project: Project, owner: FunctionSummary, spec: JitSpec, cause: Cause
) -> tuple[Rebuilt, ...]:
    """The functions from the loop that repeats the build (``cause``) down to the builder, each
    with the loops around its call onward; the first also with the loops a use must stay inside
    (a loop after the repeating one, not nested in it, uses only the last build). Empty where a
    call on the way is not known."""
    if not cause.path:
        loops = frozenset(spec.loops)
        return (Rebuilt(owner.qualname, loops, loops),)
    chain: list[Rebuilt] = []
    for step in cause.path:
        site = project.symbols.call_at(step.location)
        if site is None:
            return ()
        loops = frozenset(project.function(site[0]).calls[site[1]].loops)
        chain.append(Rebuilt(site[0], loops, loops if not chain else frozenset()))
    return (*chain, Rebuilt(owner.qualname, frozenset(spec.loops)))


def _new_each_point(
    project: Project,
    prop: Propagation,
    binding: JitBinding,
    spec: JitSpec,
    cause: Cause,
    owner: FunctionSummary,
) -> str | None:
    """What the loop that repeats the build gives each repetition, where a jit built once would
    need a trace per value anyway (``_given_each_time``). Other than a number, under a sweep
    (``Frequency.sweep``): a new problem per point; a number too where the jit takes no
    arguments (``jax.jit(lambda: jnp.zeros(shape))()``), so that what it closes over can only be
    baked in. Nothing where the function holding the loop runs again (each of its runs walks the
    same points: the same activation per block of a model)."""
    # A step loop walking the same points again at every step (``for step in range(n): for worker
    # in workers: worker.act(x)``): a build per point, made once, would serve every step.
    if _steps_around_points(project, prop, cause):
        return None
    repeating = _repeating_call(project, cause)
    if repeating is None:
        return None
    fn, index = repeating
    driving = _driving_loop(fn, index)
    baked = _baked(binding, spec)
    if driving is None or prop.repeated(fn.qualname) is not None:
        return None
    sweeps = [prop.frequency.sweep(fn, fn.loops[i]) for i in _driving_loops(prop, fn, index)]
    if not baked and (None in sweeps or all(s.numbers for s in sweeps if s is not None)):
        return None  # no sweep, or numbers at every point: data a jit built once takes traced
    given = _given_each_time(project, prop, cause, owner, spec, baked, True)
    return given[0] if given is not None and given[1] else None


def _baked(binding: JitBinding, spec: JitSpec) -> bool:
    """Whether the jit takes no arguments (``jax.jit(lambda: jnp.zeros(shape))()``): all it
    computes from is baked into its trace, data too."""
    return binding.wrapped is not None and not (
        binding.params or spec.decorated or spec.traces_on_call
    )


def _driving_loop(fn: FunctionSummary, index: int) -> int | None:
    """The innermost loop that repeats call ``index`` of ``fn``: what an outer loop gives is the
    same at each of its turns (``for method in methods: for run in range(n): rollouts(method)``)."""
    return next((i for i in reversed(fn.calls[index].loops) if fn.loops[i].repeats), None)


def _driving_loops(
    prop: Propagation, fn: FunctionSummary, index: int, distinct: bool = False
) -> frozenset[int]:
    """The loops whose items are new at each repetition of call ``index`` of ``fn``: the innermost
    that repeats it, and, when that one walks a sweep, the sweeps around it too (``for f in
    freqs: for lr in rates:``, one sweep over their product, each point new); with ``distinct``,
    around a sweep or a walk of items written out, any loops of items each another
    (``Frequency.walks_distinct``: the sizes of a benchmark however many, around its tiles), as
    the question of one program per item reads them. Around steps (``for task in tasks: for _ in
    range(n):``) the outer item is the same at every repetition."""
    innermost = _driving_loop(fn, index)
    if innermost is None:
        return frozenset()
    frequency = prop.frequency
    first = fn.loops[innermost]
    # A walk of items (a sweep, or with ``distinct`` sizes written out however many), not a count.
    if frequency.sweep(fn, first) is None and not (
        distinct and first.distinct and not first.runs_on
    ):
        return frozenset({innermost})
    walks = frequency.walks_distinct if distinct else frequency.sweep
    driving = {innermost}
    outer = fn.calls[index].loops
    for loop in reversed(outer[: outer.index(innermost)]):
        if not walks(fn, fn.loops[loop]):
            break
        driving.add(loop)
    return frozenset(driving)


def _given_each_time(
    project: Project,
    prop: Propagation,
    cause: Cause,
    owner: FunctionSummary,
    spec: JitSpec,
    baked: bool,
    claim_new: bool,
) -> tuple[str, frozenset[str]] | None:
    """What the loop that repeats the build (at the top of ``cause.path``) gives the builder anew
    at each repetition: the text of the first argument made from the loop's item, and the
    builder's parameters it reaches, passed on down every call of the path (``train(make_data(a),
    opt)``, then ``fconNN(width)``); no parameters where the builder gets the same arguments each
    time (``factorize(a, b)`` under ``for t in targets``). Data made from the item (``_data``: an
    array, a number) counts only where the jit is ``baked``: closed over, a new data set or gain
    per point (``evaluate(batches, float(member))``, a fit per sample) could be passed to a jit
    built once, traced; what needs new traces anyway is code, structure or a setting (a function,
    an object, a size, a name). Only what may reach the jit's closure counts: not a parameter the builder passes
    to the jit as it is (``jax.jit(lambda q: stack(q))(value)`` per field of a state: traced, not
    baked in), nor, for the claim that a point is new (``claim_new``), one that reaches the jit's
    arguments at all (``compiled(jnp.full(shape, drive))``); and for a jitted bound method, only a
    parameter its receiver comes from (``jax.jit(sim.step)`` with ``sim`` the same at every
    point). Each side takes the reading its own claim needs: the claim that the builder gets the
    same each time does not take a configuration that also makes the jit's arguments, or a
    number, as mere data. None where a call of the path is not known."""
    if not cause.path:
        return None  # built in the loop itself: what it closes over is not followed

    def kept(caller: FunctionSummary, param: Param, value: Value, first: bool) -> bool:
        return not (first and not baked and _data(prop, caller, param, value, numbers=claim_new))

    steps = _passed_down(project, prop, cause, owner, kept)
    if steps is None:
        return None
    shown = next((text for _, passed in steps for text in passed.values()), "")
    varying = set(steps[-1][1]) if len(steps) == len(cause.path) else set()
    closure = varying - _passed_to_jit(owner, spec, claim_new)
    receiver = _receiver_params(spec)
    return shown, frozenset(closure if receiver is None else closure & receiver)


# Whether a parameter the driving loop (``first``) or a varying parameter passes anew is kept.
Keep = Callable[[FunctionSummary, Param, Value, bool], bool]


def _passed_down(
    project: Project,
    prop: Propagation,
    cause: Cause,
    owner: FunctionSummary,
    keep: Keep,
    first: Callable[[Arg], bool] | None = None,
    distinct: bool = False,
) -> list[tuple[CallSite, dict[str, str]]] | None:
    """Down the calls of ``cause.path`` to the builder ``owner``: each call, with the parameters of
    the function it calls that it passes anew at each repetition (``keep`` deciding), by the text
    of their argument. At the first call, made from the loop's item (its driving loops), or what
    ``first`` picks; then from the parameters the call before passed on. It stops after a call
    that passes nothing on; None where a call of the path is not known."""
    out: list[tuple[CallSite, dict[str, str]]] = []
    varying: set[str] | None = None  # the current function's parameters that differ per point
    for at, step in enumerate(cause.path):
        site = project.symbols.call_at(step.location)
        if site is None:
            return None
        caller = project.function(site[0])
        call = caller.calls[site[1]]
        callee = owner.qualname if at + 1 == len(cause.path) else cause.path[at + 1].function
        # A function called, or a class whose ``__init__`` it is (``Evaluator(env, ...)``).
        target = project.target_to(site, callee)
        if not isinstance(target, FuncTarget | ClassTarget):
            return None
        driving = (
            _driving_loops(prop, caller, site[1], distinct) if varying is None else frozenset()
        )
        fn = project.function(callee)
        signature = project.signature(target, fn)
        passed_on = {}
        for at_param, param in enumerate(fn.params):
            passed = signature.arg(call, param.name)
            if passed is None and at_param == 0 and signature.offset:
                passed = call.receiver  # ``model.fit(xs)``: the object bound to ``self``
            if passed is None:
                continue
            if varying is None and first is not None:
                if not first(passed):
                    continue
            elif not any(
                (isinstance(src, LoopSrc | CalleeSrc) and _loop_of(src) in driving)
                if varying is None
                # An attribute of a parameter (``config.width``) differs where it does.
                else (isinstance(src, ParamSrc) and src.name.partition(".")[0] in varying)
                for src in passed.value.vsrc | passed.value.fresh
            ) and not (
                (varying and _code_of(project, caller, passed.value) & varying)
                or (varying is None and _code_from_item(caller, passed.value, driving))
            ):
                continue
            if keep(caller, param, passed.value, varying is None):
                passed_on[param.name] = passed.text
        out.append((call, passed_on))
        varying = set(passed_on)
        if not varying:
            break
    return out


def _code_of(project: Project, caller: FunctionSummary, value: Value) -> set[str]:
    """The parameters of ``caller`` whose code a function it makes runs, where ``value`` is one
    (``lambda p: obstacles.hinge_cost(p, w)``: a method of ``obstacles``; ``lambda x: f(x)``: the
    function ``f``): a new object there is a new function, another program however it is built."""
    made = [
        project.functions.get(callee[1])
        for path, callee in value.callables
        if not path and callee[0] == "qual"
    ]
    return {
        name
        for fn in made
        if fn is not None and fn.parent == caller.qualname
        for call in fn.calls
        for name in _enclosing_params(call.callee)
    }


def _code_from_item(caller: FunctionSummary, value: Value, driving: frozenset[int]) -> bool:
    """Whether ``value`` is code a method of an object made from the loop's item returns
    (``e.load_policy()`` of ``e = Experiment(f)`` per model file): each item's function, another
    program per item however the jit around it is built."""
    return bool(value.callables) and any(
        isinstance(dep, RetDep)
        and (receiver := caller.calls[dep.call].receiver) is not None
        and any(
            isinstance(src, LoopSrc | CalleeSrc) and _loop_of(src) in driving
            for src in receiver.value.vsrc
        )
        for dep in value.deps
    )


def _enclosing_params(callee: Callee) -> Iterator[str]:
    """The parameters of the function around the caller that ``callee`` is, or calls a method of."""
    if callee[:2] == ("up", "param"):
        yield callee[2]
    elif callee[0] == "recv":
        yield from (ref[4:] for ref in callee[2:] if ref.startswith("u:p:") and "." not in ref)


def _same_key_each_time(
    project: Project, prop: Propagation, owner: FunctionSummary, spec: JitSpec, cause: Cause
) -> bool:
    """Whether a call on ``cause.path`` below the driving loop, or the build itself, runs only when
    a parameter it is keyed on changes (``if fn is not self._fn: ...; self._fn = fn``,
    ``CallSite.unless_same``) and the loop passes the same value there at every repetition
    (``run(eval_fn)`` calling ``step(eval_fn)`` per generation): built once per key, as
    ``if self._jit is None:`` builds once per object, not once per iteration."""
    # Each function below the loop's, with what keys the call it makes next, or the build.
    below = [(project.function(step.function), _call_of(project, step)) for step in cause.path[1:]]
    keys = [call.unless_same if call is not None else "" for _, call in below]
    if not any(keys) and not spec.unless_same:
        return False  # the usual case: no such guard, no walk
    steps = _passed_down(project, prop, cause, owner, lambda *_: True)
    if steps is None:
        return False
    functions = [fn for fn, _ in below] + [owner]
    for at, (key, fn) in enumerate(zip([*keys, spec.unless_same], functions, strict=True)):
        varying = steps[at][1] if at < len(steps) else {}
        if key and key not in varying and any(param.name == key for param in fn.params):
            return True
    return False


def _call_of(project: Project, step: PathStep) -> CallSite | None:
    site = project.symbols.call_at(step.location)
    return None if site is None else project.function(site[0]).calls[site[1]]


def _passed_to_jit(owner: FunctionSummary, spec: JitSpec, through_args: bool) -> set[str]:
    """The parameters of ``owner`` that its calls of the jit it builds at ``spec`` pass as
    arguments: as they are, or, ``through_args``, in anything made from them or their attributes
    (``case.duration`` of a ``case``), or by calls given them (``case.command(t)``). An eager lax
    primitive's operands (a scan's carry and xs) are the arguments of its call, traced."""
    jit = ("jit", "", str(spec.index))
    passed = (
        arg
        for call in owner.calls
        if call.callee == jit
        or jit in call.alternatives
        or (spec.traces_on_call and call.location == spec.handed_to)
        for arg in (*call.args, *(value for _, value in call.kwargs))
    )
    if not through_args:
        return {
            src.name
            for arg in passed
            for src in arg.value.vsrc
            if isinstance(src, ParamSrc) and src.name == arg.text
        }
    return {
        src.name.partition(".")[0]
        for arg in passed
        for value in (arg.value, *_made_by_calls(owner, arg.value))
        for src in value.vsrc
        if isinstance(src, ParamSrc)
    }


def _made_by_calls(owner: FunctionSummary, value: Value) -> list[Value]:
    """What the calls of ``owner`` whose results ``value`` holds are given: their receivers and
    arguments."""
    calls = [owner.calls[dep.call] for dep in value.deps if isinstance(dep, RetDep)]
    return [
        arg.value
        for call in calls
        for arg in (
            *((call.receiver,) if call.receiver is not None else ()),
            *call.args,
            *(given for _, given in call.kwargs),
        )
    ]


def _receiver_params(spec: JitSpec) -> frozenset[str] | None:
    """For a jit of a method read off an object that is a parameter of the builder or of a
    function around it (``jax.jit(sim.step)``), the builder's parameters the object comes from
    (``p:``; ``u:p:`` is one of an enclosing function): all the jitted method closes over. None
    for anything else."""
    if spec.fresh != "bound method" or not spec.target:
        return None
    if spec.target[0] == "self":  # ``jax.jit(self.update)``
        return frozenset({"self"})
    if spec.target[0] != "recv":
        return None
    refs = spec.target[2:]
    if not refs or not all(ref.startswith(("p:", "u:")) for ref in refs):
        return None
    return frozenset(ref[2:] for ref in refs if ref.startswith("p:"))


# Names under which objects keep a callable as data (a flax TrainState's `apply_fn`): the same object
# on every read, so re-wrapping it finds jax's cache (measured: 3 wraps, 1 trace).
_STORED_CALLABLES = ("_fn", "_fun", "_func")


def _library_method(project: Project, target: JitTarget, spec: JitSpec) -> bool:
    """Whether a jit wraps an attribute read off an instance of classes of the project that none
    of them defines, stores or declares, and that each inherits from a library base (``apply`` of
    a flax module): a method there, so a new bound method per read."""
    if not spec.target or spec.target[0] != "recv":
        return False
    name, refs = spec.target[1], spec.target[2:]
    fn = project.function(spec.function)
    classes = project.classes_of(project.modules[target.module], fn, refs, 0)
    return bool(classes) and all(
        project.symbols.member(cls, name) is None
        and any(unknown_base(project, c) for c in project.symbols.mro(cls))
        and not any(
            name in project.classes[c].fields or name in project.classes[c].field_functions
            for c in project.symbols.mro(cls)
        )
        for cls in classes
    )


def _same_object_per_read(
    project: Project, target: JitTarget, spec: JitSpec, binding: JitBinding
) -> bool:
    """Whether what a jit of an attribute wraps (``jax.jit(self.step)``, ``jax.jit(
    self.transformed.apply)``) is the same function object at every read, so that a jit of it
    built per call finds jax's caches, keyed by the function (checked with jax 0.10.2: 4 builds, 1
    trace): a staticmethod or a function the object stores (not bound), or, where linking finds
    no function there, one kept as data (``_kept_as_data``). A method or classmethod is bound anew
    at each read (4 builds, 4 traces), of ``self`` too."""
    if binding.wrapped is not None:
        return not binding.wrapped.bound_per_read
    return _kept_as_data(project, target, spec)


def _same_pytree_per_build(project: Project, spec: JitSpec, binding: JitBinding) -> bool:
    """Whether a wrapper that keys its cache by the function as a pytree (``jitspec.BY_PYTREE``:
    ``eqx.filter_jit``) wraps a method of a class whose bound methods are pytrees of their object
    (``apis.PYTREE_METHOD_BASES``: an ``eqx.Module``'s): the model's arrays are traced arguments
    and its static fields the key, so a wrapper rebuilt around the same model's method, or a new
    model's of the same fields, finds the traces of the last one (measured: 5 builds, 1 trace), and
    a jit built once would trace as often for a model of other fields."""
    wrapped = binding.wrapped
    return (
        keyed_by(spec.wrapper) == BY_PYTREE
        and wrapped is not None
        and wrapped.cls is not None
        and project.symbols.derives_from(wrapped.cls, PYTREE_METHOD_BASES)
    )


def _kept_as_data(project: Project, target: JitTarget, spec: JitSpec) -> bool:
    """Whether the attribute a jit wraps holds a function as data, not a method: by its name
    (``apply_fn``, a flax ``TrainState``'s), or, read off an object ``__init__`` stores on ``self``
    (made once per object), as a field of a record of functions: a NamedTuple's or dataclass's
    field of the project (``Transformed(init, apply)``) that no class defines as a method, or a
    field of what a library call of ``apis.FUNCTION_RECORDS`` returns (haiku's ``transform``,
    optax's transformations)."""
    if spec.target_text.endswith(_STORED_CALLABLES):
        return True
    if not spec.on_self or spec.target[:1] != ("recv",):
        return False
    name, refs = spec.target[1], spec.target[2:]
    fn = project.function(spec.function)
    this = fn.params[0].name if fn.cls is not None and fn.params else None
    held = {ref.removeprefix(f"p:{this}.") for ref in refs}
    if this is None or len(held) != 1 or any("." in attr or ":" in attr for attr in held):
        return False
    (attr,) = held
    if not _stored_by_init(project, fn.cls, attr):
        return False
    classes = project.classes_of(project.modules[target.module], fn, refs, 0)
    if classes:
        return all(_field_of(project, cls, name) for cls in classes)
    return _library_records(project, fn.cls, attr)


def _stored_by_init(project: Project, cls: str, attr: str) -> bool:
    """Whether only ``__init__`` stores ``self.attr`` among the methods of ``cls`` and its bases:
    one object per instance."""
    for klass in project.symbols.mro(cls):
        info = project.classes.get(klass)
        for name, qualname in info.methods.items() if info is not None else ():
            method = project.function(qualname)
            this = method.params[0].name if method.params else None
            if name != "__init__" and f"{this}.{attr}" in method.writes:
                return False
    return True


def _field_of(project: Project, cls: str, name: str) -> bool:
    """Whether ``name`` is a declared field of ``cls`` or a base (a NamedTuple's, a dataclass's)
    that none of them defines as a method."""
    chain = project.symbols.mro(cls)
    declared = any(name in project.classes[c].fields for c in chain if c in project.classes)
    return declared and project.symbols.member(cls, name) is None


def _library_records(project: Project, cls: str, attr: str) -> bool:
    """Whether every store of ``self.attr`` by the methods of ``cls`` and its bases holds what a
    library call of ``apis.FUNCTION_RECORDS`` returns (``hk.transform_with_state(self.forward)``)."""
    stores = [
        (method, callee)
        for klass in project.symbols.mro(cls)
        if klass in project.classes
        for method, refs in project.classes[klass].field_functions.get(attr, ())
        for _, callee in refs
    ]
    return bool(stores) and all(
        callee[0] == "ret" and _records_call(project, method, int(callee[1]))
        for method, callee in stores
    )


def _records_call(project: Project, method: str, index: int) -> bool:
    """Whether call ``index`` of ``method`` is a library call of ``apis.FUNCTION_RECORDS``."""
    callee = project.function(method).calls[index].callee
    if callee[0] != "name":
        return False
    head, dot, rest = callee[1].partition(".")
    base = project.owner[method].imports.get(head, head)
    name = f"{base}{dot}{rest}"
    return name in FUNCTION_RECORDS or name.startswith(FUNCTION_RECORD_PACKAGES)


def _method_of_instance(binding: JitBinding) -> bool:
    """Whether a jit wraps a method read off an instance (a new bound method per read)."""
    wrapped = binding.wrapped
    return (
        wrapped is not None and wrapped.bound_per_read and len(binding.params) < len(wrapped.params)
    )


def _escaped_from_repeated(
    project: Project, prop: Propagation, maker: FunctionSummary, target: JitTarget
) -> Iterator[Cause]:
    """A jitted function made anew by each call of ``maker`` and handed out (returned, alone or in a
    tuple; stored on ``self``; given to a transform), where ``maker`` runs repeatedly: every one of them
    traces anew. A maker that runs once per program (or is memoised) is the right way to build a jitted
    function with settings baked in, and so is one run by a loop that only builds (objects made at
    set-up, each jit then called at every step): each is traced once, as often as objects are made."""
    if not _escapes(project, maker, target.index):
        return
    driver = prop.repeated(maker.qualname)
    if driver is None or _built_at_setup(project, prop, maker, target):
        return
    yield Cause(None, driver, driver.path)


def _one_per_object(
    project: Project, prop: Propagation, owner: FunctionSummary, target: JitTarget, spec: JitSpec
) -> bool:
    """Whether a jit of an attribute of ``self`` (``self._jitted = jax.jit(self.func)``, a method
    or a function the object holds) is new only with a new object and kept on it, and the objects
    are made at set-up (``_built_at_setup``): a wrapper class around ``jax.jit`` built once per
    distribution of a composite, each traced once, not at every call (issue 36 cause 2)."""
    return (
        spec.fresh == "bound method"
        and spec.target[:1] == ("self",)
        and _escapes(project, owner, target.index)
        and _built_at_setup(project, prop, owner, target)
    )


def _built_at_setup(
    project: Project, prop: Propagation, maker: FunctionSummary, target: JitTarget
) -> bool:
    """Whether ``maker`` runs again only in loops that build, at set-up: loops that do not call the
    jitted function it hands out, in functions that run once, while that function is called
    elsewhere, not only as often as a loop over a few items or a held collection runs (once per
    object). ``gens = [Generator(data) for _ in range(n)]``, then ``gen.batch(key)`` at every step:
    each generator traces once, as many traces as objects, not as calls (issue 36 cause 2). Objects
    made by a helper that a loop runs again (per epoch) may be made as often as they are used."""
    frequency = prop.frequency
    sites = frozenset(project.jit_callers.get(target.key, ()))
    if sites and all(frequency.bounded_repeats(site) for site in sites):
        return False  # one call per object: each call may trace
    for fn, index, loops in _rebuilding_calls(project, prop, maker):
        caller = fn.qualname
        driver = prop.repeated(caller)
        again = driver is not None
        # A constructor that builds its parts in loops of its own (``[Dist(n) for n in sizes]``
        # in ``Dist.__init__``) is repeated by calls of itself: their loops are what is asked,
        # here and at its other calls.
        own = again and [step.function for step in driver.path] == [caller]
        if loops and ((again and not own) or frequency.loops_reach(caller, set(loops), sites)):
            return False
        # No call of the jit seen: kept in a container (``self._fwd[s] = make(...)``) and read
        # elsewhere. Built by a function that runs once, one per item its innermost loop walks (a
        # set of observables, each subset of one) is one per computation; a loop over steps (a
        # range over a count, a while) may be the run itself, and a builder that runs again may
        # build per use.
        innermost = _driving_loop(fn, index)
        if not sites and (again or (innermost is not None and fn.loops[innermost].runs_on)):
            return False
    return True


def _rebuilding_calls(
    project: Project, prop: Propagation, maker: FunctionSummary
) -> Iterator[tuple[FunctionSummary, int, frozenset[int]]]:
    """The runtime calls that run ``maker`` again: its callers' calls of it, and, up from each
    caller that runs again itself, that caller's callers' calls (each function once). Each with
    its function, its index and the loops around it that repeat it; not a call under a trace, nor
    one that runs its callee once per object (a lazy set-up)."""
    frequency = prop.frequency
    seen, queue = {maker.qualname}, [maker.qualname]
    while queue:
        callee = queue.pop()
        for caller, index in frequency.callers(callee):
            if frequency.traced(caller) or frequency.once_per_object(caller, index, callee):
                continue
            fn = project.functions[caller]
            yield fn, index, frozenset(i for i in fn.calls[index].loops if fn.loops[i].repeats)
            if prop.repeated(caller) is not None and caller not in seen:
                seen.add(caller)
                queue.append(caller)


def _escapes(project: Project, maker: FunctionSummary, site: int) -> bool:
    jit = ("jit", "", str(site))
    # Returned alone, in a tuple, a dict, a NamedTuple's field...
    if any(callee == jit for _, callee in maker.returned_refs) or jit in maker.traces:
        return True
    cls = project.classes.get(maker.cls) if maker.cls else None
    return cls is not None and site in cls.jit_attrs.values()


def _stored_attributes(project: Project, maker: FunctionSummary, site: int) -> list[str]:
    """The attributes of ``self`` the jit ``maker`` makes at ``site`` leaves it in, where it
    leaves it only there: not returned, handed to a transform or called by ``maker``."""
    jit = ("jit", "", str(site))
    if any(callee == jit for _, callee in maker.returned_refs) or jit in maker.traces:
        return []
    if any(c.callee == jit or jit in c.alternatives for c in maker.calls):
        return []
    cls = project.classes.get(maker.cls) if maker.cls else None
    return [attr for attr, index in cls.jit_attrs.items() if index == site] if cls else []


def _only_stored(project: Project, prop: Propagation, maker: FunctionSummary, site: int) -> bool:
    """Whether the jit ``maker`` makes at ``site`` leaves it only as attributes of ``self`` that no
    module reads as a value or calls unresolved: not returned, handed to a transform or called."""
    attrs = _stored_attributes(project, maker, site)
    return bool(attrs) and not any(prop.attribute_used(attr) for attr in attrs)


def _used_between_builds(
    project: Project, prop: Propagation, maker: FunctionSummary, target: JitTarget
) -> bool | str:
    """Whether a jit that ``maker`` leaves only in attributes of ``self`` (``self.H =
    jax.jit(H)``), built again at each turn of the loops that run ``maker`` again, can be used
    before the next build: a build whose jit is never called is never traced, so where every use
    runs after those loops only the last build traces (NPHDAE's energies, rebuilt per generated
    circuit and plotted once after the loop; issue 36 cause 2). A use is a call of the attribute
    or a read of it as a value (``jax.vmap(self.H)``), on whatever object
    (``Propagation.attribute_users``). True: one runs in such a loop, in its body or in what the
    calls there run (a step called there that reads it, the builder itself), or the jit leaves
    ``maker`` otherwise, or no use is seen at all (``_only_stored`` tells that), or no loop runs
    ``maker`` again. False: every use runs elsewhere, in functions of known callers. Else the first
    function of a use that nothing seen calls, which may run anywhere (its qualified name)."""
    attrs = _stored_attributes(project, maker, target.index)
    users = {user for attr in attrs for user in prop.attribute_users(attr)}
    if not users:
        return True
    frequency = prop.frequency
    unplaced = [
        user
        for user in sorted(users)
        if project.functions[user].kind != "module"
        and not frequency.traced(user)
        and not frequency.callers(user)
    ]
    looped = False
    for fn, _, loops in _rebuilding_calls(project, prop, maker):
        looped = looped or bool(loops)
        if loops and _used_in(project, prop, fn, loops, attrs, (users, unplaced)):
            return True
    if not looped:
        return True
    return unplaced[0] if unplaced else False


def _used_in(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    loops: frozenset[int],
    attrs: list[str],
    users: tuple[set[str], list[str]],
) -> bool:
    """Whether an attribute of ``attrs`` may be used inside ``loops`` of ``fn``: called by a call
    there, read anywhere in ``fn`` (a read is not placed: it may be in the loop), or used by a
    function of ``users`` (all, and those nothing seen calls) that the calls there run, or that a
    call there or in what they run may run unlinked (``augment(batch)`` of an item of a list of
    objects, for their ``__call__``)."""
    inside = [(fn.qualname, i) for i, call in enumerate(fn.calls) if loops.intersection(call.loops)]
    if not fn.reads.isdisjoint(attrs):
        return True
    if any(attribute_called(fn.calls[i].callee) in attrs for _, i in inside):
        return True
    every, unplaced = users
    run = prop.frequency.run_from(frozenset(inside))
    if not every.isdisjoint(run):
        return True
    names = {short_name(user).rpartition(".")[2] for user in unplaced}
    sites = [
        *inside,
        *((q, i) for q in sorted(run) for i in range(len(project.functions[q].calls))),
    ]
    return bool(names) and any(
        not project.site_targets.get(site) and _may_call(_callee(project, site), names)
        for site in sites
    )


def _callee(project: Project, site: tuple[str, int]) -> Callee:
    return project.functions[site[0]].calls[site[1]].callee


def _may_call(callee: Callee, names: set[str]) -> bool:
    """Whether an unlinked call may run a method of one of ``names``: one it calls by that name,
    or, for ``__call__``, a call of a value (what a call returns, a parameter, a closure's)."""
    target = unwrapped(callee)[0] or ()
    value = bool(target) and target[0] in _VALUE_CALLEES
    return attribute_called(callee) in names or ("__call__" in names and value)


# Callee kinds that call a value, which may be any object with a ``__call__``.
_VALUE_CALLEES = frozenset({"ret", "param", "up", "global"})


def _made_per_call(project: Project, spec: JitSpec, target: JitTarget) -> bool:
    """Whether the function a jit wraps, which a call returns (``jax.jit(make_loss(w))``), is made
    anew by each call of that maker: a def or lambda of the maker's own (not a module-level function,
    not one it hands on), and a maker that is not memoised."""
    binding = project.jit_binding(target)
    wrapped = binding.wrapped if binding is not None else None
    if wrapped is None or wrapped.parent is None:
        return False
    makers = project.site_targets.get((spec.function, spec.maker_call or 0), ())
    return any(
        isinstance(maker, FuncTarget)
        and maker.qualname == wrapped.parent
        and not project.functions[maker.qualname].memoised
        for maker in makers
    )
