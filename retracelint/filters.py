"""Which findings the user sees: rule selection, per-file ignores, ``# noqa`` comments and severity.

Selection follows flake8 and ruff: a code is on when the longest matching prefix among ``select`` /
``extend-select`` is longer than the longest matching prefix among ``ignore`` (a tie keeps it on only if
it was selected more specifically, so ``--select RTL --ignore RTL2`` turns off RTL2xx only).
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import PurePath

from retracelint.checks.common import at_text
from retracelint.config import Settings
from retracelint.model import CONFIDENCES, SEVERITIES, Finding, Location, PathStep
from retracelint.rules import RULES

# The comment syntax flake8 accepts: "noqa", "noqa: RTL101", "NOQA:RTL101,RTL2" (each after "#").
NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...]
    ignore: tuple[str, ...]

    defaults: frozenset[str] = frozenset()  # on unless ignored (no explicit select)

    def enabled(self, code: str) -> bool:
        chosen = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        if code in self.defaults:
            chosen = max(chosen, 0)  # selected by default: any matching ignore wins
        dropped = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return chosen >= 0 and chosen > dropped


def selection(settings: Settings) -> Selection:
    ignore = tuple(i.upper() for i in settings.ignore)
    if settings.select:
        select = settings.select + settings.extend_select
        return Selection(tuple(s.upper() for s in select), ignore)
    defaults = frozenset(r.code for r in RULES if r.default)
    return Selection(tuple(s.upper() for s in settings.extend_select), ignore, defaults)


def per_file_ignored(finding: Finding, settings: Settings) -> bool:
    if not settings.per_file_ignores:
        return False
    path = PurePath(os.path.normpath(finding.location.path)).as_posix()
    # Patterns are relative to the configuration's folder; the path as reported is tried too.
    relative = PurePath(os.path.relpath(os.path.abspath(path), settings.base)).as_posix()
    name = path.rsplit("/", 1)[-1]
    for pattern, codes in settings.per_file_ignores:
        pattern = pattern.rstrip("/")
        matches = any(
            fnmatch.fnmatchcase(p, pattern) or p.startswith(pattern + "/") for p in (path, relative)
        ) or fnmatch.fnmatchcase(name, pattern)
        if matches and any(finding.code.startswith(code.upper()) for code in codes):
            return True
    return False


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """None when the line has no noqa; () for a bare ``# noqa``; else the codes it names."""
    match = NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return tuple(c.upper() for c in _CODE.findall(codes)) if codes else ()


def suppressed_by_noqa(finding: Finding) -> bool:
    if finding.code == "RTL000":
        return False  # a file that was not analysed is never hidden by text on its broken line
    codes = noqa_codes(finding.source_line)
    if codes is None:
        return False
    return not codes or any(finding.code.startswith(code) for code in codes)


def with_source_lines(
    findings: list[Finding], read_lines: Callable[[str], list[str]]
) -> list[Finding]:
    """Attach the text of each finding's line (for noqa and for fingerprints)."""
    out = []
    for finding in findings:
        lines = read_lines(finding.location.path)
        index = finding.location.line - 1
        text = lines[index] if 0 <= index < len(lines) else ""
        out.append(replace(finding, source_line=text))
    return out


def apply_filters(
    findings: list[Finding],
    settings: Settings,
    paths: list[str] = (),  # type: ignore[assignment]
    read_lines: Callable[[str], list[str]] | None = None,
) -> list[Finding]:
    """The findings the user sees. With RTL100 selected, also one per ``# noqa: RTL...`` that hid nothing."""
    chosen = selection(settings)
    shown = [f for f in findings if chosen.enabled(f.code) and not per_file_ignored(f, settings)]
    visible = shown if settings.disable_noqa else [f for f in shown if not suppressed_by_noqa(f)]
    if chosen.enabled(UNUSED_NOQA) and read_lines is not None:
        unused = unused_noqa(shown, paths, read_lines)
        visible += [f for f in unused if not per_file_ignored(f, settings)]
    # Last, so that a noqa comment for a milder finding is still used, not reported as RTL100.
    seen = [f for f in visible if severe_enough(f, settings.severity) and sure_enough(f, settings)]
    # After selection and noqa: a finding told by another is never lost to `--select` or a comment.
    return one_per_cause(one_per_item(one_per_cut(one_per_retrace(seen))))


# The rules whose finding is a value passed to a jit call that changes with each run of a driver (a
# loop, a repeated call), by code prefix: several findings of one rule at one call and driver are one
# re-trace each time, with one fix. Two rules stay two findings: each makes its own claim and names
# its own fix (a slice that changes at every step against the short last chunk at the same line, a
# mask against a static argument), and `--select` and noqa comments keep going by rule.
_PER_DRIVER = ("RTL10", "RTL20")
_DRIVER_DETAILS = ("loop: ", "repeated: ")


def one_per_retrace(findings: list[Finding]) -> list[Finding]:
    """One finding per re-trace and rule: those of one ``_PER_DRIVER`` rule at the same call of the
    same jitted function, changed by the same driver, told by the surest (then first) of them,
    whose message names the others and keeps them as ``related`` (lop-jax: four masks that one task
    loop changes are one finding, its three static arguments another). So are those told at the
    jitted calls that one call of the driver's body reaches with what it passes in (a sweep's
    ``run(n)`` that makes a static grid for each jitted helper it calls: one change, one fix at
    the call); jitted functions each called in the driver's body stay apart."""
    return _one_per(findings, _retrace_key, _surest_first, _telling)


# The rules whose finding is a cut of a value that the jit sees (a slice, a short last chunk), and
# those whose finding is the size of a whole value (a mask, a made shape, a grown list), by code.
_CUTS = ("RTL101", "RTL103")
_WHOLES = ("RTL102", "RTL104", "RTL105")


def one_per_cut(findings: list[Finding]) -> list[Finding]:
    """A whole value's change told again at the cut of it that the jit sees, told once: a mask that
    decides how many boxes a helper then cuts into fixed chunks with a short last one, a padded
    image whose patches are cut (issue 36, cause 8). The whole value's finding is on the chain of
    the cut's (the same jitted call, the same argument, the cut's call path a tail of its own, made
    before the cut when both are made in one function), and padding the cut the jit sees removes
    both; the cut tells it as ``related`` when it is as sure and as severe. A cut less sure or less
    severe than the whole it is made from (a warned short last chunk of a stream an erring mask
    filtered: round 36's F3) is that change met again: the whole tells it. Another argument,
    another jitted call, or a cut on a chain the whole value does not take stay apart."""
    cuts = [f for f in findings if f.code.startswith(_CUTS) and f.call_path]
    fed: dict[Finding, list[Finding]] = {}
    out = []
    for finding in findings:
        cut = next((c for c in cuts if _cut_of(c, finding)), None)
        if cut is None:
            out.append(finding)
        else:
            fed.setdefault(cut, []).append(finding)
    told = [_telling_group(f, fed[f]) if f in fed else f for f in out]
    return sorted(told, key=lambda f: f.sort_key)


def _cut_of(cut: Finding, whole: Finding) -> bool:
    """Whether ``cut`` is the value the jit sees of the change ``whole`` tells upstream."""
    tail = len(cut.call_path)
    return (
        whole.code.startswith(_WHOLES)
        and whole.jit_site == cut.jit_site
        and whole.parameter == cut.parameter
        and whole.call_path[-tail:] == cut.call_path
        and (tail < len(whole.call_path) or whole.sort_key < cut.sort_key)
    )


def _telling_group(cut: Finding, wholes: list[Finding]) -> Finding:
    """The cut and the wholes it is made from, told by the surest and most severe of them, the cut
    on a tie (it names the value the jit sees)."""
    surest = min(wholes, key=_surest_first)
    if _surest_first(cut)[:2] <= _surest_first(surest)[:2]:
        return _telling_cut(cut, wholes)
    others = sorted([cut, *(w for w in wholes if w is not surest)], key=lambda f: f.sort_key)
    lines = _two([at_text(f.location, surest.location) for f in others])
    return _told(surest, others, f"and its cut at {lines}", "cut of this")


def _telling_cut(cut: Finding, wholes: list[Finding]) -> Finding:
    wholes = sorted(wholes, key=lambda f: f.sort_key)
    lines = _two([at_text(f.location, cut.location) for f in wholes])
    return _told(cut, wholes, f"fed by {lines}", "feeds this cut")


def one_per_item(findings: list[Finding]) -> list[Finding]:
    """A static argument read off the same loop item as a shape that changes at the same jitted
    call (``for start, end, n in batches``: ``x[start:end]`` and ``n``), told by the shape's
    finding (issue 36, cause 8): it changes exactly when the shape does, the traces are the
    shape's, and a static that sets an output size cannot be made traced; padding to one layout
    removes both. A static of another item, or beside no such shape, stays apart."""
    shapes = {
        (f.item, f.jit_site, f.call_path): f
        for f in findings
        if f.code.startswith("RTL10") and f.item is not None
    }
    folded: dict[Finding, list[Finding]] = {}
    out = []
    for finding in findings:
        shape = shapes.get((finding.item, finding.jit_site, finding.call_path))
        if finding.code.startswith("RTL20") and shape is not None:
            folded.setdefault(shape, []).append(finding)
        else:
            out.append(finding)
    return [_telling_item(f, folded[f]) if f in folded else f for f in out]


def _telling_item(shape: Finding, statics: list[Finding]) -> Finding:
    statics = sorted(statics, key=lambda f: f.sort_key)
    named = _two([_named(shape, f) for f in statics])
    return _told(shape, statics, f"and static {named} of the same item", "same item")


# The rules whose findings one driver's change makes along one jitted chain, whichever rule each
# line is told by: a size made in one helper and sliced, padded and masked in the next (issue 36,
# cause 8).
_PER_CAUSE = ("RTL10", "RTL20", "RTL301")


def one_per_cause(findings: list[Finding]) -> list[Finding]:
    """One finding per cause, across rules: those that one driver (a loop, or the call in a loop
    that repeats their function) makes through one call of its body, in one module other than
    the driver's, are one change met at several lines of the chain that call enters (a grid
    size that a benchmark's ``solve(g)`` turns into an ``arange``, a slice and a mask in the
    library; a runtime built per solve that jits five operators). Told at the line nearest the
    driver, the others its ``related``. Two drivers, two calls of one loop's body, or two
    modules (two scripts' callbacks one loop runs) stay apart, and so does what is told beside
    the driver, in its own module: each line there is a change a user makes in the loop's code,
    with its own fix; unless the lines reach one argument of one jitted function below one call
    of the body (round 34's F9: a model selection's initial parameters, and the EM accumulators
    that the fit it calls makes from the same count)."""
    return _one_per(_told_at_bounds(findings), _cause_key, _nearest_first, _telling_cause)


def _told_at_bounds(findings: list[Finding]) -> list[Finding]:
    """A finding whose cap is made where another finding of the same jit is told (``Bound.at``:
    ``t = uniform(key, (batch.shape[0],))`` in a loop over a ``DataLoader`` without ``drop_last``,
    and RTL103 at that loader) is that finding's cause met again downstream: told by the one at the
    origin, which names the fix, with the cap when it had none."""
    origins = {(*_start(f.location), f.jit_site): f for f in findings}
    folded: dict[Finding, list[Finding]] = {}
    out = []
    for finding in findings:
        at = finding.bound.at if finding.bound is not None else None
        origin = origins.get((*_start(at), finding.jit_site)) if at is not None else None
        if origin is None or origin is finding:
            out.append(finding)
        else:
            folded.setdefault(origin, []).append(finding)
    return [_telling_origin(f, folded[f]) if f in folded else f for f in out]


def _start(at: Location) -> tuple[str, int, int]:
    return (at.path, at.line, at.col)


def _telling_origin(origin: Finding, others: list[Finding]) -> Finding:
    """``origin`` telling ``others``, the findings its value caps, and their cap."""
    others = sorted(others, key=lambda f: f.sort_key)
    bound = origin.bound or others[0].bound
    cap = f"{bound}, " if origin.bound is None else ""
    lines = _two([at_text(f.location, origin.location) for f in others])
    more = f"{cap}and {len(others)} more of this cause: {lines}"
    return replace(_told(origin, others, more, "same cause"), bound=bound)


def _one_per(
    findings: list[Finding],
    key_of: Callable[[Finding], tuple | None],
    order: Callable[[Finding], tuple],
    telling: Callable[[Finding, list[Finding]], Finding],
) -> list[Finding]:
    """The findings with those of one key told by the first of them in ``order``."""
    groups: dict[tuple, list[Finding]] = {}
    out = []
    for finding in findings:
        key = key_of(finding)
        if key is None:
            out.append(finding)
        else:
            groups.setdefault(key, []).append(finding)
    for group in groups.values():
        first, *others = sorted(group, key=order)
        out.append(telling(first, others) if others else first)
    return sorted(out, key=lambda f: f.sort_key)


def _cause_key(finding: Finding) -> tuple | None:
    path = finding.call_path
    if (
        not finding.code.startswith(_PER_CAUSE)
        or finding.assumptions  # each guess is its own: only proven chains are one cause
        or finding.driver is None
        or not path
    ):
        return None
    if finding.location.path != finding.driver.path:
        return (finding.driver, path[0], finding.location.path)
    if finding.jit_site is None or finding.parameter is None or len(path) < 2:
        return None
    # Beside the driver, lines that one call of its body carries to one argument of one jitted
    # function (the loop's initial parameters, and the accumulators that a step of that call fills
    # from them) change it together: one re-trace per change of the driver.
    return (finding.driver, path[0], finding.jit_site, finding.parameter)


def _nearest_first(finding: Finding) -> tuple:
    """The finding to tell a cause by: the surest, then the nearest the driver along the path
    (fewest calls), then first."""
    return (*_surest_first(finding)[:2], len(finding.call_path), finding.sort_key)


def _telling_cause(first: Finding, others: list[Finding]) -> Finding:
    """``first`` telling ``others`` of the same cause: the headline counts them, the details name
    each one's place and message, ``related`` holds them with what each told."""
    others = sorted(others, key=lambda f: f.sort_key)
    lines = _two([at_text(f.location, first.location) for f in others])
    return _told(first, others, f"and {len(others)} more of this cause: {lines}", "same cause")


def _retrace_key(finding: Finding) -> tuple | None:
    if (
        not finding.code.startswith(_PER_DRIVER)
        or finding.jit_site is None
        or not finding.call_path
    ):
        return None
    driver = next((d for d in finding.details if d.startswith(_DRIVER_DETAILS)), None)
    if driver is None:
        return None
    if _at_the_jit_call(finding) and not finding.made_here:
        # Through the driver's call at the head of the path: whatever it reaches inside. What is
        # made at the jitted call (a new object per call) is a change, and a fix, of its own.
        return (finding.code, None, finding.call_path[:1], driver)
    return (finding.code, finding.jit_site, finding.call_path, driver)


def _at_the_jit_call(finding: Finding) -> bool:
    """Whether ``finding`` is told at the jitted call its path ends in, below the driver's call at
    its head: what it passes changes with what came in through that call, not a value made on the
    way (a recursion's ``n - 1``, a size made in a helper), which is a change of its own."""
    path = finding.call_path
    if len(path) < 2:
        return False
    return finding.location.starts_in(path[-1].location)


def _surest_first(finding: Finding) -> tuple[int, int, tuple]:
    return (
        -_RANK.get(finding.severity, 0),
        CONFIDENCES.index(finding.confidence),
        finding.sort_key,
    )


def _telling(first: Finding, others: list[Finding]) -> Finding:
    """``first`` telling ``others`` too: the headline names their arguments (two at most: it stays
    one short line), the details each one's place and message, ``related`` the findings."""
    others = sorted(others, key=lambda f: f.sort_key)
    named = _two(list(dict.fromkeys(_named(first, f) for f in others)))
    return _told(first, others, f"and {len(others)} more: {named}", None)


def _told(first: Finding, others: list[Finding], more: str, label: str | None) -> Finding:
    """``first`` with ``others`` folded in: ``more`` at the end of its headline, a detail per other
    (its place and message, after ``label``, else what it shares with ``first``), and ``related``
    holding the others and what each had folded in already."""
    return replace(
        first,
        message=f"{first.message} ({more})",
        details=(
            *first.details,
            *(
                f"{label or first.sameness(f)}: {at_text(f.location, first.location)}: "
                f"{f.code} {f.message}"
                for f in others
            ),
        ),
        related=(*first.related, *(one for f in others for one in (f, *f.related))),
    )


def _named(first: Finding, other: Finding) -> str:
    """How ``first``'s headline names ``other``: its argument, and its jitted function when that is
    another."""
    if other.jit_site is None or other.jit_site == first.jit_site:
        return f"'{other.parameter}'"
    return f"'{other.parameter}' of '{other.jit_site.name}'"


def _two(items: list[str]) -> str:
    """The first two, then ``...``: the headline stays one short line, ``related`` lists them all."""
    return ", ".join(items[:2]) + (", ..." if len(items) > 2 else "")


def reported_in(
    findings: list[Finding],
    reported: Callable[[str], bool],
    settings: Settings,
    read_lines: Callable[[str], list[str]],
) -> list[Finding]:
    """The findings a run that reports the files ``reported`` accepts shows (by path). A finding is
    shown at its own line when its file is one of them; else at the first call on its call paths
    (``call_path``, then ``other_routes``) in such a file, its own line kept as ``origin``: a loop in
    ``train.py`` that passes ``data.prefix(x, step + 1)`` to a jitted function makes a finding in
    ``data.py``, and a run on ``train.py`` (an editor, a pre-commit hook, flake8) shows it at that
    call, reported ``from data.py:6: ...`` (``Finding.headline``). ``per-file-ignores`` and ``# noqa`` on
    the line it is shown at count there too."""
    out = []
    for finding in findings:
        if reported(finding.location.path):
            out.append(finding)
            continue
        step = next((s for s in _call_steps(finding) if reported(s.location.path)), None)
        if step is None:
            continue
        made = finding.location
        moved = replace(finding, location=step.location, origin=made)
        if per_file_ignored(moved, settings):
            continue
        if not settings.disable_noqa:
            lines = read_lines(step.location.path)
            index = step.location.line - 1
            here = replace(moved, source_line=lines[index] if 0 <= index < len(lines) else "")
            if suppressed_by_noqa(here):
                continue
        out.append(moved)  # its source line stays the origin's: its fingerprint is the origin's
    return out


def _call_steps(finding: Finding) -> Iterator[PathStep]:
    yield from finding.call_path
    for route in finding.other_routes:
        yield from route.call_path


_RANK = {level: rank for rank, level in enumerate(SEVERITIES)}


def severe_enough(finding: Finding, floor: str) -> bool:
    """Whether ``finding`` is at least as bad as ``floor`` (a level this version does not know is shown:
    a finding is never dropped by a typo)."""
    return _RANK.get(finding.severity, len(SEVERITIES)) >= _RANK[floor]


def sure_enough(finding: Finding, settings: Settings) -> bool:
    """Whether ``finding`` is shown at the configured confidence: "all" shows every one, "high" only
    those whose chain rests on no assumption."""
    return settings.confidence == "all" or finding.confidence == settings.confidence


UNUSED_NOQA = "RTL100"


def unused_noqa(
    findings: list[Finding], paths: list[str], read_lines: Callable[[str], list[str]]
) -> list[Finding]:
    """``# noqa: RTL101`` comments on lines where no RTL101 finding was suppressed (codes of other tools
    and bare ``# noqa`` are left alone: they are not ours to judge)."""
    hidden: dict[tuple[str, int], set[str]] = {}
    for finding in findings:
        hidden.setdefault((finding.location.path, finding.location.line), set()).add(finding.code)
    out = []
    for path in paths:
        for number, line in enumerate(read_lines(path), start=1):
            if "noqa" not in line.lower():
                continue
            match = NOQA.search(line)
            codes = noqa_codes(line)
            if match is None or not codes:
                continue
            present = hidden.get((path, number), set())
            unused = [
                c
                for c in codes
                if c.startswith("RTL") and not any(h.startswith(c) for h in present)
            ]
            if unused:
                col = len(line[: match.start()]) + 1
                out.append(
                    Finding(
                        code=UNUSED_NOQA,
                        message=f"unused noqa: no {', '.join(unused)} finding on this line;"
                        " remove the code from the comment",
                        location=Location(path, number, col, number, len(line[: match.end()]) + 1),
                        severity="warning",
                        fix="remove the unused code from the noqa comment",
                        source_line=line,
                    )
                )
    return out
