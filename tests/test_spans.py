"""A span of code holds the positions from its start up to, not including, the first position past
it: a finding's location in a function's or a call's span (``Location.starts_in``) and in the code a
comprehension's ``for`` runs (``held_items.Walk.inside``) are asked alike."""

from __future__ import annotations

import ast

from retracelint.held_items import Walk
from retracelint.model import Location

LINE = "rows = [np.zeros(n) for n in sizes] + extra"


def _comprehension() -> tuple[Walk, Location]:
    comp = ast.parse(LINE).body[0].value.left  # type: ignore[attr-defined]
    walk = Walk.of(comp.generators[0], comp)
    assert walk is not None
    span = Location("m.py", 1, comp.col_offset + 1, 1, comp.end_col_offset + 1)
    return walk, span


def test_a_comprehension_holds_its_own_positions_not_the_one_past_its_end() -> None:
    walk, span = _comprehension()
    first, past = span.col, span.end_col  # `[` and the space after `]`
    for col, inside in ((first, True), (past - 1, True), (past, False), (first - 1, False)):
        assert walk.inside(1, col) is inside
        assert Location("m.py", 1, col).starts_in(span) is inside
