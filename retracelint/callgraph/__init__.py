"""Link module summaries into one project: resolve every call site to a function or a jit site.

Resolution is import-aware and deliberately narrow: names through the module's own definitions and
imports (absolute, relative, aliased, re-exported through ``__init__``), ``self.m`` and ``super().m``
through the class and its bases, ``obj.m`` where ``obj`` was made by a class we know, or where every
caller, callee or store says what ``obj`` is (``Project._link``). Calls that cannot be resolved are
dropped, never guessed: a wrong edge makes a false finding, a missing one at worst a missed finding.

The parts, each read alone: ``targets`` (what a call links to, how its arguments bind), ``symbols``
(the definitions and the lookups that depend on them alone: names, imports, classes, pytree fields)
and ``project`` (the linking and the lookups that depend on the links).
"""

from retracelint.callgraph.project import LinkState, Project, Relink
from retracelint.callgraph.symbols import Symbols
from retracelint.callgraph.targets import (
    ClassTarget,
    FuncTarget,
    JitBinding,
    JitTarget,
    Signature,
    Site,
    Target,
    spread_item,
)

__all__ = [
    "ClassTarget",
    "FuncTarget",
    "JitBinding",
    "JitTarget",
    "LinkState",
    "Project",
    "Relink",
    "Signature",
    "Site",
    "Symbols",
    "Target",
    "spread_item",
]
