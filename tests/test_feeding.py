"""Which parameters feed what a function returns (``Param.read``), read off the summary of a
module: the shapes that one walk of the body must sum right (writes under ifs and loops nested in
each other, nested defs, mutators, names read through ``locals()``)."""

from __future__ import annotations

import textwrap

from retracelint.summarise import SummaryOptions, summarise

SOURCE = textwrap.dedent(
    '''
    import logging

    def play(params, key, iteration, games):
        """iteration only reaches the logger; games decides, three blocks down, what is kept."""
        results = []
        for game in range(4):
            if game % 2:
                while True:
                    if games > 3:
                        results.append(params * game)
                    break
        logging.info("iteration %d", iteration)
        return results, key

    def deep_return(flag, unused, scale):
        """flag's if holds a return nested two blocks down: it decides what is returned."""
        out = scale
        if flag:
            for _ in range(2):
                if out:
                    return out
        return None

    def through_def(rate, label, width):
        """step, a nested def, reads rate and feeds the result; label is only printed."""
        def step(x):
            return x * rate
        print(label)
        return step(width)

    def by_scope(alpha, beta):
        """locals() reads every name: all parameters feed."""
        return locals()["alpha"]

    def returns_all(a, b):
        return a + b
    '''
)


def _reads() -> dict[str, dict[str, bool]]:
    summary = summarise(SOURCE.encode(), "pkg/play.py", "pkg.play", False, SummaryOptions())
    return {
        fn.name: {p.name: p.read for p in fn.params}
        for fn in summary.functions.values()
        if fn.kind == "function"
    }


def test_writes_under_nested_blocks_are_decided_by_each_test_around_them():
    reads = _reads()
    assert reads["play"] == {"params": True, "key": True, "iteration": False, "games": True}
    assert reads["deep_return"] == {"flag": True, "unused": False, "scale": True}


def test_a_nested_def_feeds_with_the_names_it_reads():
    assert _reads()["through_def"] == {"rate": True, "label": False, "width": True}


def test_every_parameter_feeds_where_the_body_reads_names_without_naming_them():
    reads = _reads()
    assert reads["by_scope"] == {"alpha": True, "beta": True}
    assert reads["returns_all"] == {"a": True, "b": True}
