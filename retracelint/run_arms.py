"""The arms of ``if``s that keep one side for a whole run (issue 36, paths that cannot meet in one run).

``if config.mode == "lut": simulate_lut(batch) else: simulate_parametrized(batch)`` in the loop of a
``main(config)`` that the script calls once: the test reads only names ``main`` binds once
(``summary.Arm``, a test fixed through one call of its function), and ``main`` runs once in the
process, so every iteration takes the same side. What either side calls, however deep, never meets
what the other side calls in that process: a jit they share sees one side's arguments only.

A function runs once in a process where it is a module's top level (an import runs it once), a
program start (a script, a test: ``evidence._Sources.program_start``), or the one function that
calls it, from outside any loop of its own, runs once. A call is guarded by the fixed arms around it
in such a function, and by the guards every caller of its function has in common (a function called
from both sides is guarded by neither)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from retracelint.callgraph import Project
from retracelint.frequency import Frequency
from retracelint.summary import Arm

Site = tuple[str, int]  # (function, call index)
# An arm of an ``if`` in a function that runs once per process: (the function, the arm).
Guard = tuple[str, Arm]


@dataclass
class RunArms:
    """The run-wide arms around calls, asked by the checks that pair two calls of one jit. A run is
    one entry point's (``Frequency.entries``): the callers another program has do not guard it."""

    project: Project
    frequency: Frequency
    program_start: Callable[[str], bool]
    _once: dict[tuple[str, str], bool] = field(default_factory=dict)
    _guards: dict[tuple[str, str], frozenset[Guard]] = field(default_factory=dict)

    def apart(self, a: Site, b: Site) -> bool:
        """Whether, in every run that reaches both calls ``a`` and ``b``, they sit, at some depth,
        on opposite sides of one test that keeps its side for the whole run."""
        entries = self.frequency.entries(a[0]) & self.frequency.entries(b[0])
        return bool(entries) and all(
            _exclusive(self.guards(a, entry), self.guards(b, entry)) for entry in sorted(entries)
        )

    def guards(self, site: Site, entry: str) -> frozenset[Guard]:
        """The run-wide arms that every way the run from ``entry`` reaches the call ``site`` passes
        through."""
        return self._own(site, entry) | self._reached(site[0], entry, frozenset())

    def _own(self, site: Site, entry: str) -> frozenset[Guard]:
        """The fixed arms around the call ``site`` where its function runs once in the run."""
        qualname, index = site
        if not self.once(qualname, entry):
            return frozenset()
        arms = self.project.functions[qualname].calls[index].arms
        return frozenset((qualname, arm) for arm in arms if arm.fixed)

    def _reached(self, qualname: str, entry: str, seen: frozenset[str]) -> frozenset[Guard]:
        """The run-wide arms every caller of ``qualname`` in the run calls it under (none for the
        entry point, or through a cycle of calls, which may reach it either way)."""
        known = self._guards.get((qualname, entry))
        if known is not None:
            return known
        callers = self._callers(qualname, entry)
        if not callers or qualname in seen:
            return frozenset()
        common: frozenset[Guard] | None = None
        for caller in callers:
            found = self._own(caller, entry) | self._reached(caller[0], entry, seen | {qualname})
            common = found if common is None else common & found
            if not common:
                break
        out = common or frozenset()
        if not seen:
            self._guards[qualname, entry] = out  # a cycle's partial answer is not kept
        return out

    def _callers(self, qualname: str, entry: str) -> list[Site]:
        """The calls of the function that the run from ``entry`` makes."""
        return [
            site
            for site in self.frequency.callers(qualname)
            if entry in self.frequency.entries(site[0])
        ]

    def once(self, qualname: str, entry: str) -> bool:
        """Whether the function runs at most once in the run from ``entry``."""
        key = (qualname, entry)
        known = self._once.get(key)
        if known is None:
            self._once[key] = False  # a cycle of calls may run it again
            known = self._once[key] = self._runs_once(qualname, entry)
        return known

    def _runs_once(self, qualname: str, entry: str) -> bool:
        fn = self.project.functions[qualname]
        if fn.kind == "module":
            return True
        callers = self._callers(qualname, entry)
        if not callers:
            return self.program_start(qualname)
        if len(callers) > 1:
            return False
        caller, index = callers[0]
        in_loop = bool(self.project.functions[caller].calls[index].loops)
        return not in_loop and self.once(caller, entry)


def _exclusive(left: frozenset[Guard], right: frozenset[Guard]) -> bool:
    """Whether an arm of ``left`` and one of ``right`` are the two sides of one function's test."""
    return any(fa == fb and x.excludes(y) for fa, x in left for fb, y in right)
