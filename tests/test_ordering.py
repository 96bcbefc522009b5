"""``ordering.stable_repr``: the sort key that keeps a set of the analysis's facts in one order in
every run, whatever the hashes of what they hold (None's is an address on CPython 3.11)."""

from __future__ import annotations

from itertools import permutations

from retracelint.model import Location
from retracelint.ordering import stable_repr
from retracelint.values import ChoiceSrc, LoopSrc, Made, ParamDep, RetDep, Taint, _merged


def _made(path: str, item: int | None) -> Made:
    return Made(Location(path, 3, 4), item)


def test_a_fact_holding_a_set_reads_the_same_whatever_order_the_set_was_built_in() -> None:
    made = [_made(f"m{i}.py", None if i % 2 else i) for i in range(12)]
    forward = ChoiceSrc(2, frozenset(made))
    backward = ChoiceSrc(2, frozenset(reversed(made)))
    assert stable_repr(forward) == stable_repr(backward)
    # The items in sorted order, so that two facts compare by what they hold.
    shown = stable_repr(forward)
    assert shown.index("m0.py") < shown.index("m10.py") < shown.index("m9.py")


def test_without_sets_it_is_repr_so_existing_orders_stay() -> None:
    facts = [
        ParamDep("x", fixed=frozenset({1}), elem=None, key="lr"),
        RetDep(3, item=None, each=frozenset({0}), below=(1, 0)),
        _made("a.py", None),
        LoopSrc(1),
        (None,),
        ("a", 1.5, [None, True]),
    ]
    assert [stable_repr(f) for f in facts] == [repr(f) for f in facts]


def test_dependencies_holding_none_sort_totally() -> None:
    deps = [
        RetDep(1, item=None, fixed=frozenset({None, 0})),
        RetDep(1, item=0),
        RetDep(1, item=None, fixed=frozenset({0})),
        ParamDep("x", elem=None),
        ParamDep("x", elem=0),
    ]
    orders = {
        tuple(sorted(perm, key=stable_repr)) for perm in (deps, deps[::-1], deps[2:] + deps[:2])
    }
    assert len(orders) == 1
    keys = [stable_repr(d) for d in deps]
    assert len(set(keys)) == len(deps)  # distinct facts never tie


def test_taints_that_differ_only_in_a_set_of_sources_keep_one_order() -> None:
    at = Location("loop.py", 7, 0)
    sources = [frozenset({ChoiceSrc(1, frozenset({_made(p, None), _made(p, 1)}))}) for p in "ab"]
    taints = [Taint("RTL403", "x flips", at, s) for s in sources]
    assert stable_repr(taints[0]) < stable_repr(taints[1])


def test_views_of_one_parameter_merge_into_one_whatever_order_the_set_gives_them() -> None:
    """Two views of ``cfg`` (its item "lr" read in one branch, "wd" in the other) are asked about once:
    the item kept is the same in every run, not the one a set's order happened to give last."""
    views = [
        ParamDep("cfg", fixed=frozenset({0, 1}), key="lr"),
        ParamDep("cfg", fixed=frozenset({1}), aligned=False, key="wd"),
        ParamDep("cfg", fixed=frozenset({1, None}), key=None),
        RetDep(2, item=None),
    ]
    merged = {_merged(frozenset(order)) for order in permutations(views)}
    assert merged == {
        frozenset(
            {ParamDep("cfg", fixed=frozenset({1}), aligned=False, key="lr"), RetDep(2, item=None)}
        )
    }
