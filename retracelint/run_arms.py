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
    """The run-wide arms around calls, asked by the checks that pair two calls of one jit."""

    project: Project
    frequency: Frequency
    program_start: Callable[[str], bool]
    _once: dict[str, bool] = field(default_factory=dict)
    _guards: dict[str, frozenset[Guard]] = field(default_factory=dict)

    def apart(self, a: Site, b: Site) -> bool:
        """Whether the calls ``a`` and ``b`` sit, at some depth, on opposite sides of one test that
        keeps its side for the whole run: no process runs both."""
        left, right = self.guards(a), self.guards(b)
        return any(fa == fb and x.excludes(y) for fa, x in left for fb, y in right)

    def guards(self, site: Site) -> frozenset[Guard]:
        """The run-wide arms that every way of reaching the call ``site`` passes through."""
        qualname, index = site
        fn = self.project.functions[qualname]
        own = (
            frozenset((qualname, arm) for arm in fn.calls[index].arms if arm.fixed)
            if self.once(qualname)
            else frozenset()
        )
        return own | self._reached(qualname, frozenset())

    def _reached(self, qualname: str, seen: frozenset[str]) -> frozenset[Guard]:
        """The run-wide arms every caller of ``qualname`` calls it under (none for an entry point,
        or through a cycle of calls, which may reach it either way)."""
        known = self._guards.get(qualname)
        if known is not None:
            return known
        callers = self.frequency.callers(qualname)
        if not callers or qualname in seen:
            return frozenset()
        common: frozenset[Guard] | None = None
        for caller, index in callers:
            fn = self.project.functions[caller]
            own = (
                frozenset((caller, arm) for arm in fn.calls[index].arms if arm.fixed)
                if self.once(caller)
                else frozenset()
            )
            found = own | self._reached(caller, seen | {qualname})
            common = found if common is None else common & found
            if not common:
                break
        out = common or frozenset()
        if not seen:
            self._guards[qualname] = out  # a cycle's partial answer is not kept
        return out

    def once(self, qualname: str) -> bool:
        """Whether the function runs at most once in a process."""
        known = self._once.get(qualname)
        if known is None:
            self._once[qualname] = False  # a cycle of calls may run it again
            known = self._once[qualname] = self._runs_once(qualname)
        return known

    def _runs_once(self, qualname: str) -> bool:
        fn = self.project.functions[qualname]
        if fn.kind == "module":
            return True
        callers = self.frequency.callers(qualname)
        if not callers:
            return self.program_start(qualname)
        if len(callers) > 1:
            return False
        caller, index = callers[0]
        return not self.project.functions[caller].calls[index].loops and self.once(caller)
