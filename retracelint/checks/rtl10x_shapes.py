"""RTL101-RTL105 (and a flip a taint carries, RTL401-RTL403): a traced parameter whose shape or
structure changes between calls. The summariser tags each change with its rule code where it sees the
pattern (a slice, an append, a chunk, a mask, a constructor); this turns the causes ``propagate``
finds at a jit call into findings."""

from __future__ import annotations

from collections.abc import Iterator

from retracelint.checks.common import Fix, jitted_text, make_finding, shown_code, when_text
from retracelint.model import Finding, JitSite, PathStep
from retracelint.propagate import Propagation
from retracelint.summary import Arg, FunctionSummary
from retracelint.values import (
    CHOSEN_ANEW,
    MADE_ANEW,
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
    arg: Arg,
    loops: tuple[int, ...],
    step: PathStep,
    site: JitSite,
    param: str,
    called_as: str,
) -> Iterator[Finding]:
    for cause in prop.shape_causes(fn, arg.value, loops):
        taint = cause.taint
        if taint is None:
            continue
        path = (*cause.path, step)
        code = taint.code
        verb = _CHANGE.get(code, "changes shape")
        if taint.what.endswith((CHOSEN_ANEW, MADE_ANEW)):
            verb = "at"  # not "after": the choice is made at every iteration, the first too
        when, loop = when_text(cause.driver, taint.origin, each=verb in ("at", "after"))
        jitted = jitted_text(site, called_as)
        if code == "RTL103" and prop.chunks_full(taint):
            continue
        if code == "RTL103":
            # "chunk x[s : s + n] over range(..., n)": the headline names the chunk, the details how.
            chunk = taint.what.partition(" over ")[0]
            head = f"last {shown_code(chunk)} can be shorter, so {jitted} re-traces"
            details = [f"{taint.what}, one chunk {when}", loop]
        else:
            # A shape rule's taint names code (``slice x[:i]``), shortened; a flip's is a sentence.
            what = taint.what if verb in ("at", "after") else shown_code(taint.what, 48)
            head = f"{what} {verb} {when}, so {jitted} re-traces"
            details = [loop]
        anew = taint.what.endswith(MADE_ANEW)  # a trace per run, not a flip between a few kinds
        yield make_finding(
            code,
            head,
            details,
            taint.origin,
            site,
            param,
            path,
            cause.driver,
            fix=_MADE_ANEW_FIX if anew else None,
            severity="error" if anew else None,
        )
