"""Buffers filled to the same length at every read: an attribute a method grows from its old value
(``self.i += 1``, ``self.obs.append(x)``) changes on each call of that method, but when every call
of it is a statement of its own in a ``for`` loop of a fixed count that runs to the end, and the same
object is reset (``buf.clear()``) once per run of the block that loop is in, each read after the
loop sees the same length (the rollout of a fixed number of steps). A ``break`` in the loop, a call
under a condition or a reset that may be skipped keeps the change."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from retracelint.callgraph import Project
from retracelint.summary import Arg, FunctionSummary
from retracelint.values import CallSrc, Src, Value

_PER_CALL = CallSrc()

# Whether call ``index`` of a function resets the object (runs one of the methods storing it afresh).
Resetting = Callable[[FunctionSummary, int], bool]


def grows(value: Value) -> bool:
    """Whether a stored value is made from the attribute's old one (``summarise.objects``)."""
    return _PER_CALL in value.vsrc or any(_PER_CALL in t.sources for t in value.shape)


def without_calls(value: Value) -> Value:
    """``value`` without what changes it on each call of the method that stores it."""

    def kept(sources: frozenset[Src]) -> frozenset[Src]:
        return sources - {_PER_CALL}

    return value.with_(
        vsrc=kept(value.vsrc), shape=frozenset(t.with_sources(kept(t.sources)) for t in value.shape)
    )


def filled_evenly(
    project: Project, filler: FunctionSummary, resets: Iterable[FunctionSummary]
) -> bool:
    """Whether every call of ``filler`` (a method that grows an attribute) fills it the same number
    of times between two calls of one of ``resets`` (methods that store it afresh) on the same
    object."""
    resets = tuple(resets)
    sites = project.callers.get(filler.qualname, ())
    if not resets or not sites:
        return False

    def resetting(caller: FunctionSummary, index: int) -> bool:
        return any(project.calls_function((caller.qualname, index), r.qualname) for r in resets)

    return all(
        _in_fixed_loop(project, project.function(name), index, resetting) for name, index in sites
    )


def _in_fixed_loop(
    project: Project, caller: FunctionSummary, index: int, resetting: Resetting
) -> bool:
    """Whether call ``index`` of ``caller`` runs once per iteration of a loop of a fixed count
    that runs to the end, the object the call fills is reset once per run of the block around that
    loop (there, or before each call of ``caller`` when the loop is its body's own: a training loop
    that empties the buffer a collecting function fills), and nothing else in the loop touches it."""
    steady = caller.steady
    call = caller.calls[index]
    if not call.loops or call.location not in steady.calls:
        return False
    loop = call.loops[-1]
    if caller.loops[loop].location not in steady.loops:
        return False
    owner = _receiver(call.receiver)
    if not owner:
        return False
    outer = call.loops[:-1]
    reset = False
    for i, other in enumerate(caller.calls):
        if i == index or _receiver(other.receiver) != owner:
            continue
        if loop in other.loops and other.callee != call.callee:
            return False  # read or changed during the fill: its length there changes
        if other.loops == outer and other.location in steady.calls and resetting(caller, i):
            reset = True
    return reset or (not outer and _reset_before_each_call(project, caller, owner, resetting))


def _reset_before_each_call(
    project: Project, fn: FunctionSummary, owner: str, resetting: Resetting
) -> bool:
    """Whether every call of ``fn`` is a statement of its own beside a reset of the object ``fn``
    knows as ``owner`` (a parameter, ``self``, or an attribute path of one), as the caller names it,
    in the same block: each call of ``fn`` starts from an emptied object."""
    head, dot, rest = owner.partition(".")
    sites = project.callers.get(fn.qualname, ())
    if not sites:
        return False
    for name, index in sites:
        caller = project.function(name)
        call = caller.calls[index]
        signature = project.signature(project.target_to((name, index), fn.qualname), fn)
        bound = signature.bound and fn.params and fn.params[0].name == head
        passed = call.receiver if bound else signature.arg(call, head)
        if not isinstance(passed, Arg) or call.location not in caller.steady.calls:
            return False
        there = passed.text + dot + rest
        if not any(
            other.loops == call.loops
            and other.location in caller.steady.calls
            and _receiver(other.receiver) == there
            and resetting(caller, i)
            for i, other in enumerate(caller.calls)
        ):
            return False
    return True


def _receiver(arg: Arg | None) -> str:
    return arg.text if isinstance(arg, Arg) else ""
