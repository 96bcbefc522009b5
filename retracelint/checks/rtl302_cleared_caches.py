"""RTL302: jax.clear_caches() run in a step loop that calls a jitted function."""

from __future__ import annotations

from collections.abc import Iterator

from retracelint.callgraph import FuncTarget, JitTarget, Project
from retracelint.checks.common import (
    at_text,
    jit_site,
    jitted_text,
    make_finding,
    shaped_by,
    when_text,
    where_text,
)
from retracelint.model import Finding, PathStep
from retracelint.propagate import Driver, Propagation
from retracelint.summary import CallSite, FunctionSummary
from retracelint.values import CallSrc, LoopSrc

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL302",)


def _clears(fn: FunctionSummary) -> bool:
    return bool(fn.clears)


def cleared_cache_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    """``jax.clear_caches()`` where it runs again and again, with a jitted function called in the
    same loop (or, in a function that runs repeatedly, in the same function; or, in a function
    that calls none, in the caller's loop that runs it: ``refit()`` then ``sample()`` per block):
    that function is traced and compiled again after every clear. One finding per clear and
    jitted function, at the clear."""
    called: dict[str, list[tuple[int, JitTarget]]] = {}
    for fn, index, target in prop.jit_calls():
        called.setdefault(fn.qualname, []).append((index, target))
    frequency = prop.frequency
    for fn in prop.functions_with(_clears):
        calls = called.get(fn.qualname, [])
        for location, loops in fn.clears:
            repeating = [loop for loop in loops if fn.loops[loop].repeats]
            runner: tuple[str, int | None] = (fn.qualname, None)
            if repeating and not frequency.traced(fn.qualname):
                driver: Driver | None = prop.loop_driver(fn, repeating[-1])
                near = [(fn, i, t) for i, t in calls if repeating[-1] in fn.calls[i].loops]
                together = "in the same loop"
                runner = (fn.qualname, repeating[-1])
            elif calls:
                driver = prop.repeated(fn.qualname)
                near, together = [(fn, i, t) for i, t in calls], f"in {fn.name}() too"
            else:
                driver, near, runner = _loop_around(project, prop, fn, called)
                together = "in the loop that runs it"
            if driver is None:
                continue
            seen: set[tuple[str, int]] = set()
            for caller, index, target in near:
                binding = project.jit_binding(target)
                if (
                    binding is None
                    or target.key in seen
                    or _built_anew_each_time(project, prop, target, *runner)
                    or _new_shape_each_time(prop, caller, caller.calls[index], *runner)
                ):
                    continue
                seen.add(target.key)
                site = jit_site(binding)
                call = caller.calls[index]
                jitted = jitted_text(site, call.text)
                when, loop = when_text(driver, location)
                head = (
                    f"jax.clear_caches() runs {when}, so {jitted}, called at"
                    f" {at_text(call.location, location)}, re-traces after every clear"
                )
                details = [
                    f"{jitted} is called {together}, at {where_text(call.location)}",
                    loop,
                    "jax.clear_caches() drops every jitted function's traces and compiled code",
                ]
                step = PathStep(caller.qualname, call.text, call.location)
                yield make_finding("RTL302", head, details, location, site, None, (step,), driver)


def _built_anew_each_time(
    project: Project, prop: Propagation, target: JitTarget, runner: str, loop: int | None
) -> bool:
    """Whether the jit at ``target`` is built anew each time the clear runs again: a jit of a
    function made per call of a builder (not memoised) that each iteration of loop ``loop`` of
    ``runner`` runs, or made by ``runner`` itself, per call or in that loop. A jit built per
    benchmark configuration traces anew for each configuration whether or not the caches are
    cleared in between: the clear adds no trace (RTL301 tells the rebuild where it is one)."""
    spec = project.symbols.jit_spec(target)
    builder = project.functions.get(spec.function)
    if spec.fresh is None or builder is None or builder.memoised:
        return False
    if spec.function == runner:  # a new function object at each call, or in the loop itself
        return loop is None or loop in spec.loops
    return (
        loop is not None
        and CallSrc() in spec.fresh_sources
        and spec.function in prop.frequency.run_by_loop(runner, loop)
    )


def _new_shape_each_time(
    prop: Propagation, caller: FunctionSummary, call: CallSite, runner: str, loop: int | None
) -> bool:
    """Whether the clearing loop ``loop`` of ``runner``, a function that runs once, calls the jit
    with arguments whose shapes its item sets (``for n in sizes: jax.clear_caches(); f(ones(n))``):
    each iteration is another program, traced whether or not the caches are cleared in between
    (the test RTL301 asks of what differs between builds, ``common.shaped_by``)."""
    if loop is None or caller.qualname != runner or prop.repeated(runner) is not None:
        return False
    args = (*call.args, *(value for _, value in call.kwargs))
    return shaped_by(prop, caller, args, LoopSrc(loop)) is not None


_CLEAR_REACH = 3  # calls followed from the loop that runs a clearing function to the jits it calls


def _loop_around(
    project: Project,
    prop: Propagation,
    fn: FunctionSummary,
    called: dict[str, list[tuple[int, JitTarget]]],
) -> tuple[Driver | None, list[tuple[FunctionSummary, int, JitTarget]], tuple[str, int | None]]:
    """For a function that clears the caches and calls no jitted function: the first repeating
    loop of a caller that calls it, and the jitted calls that the same loop reaches through its
    other calls (``_CLEAR_REACH`` calls deep), and that caller with that loop."""
    for caller_name, index in project.callers.get(fn.qualname, ()):
        caller = project.function(caller_name)
        repeating = [loop for loop in caller.calls[index].loops if caller.loops[loop].repeats]
        if not repeating or prop.frequency.traced(caller_name):
            continue
        loop = repeating[-1]
        near: list[tuple[FunctionSummary, int, JitTarget]] = []
        frontier = [
            (caller, i) for i, c in enumerate(caller.calls) if loop in c.loops and i != index
        ]
        visited = {fn.qualname}
        for depth in range(_CLEAR_REACH):
            following: list[tuple[FunctionSummary, int]] = []
            for owner, at in frontier:
                for target in project.site_targets.get((owner.qualname, at), ()):
                    if isinstance(target, JitTarget):
                        if depth == 0:  # deeper, they came with their function's jitted calls
                            near.append((owner, at, target))
                    elif isinstance(target, FuncTarget) and target.qualname not in visited:
                        visited.add(target.qualname)
                        callee = project.function(target.qualname)
                        near.extend((callee, i, t) for i, t in called.get(target.qualname, ()))
                        following.extend((callee, i) for i in range(len(callee.calls)))
            frontier = following
        if near:
            return prop.loop_driver(caller, loop), near, (caller_name, loop)
    return None, [], (fn.qualname, None)
