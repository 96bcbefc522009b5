"""RTL101-RTL105 (and a flip a taint carries, RTL401-RTL403): a traced parameter whose shape or
structure changes between calls. The summariser tags each change with its rule code where it sees the
pattern (a slice, an append, a chunk, a mask, a constructor); this turns the causes ``propagate``
finds at a jit call into findings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from retracelint.checks.common import (
    Fix,
    built_each_time,
    jitted_text,
    make_finding,
    shown_code,
    when_text,
)
from retracelint.model import Assumption, Finding, JitSite, Location, PathStep
from retracelint.propagate import Cause, Propagation
from retracelint.summary import Arg, FunctionSummary
from retracelint.values import (
    CHOSEN_ANEW,
    MADE_ANEW,
    LoopSrc,
    Taint,
)

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL101", "RTL102", "RTL103", "RTL104", "RTL105", "RTL401", "RTL402", "RTL403")


# How each shape rule's value changes; a flip's taint says from what kind to what ("level starts as
# ... and is ..."), the driver when.
_CHANGE = {
    "RTL101": "changes shape",
    "RTL102": "grows",
    "RTL104": "changes size",
    "RTL105": "changes shape",
    "RTL401": "after",
    "RTL402": "after",
    "RTL403": "after",
}


# The fix of a pytree that holds a function made anew (``_FRESH_TREES``, a tree_util.Partial).
_MADE_ANEW_FIX = Fix(
    "make the function once, outside the loop",
    "make the function once, outside the loop, and pass what changes as arrays (call a transform"
    " such as jax.vjp inside the jitted function instead)",
)


def traced_findings(
    prop: Propagation,
    fn: FunctionSummary,
    args: list[tuple[Arg, str]],
    loops: tuple[int, ...],
    step: PathStep,
    site: JitSite,
    called_as: str,
    builder: str = "",
) -> Iterator[Finding]:
    """The findings about the traced arguments ``args`` (each with its parameter) of one jitted
    call: the short last chunks that reach it by one call path are one finding, whichever
    arguments they are (``x[i:i + bs]`` and ``y[i:i + bs]`` of one loop re-trace it once)."""
    chunks: dict[tuple[PathStep, ...], list[_Chunk]] = {}
    for arg, param in args:
        for cause in prop.shape_causes(fn, arg.value, loops):
            taint = cause.taint
            if taint is None:
                continue
            path = (*cause.path, step)
            if built_each_time(prop.project, site, path, builder):
                continue
            if taint.code == "RTL103":
                short = prop.last_chunk_short(taint)
                if short is not False:
                    chunks.setdefault(path, []).append(_Chunk(taint, cause, param, short))
                continue
            verb = _refilled(prop, taint, cause) if taint.code == "RTL102" else None
            yield _shape_finding(taint, cause, path, site, param, called_as, verb)
    for path, found in chunks.items():
        yield _chunk_finding(sorted(found, key=lambda c: c.taint.origin), path, site, called_as)


@dataclass(frozen=True)
class _Chunk:
    """A chunk passed to a jitted call whose last one can be short: ``short`` True where the sizes
    say so, None where the step is a number the Python does not hold (read from a configuration file)
    or where a split into a count of pieces cuts a length not known."""

    taint: Taint
    cause: Cause
    param: str
    short: bool | None


# What a split into a count of pieces takes for granted where the length it splits is not known
# (read from a file): a count picked by hand most often divides the data.
_PIECES_UNKNOWN = "a length not known here taken as no multiple of the count of pieces"


def _chunk_finding(
    chunks: list[_Chunk], path: tuple[PathStep, ...], site: JitSite, called_as: str
) -> Finding:
    """One RTL103 finding for the chunks one call path passes, told at the first; it rests on the
    sizes when none of them is known to leave a remainder."""
    first = chunks[0]
    # "chunk x[s : s + n] over range(..., n)": the headline names the chunks, the details how.
    chunked = [c.taint.what.partition(" over ")[0].removeprefix("chunk ") for c in chunks]
    names = list(dict.fromkeys(shown_code(_like(name, chunked[0])) for name in chunked))
    named = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    last = "last chunks" if len(names) > 1 else "last chunk"
    head = f"{last} {named} can be shorter, so {jitted_text(site, called_as)} re-traces"
    details = []
    for chunk in chunks:
        when, loop = when_text(chunk.cause.driver, chunk.taint.origin)
        details += [f"{chunk.taint.what}, one chunk {when}", loop]
    assumptions = ()
    if not any(c.short for c in chunks):
        pieces = all(c.taint.pieces for c in chunks)
        text = _PIECES_UNKNOWN if pieces else "sizes not known to leave a remainder"
        assumptions = (Assumption("unknown-sizes", first.taint.origin, text),)
    finding = make_finding(
        "RTL103",
        head,
        list(dict.fromkeys(details)),
        first.taint.origin,
        site,
        first.param,
        path,
        first.cause.driver,
    )
    return replace(finding, assumptions=assumptions)


def _refilled(prop: Propagation, taint: Taint, cause: Cause) -> str | None:
    """How a list that the loop around an append fills (``RTL102``) differs between calls when
    what repeats them is not that loop: filled anew each time, by as many items as pass, a count
    that differs. A local of a function the loop calls is made anew at each call; in the loop's
    own function it may be kept, so only its length is told. None: it grows across that loop."""
    made_in = _function_at(prop, taint.origin)
    fills = [s.index for s in taint.sources if isinstance(s, LoopSrc)]
    if made_in is None or len(fills) != 1 or fills[0] >= len(made_in.loops):
        return None
    if made_in.loops[fills[0]].location == cause.driver.location:
        return None
    if not cause.driver.location.starts_in(made_in.location):
        return f"fills a list rebuilt per call of {made_in.name}() with a length that differs"
    return "fills a list to a length that differs"


def _function_at(prop: Propagation, at: Location) -> FunctionSummary | None:
    """The innermost function of the project whose body holds ``at``."""
    inside = [
        fn
        for fn in prop.project.functions.values()
        if fn.kind != "module" and at.starts_in(fn.location)
    ]
    return max(inside, key=lambda fn: (fn.location.line, fn.location.col), default=None)


def _like(chunk: str, first: str) -> str:
    """``y[...]`` for a chunk cut as the first is (``x[i : i + bs]``): the headline stays short."""
    base, bracket, cut = chunk.partition("[")
    return (
        f"{base}[...]" if chunk != first and bracket and cut == first.partition("[")[2] else chunk
    )


def _shape_finding(
    taint: Taint,
    cause: Cause,
    path: tuple[PathStep, ...],
    site: JitSite,
    param: str,
    called_as: str,
    verb: str | None = None,
) -> Finding:
    code = taint.code
    verb = verb or _CHANGE.get(code, "changes shape")
    if taint.what.endswith((CHOSEN_ANEW, MADE_ANEW)):
        verb = "at"  # not "after": the choice is made at every iteration, the first too
    when, loop = when_text(cause.driver, taint.origin, each=verb in ("at", "after"))
    # A shape rule's taint names code (``slice x[:i]``), shortened; a flip's is a sentence.
    what = taint.what if verb in ("at", "after") else shown_code(taint.what, 48)
    head = f"{what} {verb} {when}, so {jitted_text(site, called_as)} re-traces"
    anew = taint.what.endswith(MADE_ANEW)  # a trace per run, not a flip between a few kinds
    return make_finding(
        code,
        head,
        [loop],
        taint.origin,
        site,
        param,
        path,
        cause.driver,
        fix=_MADE_ANEW_FIX if anew else None,
        severity="error" if anew else None,
    )
