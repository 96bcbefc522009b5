"""The facts that flow out of the analysis: locations, call paths and findings.

Plain frozen dataclasses, so they can be cached, compared, sorted and sent between processes.
Lines and columns are 1-based, columns counted in characters (what editors show).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any


@dataclass(frozen=True, order=True)
class Location:
    path: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"

    def starts_in(self, span: Location) -> bool:
        """Whether this starts inside ``span`` (a function's, a call's, an argument's), columns
        counted: on the span's first line at or after its start, on its last line before its end."""
        start, end = (span.line, span.col), (span.end_line, span.end_col)
        return self.path == span.path and in_span((self.line, self.col), start, end)


def in_span(position: tuple[int, int], start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether a (line, column) position is in the span from ``start`` to ``end``, the first
    position past it."""
    return start <= position < end


@dataclass(frozen=True)
class PathStep:
    """One call on the way from the varying value to the jit site."""

    function: str  # qualified name of the function making the call
    call: str  # the callee as written at the call site, e.g. "run_epoch"
    location: Location

    def to_dict(self) -> dict[str, Any]:
        return {"function": self.function, "call": self.call, **asdict(self.location)}


@dataclass(frozen=True)
class JitSite:
    """A jitted function: where it is made jitted and which of its parameters are static."""

    function: str  # qualified name of the wrapped function
    name: str  # short name shown in messages
    location: Location  # the def (or the jax.jit(...) call for lambdas)
    wrapper: str  # "jax.jit", "jax.pmap", "equinox.filter_jit", ...
    static_params: tuple[str, ...] = ()


# How bad a finding is, mildest first. "error": it re-traces on every iteration or call, without bound;
# "warning": it adds a bounded number of traces (a flip between two kinds of argument, a few one-shot
# rebuilds). ``--severity LEVEL`` shows LEVEL and everything worse.
SEVERITIES = ("warning", "error")


# How sure a finding is, from proven down. "high": its chain rests on no assumption; "medium": on a
# guess the linker or a rule makes where code does not say (a callee one class fits, a type not
# known); "low": on a path that one run may never take (two entry points spliced together, a callee a
# test replaces, a branch a flag switches off). ``--confidence high`` (the default) shows only proven
# chains.
CONFIDENCES = ("high", "medium", "low")
# Each kind of assumption, with the confidence a finding resting on it has at best.
ASSUMPTION_KINDS = {
    "guessed-callee": "medium",  # a method linked to the one class that defines it, receiver unknown
    "guessed-type": "medium",  # a value of unknown kind taken for the kind that makes the finding
    "entry-splice": "low",  # the chain joins functions that no one entry point runs together
    "mocked-callee": "low",  # a test on the chain replaces a function the chain calls
    "flag-off": "low",  # under a branch that a flag's default, never set otherwise, switches off
    "jit-off": "low",  # eager only where an `if` skips the jit the code applies beside it
    # a chunked loop whose sizes (a configuration's numbers) are not known to leave a remainder
    "unknown-sizes": "medium",
    "guessed-array": "low",  # an array method's name called on an object of a library's class
    # a jit rebuilt per call or iteration, not proven to be rebuilt more often than its own use
    # amortises with the same signature: used in a loop of its own, or new per sweep point/setting
    "rate-unproven": "low",
    # a new shape or static value per point of a sweep over a few fixed problems (resolutions, grid
    # sizes), each point then running its jit in a loop of its own: each trace is needed and used
    "sweep": "low",
    # a shape or static value read off each item of a collection held in memory (the planes of a
    # detector, the layers of a model) whose items are not known to hold different values
    "items-alike": "medium",
    # a flip between two calls that pass a static size read off two different arrays (``a.shape``,
    # ``b.shape``), not known to be one: else the calls are two computations whatever is flipped
    "static-sizes": "medium",
    # a jit (or a static object) made per item from the item, each item another problem (a task's
    # env, a curriculum's stage, a benchmark's size) traced once: building it once would trace as
    # often, whatever the number of items (issue 36 cause 2)
    "per-item": "low",
    # under an ``if`` on whether a pytree of the state's structure holds leaves (a model's batch
    # statistics): a loop keeps the structure, so the step runs at every turn or never, and
    # nothing shows the models the program builds take it (issue 36 cause 1)
    "structure-guard": "low",
}

# What a ``per-item`` assumption says first (``Assumption.text``).
PER_ITEM = "one trace per item, each item its own computation"


@dataclass(frozen=True, order=True)
class Assumption:
    """Something a finding's chain takes for granted that the code does not prove."""

    kind: str  # a key of ASSUMPTION_KINDS
    location: Location  # where the code leaves it open
    text: str  # a few words for the message: "two entry points: test_a and test_b"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **asdict(self.location)}


@dataclass(frozen=True)
class Bound:
    """What caps the traces a finding adds however long the run (a few listed values, a flag's two
    values, the items of a collection held in memory): a fact of the evidence model that keeps the
    finding a warning, told at the end of its message so that a deliberate sweep reads apart
    from a leak."""

    why: str  # a few words: "one per value of `spin`", "one per item of `for g in grid_sizes`"
    traces: int | None = None  # at most this many, where the source says how many
    # Where the cap is made, when that is a value of its own (the DataLoader whose short last batch
    # gives the second shape): a finding told there is this one's cause (``filters.one_per_cause``).
    at: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if self.traces is None:
            return f"bounded: {self.why}"
        return f"at most {self.traces} trace{'s' if self.traces > 1 else ''}: {self.why}"


def confidence_of(assumptions: tuple[Assumption, ...]) -> str:
    """The one place that decides how sure a finding is: the least sure of its assumptions."""
    levels = [ASSUMPTION_KINDS.get(a.kind, "low") for a in assumptions]
    return max(levels, key=CONFIDENCES.index, default=CONFIDENCES[0])


@dataclass(frozen=True)
class Route:
    """Another call path by which a finding's origin reaches a jit site (the same line to change)."""

    call_path: tuple[PathStep, ...]
    jit_site: JitSite | None
    parameter: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "call_path": [step.to_dict() for step in self.call_path],
            "jit_site": _site_dict(self.jit_site),
            "parameter": self.parameter,
        }


def _site_dict(site: JitSite | None) -> dict[str, Any] | None:
    if site is None:
        return None
    return {
        "function": site.function,
        "name": site.name,
        "wrapper": site.wrapper,
        "static_params": list(site.static_params),
        **asdict(site.location),
    }


@dataclass(frozen=True)
class Finding:
    code: str
    # The headline, one short line: what varies, when, which jit re-traces, and the fix in a few words.
    # What it leaves out is structured below: the call path, the jit site, ``details``, the whole fix.
    message: str
    location: Location
    # The rule's claim until ``evidence.severity`` weighs it: error only for re-traces that grow with
    # the run (``grows``) on a proven chain.
    severity: str = "error"
    jit_site: JitSite | None = None
    parameter: str | None = None
    call_path: tuple[PathStep, ...] = ()
    fix: str = ""
    # What else a user needs to act, one clause each ("loop: train.py:19: for step in ..."), shown
    # under the headline by ``--output-format full`` and carried by JSON and SARIF.
    details: tuple[str, ...] = ()
    other_routes: tuple[Route, ...] = ()  # the origin's other call paths, shortest first
    assumptions: tuple[Assumption, ...] = ()  # what its chain takes for granted, in chain order
    # Where the finding is made, when it is reported at a call on its path instead: a run that does
    # not report the origin's file (not among the paths given, excluded) shows it in a file it does.
    origin: Location | None = None
    # What caps its re-traces however long the program runs (``frequency.Driver.bound``, or what
    # ``evidence`` finds of the value itself); None: they may go on as long as the run does.
    bound: Bound | None = None
    # Whether what changes is made where the finding is told (a new object built there at each
    # call), not carried in from the driver's call at the head of ``call_path``: a change of its
    # own, never one re-trace with others that call reaches (``filters.one_per_retrace``).
    made_here: bool = False
    # The other findings of the same re-trace (one jit, one call, one loop), told by this one's
    # message (``filters.one_per_retrace``); each keeps its own place, rule and fix.
    related: tuple[Finding, ...] = ()
    # For a flip between two calls of one jit (RTL401/RTL402 within one body): the other call, whose
    # branch ``evidence`` asks about as it asks about the chain's own call.
    paired: Location | None = field(default=None, compare=False)
    # Other places its chain runs code at, in the call of the chain's last function that makes the
    # jitted call: where what a carried state starts as is made, where that is not the start told
    # (``x = None``, then ``if use_cache: x = Cache(...)``). ``evidence`` asks of them what it asks
    # of the chain's own places.
    runs_with: tuple[Location, ...] = field(default=(), compare=False)
    # Where its driver repeats it (the loop, or the call in a loop that repeats its function):
    # findings of one driver and one first call of their paths are one cause
    # (``filters.one_per_cause``).
    driver: Location | None = field(default=None, compare=False)
    # The for loop whose item alone its changing value is read from (``for start, end, n in
    # batches``: the slice ``x[start:end]`` and the static ``n``), where the source says: a static
    # argument and a shape read off one item are one change (``filters.one_per_item``).
    item: Location | None = field(default=None, compare=False)
    # Text of the flagged line; used for noqa and for fingerprints that survive line shifts.
    source_line: str = field(default="", compare=False)

    @property
    def grows(self) -> bool:
        """Whether its re-traces may go on as long as the program runs: nothing bounds them."""
        return self.bound is None

    @property
    def confidence(self) -> str:
        return confidence_of(self.assumptions)

    @property
    def unproven(self) -> str:
        """A short mark for a finding that rests on an assumption, naming the first, else empty."""
        if not self.assumptions:
            return ""
        return f" [{self.confidence} confidence: {self.assumptions[0].text}]"

    def sameness(self, other: Finding) -> str:
        """What ``other``, a finding this one tells (``related``), shares with it: the re-trace of
        one jitted call, or the change one call passes on to another jitted function."""
        same = other.jit_site == self.jit_site and other.call_path == self.call_path
        return "same re-trace" if same else "same change"

    @property
    def made_at(self) -> Location:
        """The line that makes the finding (the line to change), wherever it is reported."""
        return self.origin or self.location

    def headline(self, name: Callable[[str], str] = str) -> str:
        """The message as reports show it: a finding shown at a call on its path, away from where it
        is made (``origin``), names that place first (``from data.py:6: ...``); ``name`` gives the
        path shown for a file (default: as the run names it)."""
        made = self.origin
        return (
            self.message if made is None else f"from {name(made.path)}:{made.line}: {self.message}"
        )

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.col, self.code, self.headline())

    def to_dict(self) -> dict[str, Any]:
        loc = self.location
        return {
            "path": loc.path,
            "line": loc.line,
            "col": loc.col,
            "end_line": loc.end_line,
            "end_col": loc.end_col,
            "code": self.code,
            "severity": self.severity,
            "message": self.headline(),
            "jit_site": _site_dict(self.jit_site),
            "parameter": self.parameter,
            "call_path": [step.to_dict() for step in self.call_path],
            "other_routes": [route.to_dict() for route in self.other_routes],
            "fix": self.fix,
            "details": list(self.details),
            "confidence": self.confidence,
            "bound": str(self.bound) if self.bound is not None else None,
            "assumptions": [a.to_dict() for a in self.assumptions],
            "origin": asdict(self.origin) if self.origin is not None else None,
            "related": [
                {
                    **asdict(r.location),
                    "code": r.code,
                    "message": r.message,
                    "parameter": r.parameter,
                }
                for r in self.related
            ],
        }


def _display_path(path: str) -> str:
    """Text that any UTF-8 writer accepts: undecodable bytes of a file name shown as ``\\xe9``."""
    if path.isascii():
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _display_location(location: Location) -> Location:
    path = _display_path(location.path)
    return location if path == location.path else replace(location, path=path)


def _display_site(site: JitSite | None) -> JitSite | None:
    return None if site is None else replace(site, location=_display_location(site.location))


def _display_steps(steps: tuple[PathStep, ...]) -> tuple[PathStep, ...]:
    return tuple(replace(step, location=_display_location(step.location)) for step in steps)


def display_safe(findings: list[Finding]) -> list[Finding]:
    """The findings with every path printable, for reports written as UTF-8 (JSON, SARIF, files)."""
    return [
        replace(
            finding,
            message=_display_path(finding.message),
            details=tuple(_display_path(detail) for detail in finding.details),
            source_line=_display_path(finding.source_line),
            location=_display_location(finding.location),
            origin=_display_location(finding.origin) if finding.origin is not None else None,
            jit_site=_display_site(finding.jit_site),
            call_path=_display_steps(finding.call_path),
            other_routes=tuple(
                replace(
                    route,
                    jit_site=_display_site(route.jit_site),
                    call_path=_display_steps(route.call_path),
                )
                for route in finding.other_routes
            ),
            assumptions=tuple(
                replace(a, location=_display_location(a.location)) for a in finding.assumptions
            ),
            related=tuple(display_safe(list(finding.related))),
        )
        for finding in findings
    ]


def with_related(findings: Iterable[Finding]) -> list[Finding]:
    """The findings and those each tells for the same re-trace: what ``--fix`` may rewrite."""
    return [one for finding in findings for one in (finding, *finding.related)]
