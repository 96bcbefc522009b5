"""RTL405: a jitted function called inside and outside a context that is part of its trace cache key."""

from __future__ import annotations

from collections.abc import Iterator

from retracelint.callgraph import JitBinding, JitTarget, Project
from retracelint.checks.common import (
    apart,
    at_text,
    jit_site,
    make_finding,
    shown_code,
    when_text,
    where_text,
)
from retracelint.jitspec import TRACE_CONTEXTS
from retracelint.model import Finding, JitSite, Location, PathStep
from retracelint.propagate import MAX_FRAMES, Propagation
from retracelint.summary import CallSite, FunctionSummary, TraceContext
from retracelint.values import (
    CallSrc,
    Value,
)

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL405",)


# Some context managers (``jitspec.TRACE_CONTEXTS``) are part of jit's trace cache key: a jitted function
# called inside one and outside it, or inside one whose setting changes, traces once per setting. The
# contexts around a call are those written around it and those around the calls that run its function.
_State = frozenset[TraceContext]
_MAX_STATES = 8  # context states kept per function: a few settings, not every combination


def context_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    contexts: dict[str | None, _Contexts] = {}
    by_target: dict[tuple[str, int], list[_InState]] = {}
    bindings: dict[tuple[str, int], JitBinding] = {}
    for fn, index, target in prop.jit_calls():
        binding = project.jit_binding(target)
        # Called while an enclosing jit traces, it is inlined into that trace.
        if binding is None or prop.frequency.traced(fn.qualname):
            continue
        call = fn.calls[index]
        key = (target.module, target.index)
        bindings.setdefault(key, binding)
        yield from _varying_contexts(prop, fn, call, jit_site(binding))
        if _rebuilt_per_call(project, fn, target):
            continue  # its calls from different callers never share a cache to flip
        owner = _held_per_object(project, fn, target)
        if owner not in contexts:
            contexts[owner] = _Contexts(project, prop, owner)
        for state, entries in contexts[owner].around(fn, call.contexts).items():
            by_target.setdefault(key, []).append((fn, call, state, entries))
    for key, calls in by_target.items():
        yield from _context_flips(project, calls, bindings[key])


def _rebuilt_per_call(project: Project, fn: FunctionSummary, target: JitTarget) -> bool:
    """Whether ``fn`` makes the jit it calls anew at each of its calls, around a function object
    made anew too (``jax.jit(partial(init, n=n))()``), with every call of it in ``fn`` under the
    same contexts: each call of ``fn`` traces a jit of its own, inside a context or not."""
    spec = project.symbols.jit_spec(target)
    if spec.function != fn.qualname or spec.loops or CallSrc() not in spec.fresh_sources:
        return False
    jit = ("jit", "", str(spec.index))
    written = {c.contexts for c in fn.calls if c.callee == jit or jit in c.alternatives}
    return len(written) <= 1


def _held_per_object(project: Project, fn: FunctionSummary, target: JitTarget) -> str | None:
    """The class of method ``fn`` when the jit it calls is made anew per call of a method of that
    class (``self._get_rollout()``: a nested jitted def, cached on ``self`` or not): that jit lives
    on one object, and calls on two objects never share its trace cache."""
    spec = project.symbols.jit_spec(target)
    maker = project.functions.get(spec.function)
    if (
        fn.cls is None
        or maker is None
        or maker.cls != fn.cls
        or spec.loops
        or CallSrc() not in spec.fresh_sources
    ):
        return None
    return fn.cls


class _Contexts:
    """The trace-context states (the non-default settings in force) under which functions run, each
    with the entry points whose runs enter it: a state one test enters and another a second test
    enters never meet in one process."""

    def __init__(self, project: Project, prop: Propagation, owner: str | None = None) -> None:
        self.project = project
        # The class whose objects each hold their own jit (``_held_per_object``): a caller that
        # makes the object it calls a method of anew starts a cache of its own, so the contexts
        # its own callers enter never meet those entered above another such caller.
        self.owner = owner
        self.frequency = prop.frequency
        self._states: dict[str, dict[_State, frozenset[str]]] = {}

    def around(
        self, fn: FunctionSummary, written: tuple[TraceContext, ...]
    ) -> dict[_State, frozenset[str]]:
        """The states of a call in ``fn`` with the contexts ``written`` around it."""
        return self._enter_all(self.of(fn.qualname), written)

    def of(self, qualname: str, depth: int = 0) -> dict[_State, frozenset[str]]:
        known = self._states.get(qualname)
        if known is not None:
            return known
        alone = {frozenset(): self.frequency.entries(qualname)}
        self._states[qualname] = alone  # a cycle, or a chain too long, adds nothing
        if depth >= MAX_FRAMES:
            return alone
        states: dict[_State, frozenset[str]] = {}
        for caller, index in self.frequency.callers(qualname):
            call = self.project.functions[caller].calls[index]
            outer = (
                {frozenset(): self.frequency.entries(caller)}
                if self._new_object(qualname, call)
                else self.of(caller, depth + 1)
            )
            for state, entries in self._enter_all(outer, call.contexts).items():
                states[state] = states.get(state, frozenset()) | entries
            if len(states) >= _MAX_STATES:
                break
        self._states[qualname] = states or alone
        return self._states[qualname]

    def _new_object(self, qualname: str, call: CallSite) -> bool:
        """Whether ``call`` runs a method of ``owner``'s class on an object its function makes
        anew (``stepper = Stepper(); stepper.integrate(...)``)."""
        if self.owner is None or self.project.functions[qualname].cls != self.owner:
            return False
        return call.receiver is not None and bool(call.receiver.value.fresh)

    def _enter_all(
        self, outer: dict[_State, frozenset[str]], written: tuple[TraceContext, ...]
    ) -> dict[_State, frozenset[str]]:
        out: dict[_State, frozenset[str]] = {}
        for state, entries in outer.items():
            inner = self._entered(state, written)
            out[inner] = out.get(inner, frozenset()) | entries
        return out

    def _entered(self, outer: _State, written: tuple[TraceContext, ...]) -> _State:
        """``outer`` with ``written`` entered in order: the innermost setting of an option wins, and
        jax's default setting (or the program's own) is no setting at all."""
        if not written:
            return outer
        config = {TRACE_CONTEXTS[c.name].config: c for c in outer}
        for context in written:
            spec = TRACE_CONTEXTS[context.name]
            # what the program sets for the whole process (``jax.config.update``) is no setting either
            default = self.project.settings.get(spec.config, spec.default)
            if spec.config == "jax_enable_x64" and self.project.x64:
                default = "True"
            if context.setting == default:
                config.pop(spec.config, None)
            else:
                config[spec.config] = context
        return frozenset(config.values())


def _setting(context: TraceContext) -> tuple[str, str]:
    return TRACE_CONTEXTS[context.name].config, context.setting


def _written(context: TraceContext) -> tuple[Location, str]:
    return context.location, context.text


# A jitted call with a context state it runs under and the entry points that run it so.
_InState = tuple[FunctionSummary, CallSite, _State, frozenset[str]]


def _context_flips(
    project: Project, calls: list[_InState], binding: JitBinding
) -> Iterator[Finding]:
    """Calls of one jitted function under two context states that one process runs (an entry point
    reaches both, each in its state): each state is a trace; reported at a context one state has
    and the other has not. A state is a set, so the calls (one per state it runs under) and the
    contexts are taken in the order of the source, the same whatever the hash seed."""
    calls.sort(key=lambda c: (c[1].location, sorted(_setting(x) for x in c[2])))
    site = jit_site(binding)
    for i, (fn, call, state, entries) in enumerate(calls):
        mine = {_setting(c) for c in state}
        for other_fn, other_call, other, other_entries in calls[:i]:
            theirs = {_setting(c) for c in other}
            if (
                mine == theirs
                or not entries & other_entries
                or (fn is other_fn and apart(project, binding, fn, call, other_call))
            ):
                continue
            # The context to change: one this call is under and the other not (the outermost),
            # else the other's.
            extra = [c for c in state if _setting(c) not in theirs]
            if extra:
                yield _context_flip(min(extra, key=_written), fn, call, other, other_call, site)
            else:
                missing = min((c for c in other if _setting(c) not in mine), key=_written)
                yield _context_flip(missing, other_fn, other_call, state, call, site)
            break


def _context_flip(
    odd: TraceContext,
    fn: FunctionSummary,
    call: CallSite,
    there: _State,
    elsewhere: CallSite,
    site: JitSite,
) -> Finding:
    """``call`` (in ``fn``) runs inside ``odd``; ``elsewhere`` runs under ``there``."""
    config = TRACE_CONTEXTS[odd.name].config
    same = next((c for c in there if TRACE_CONTEXTS[c.name].config == config), None)
    other = f"inside `{shown_code(same.text, 40)}`" if same is not None else "outside it"
    head = (
        f"jitted '{site.name}' is called inside `{shown_code(odd.text, 40)}` here and {other} at"
        f" {at_text(elsewhere.location, odd.location)}, so it traces once per setting"
    )
    details = [
        f"called {other} at {where_text(elsewhere.location)}",
        f"jax keys its trace cache on {config}",
    ]
    step = PathStep(fn.qualname, call.text, call.location)
    return make_finding("RTL405", head, details, odd.location, site, None, (step,))


def _varying_contexts(
    prop: Propagation, fn: FunctionSummary, call: CallSite, site: JitSite
) -> Iterator[Finding]:
    """A context around the call whose setting changes between executions (``for p in precisions:
    with jax.default_matmul_precision(p): f(x)``): one trace per setting."""
    for context in call.contexts:
        if not context.varies:
            continue
        cause = next(prop.value_causes(fn, Value(vsrc=context.varies), call.loops), None)
        if cause is None:
            continue
        spec = TRACE_CONTEXTS[context.name]
        when, loop = when_text(cause.driver, context.location)
        head = (
            f"`{shown_code(context.text, 40)}` changes its setting {when} around jitted"
            f" '{site.name}', so it traces once per setting"
        )
        details = [loop, f"jax keys its trace cache on {spec.config}"]
        path = (*cause.path, PathStep(fn.qualname, call.text, call.location))
        yield make_finding(
            "RTL405", head, details, context.location, site, None, path, cause.driver
        )
