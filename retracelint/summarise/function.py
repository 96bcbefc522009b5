"""The interpreter of one function body, put together from its parts."""

from __future__ import annotations

from retracelint.summarise.arrays import Arrays
from retracelint.summarise.calls import Calls
from retracelint.summarise.expressions import Expressions
from retracelint.summarise.objects import Objects
from retracelint.summarise.statements import Statements


class FunctionPass(Statements, Objects, Expressions, Calls, Arrays):
    """Abstract interpretation of one function body (or the module's top level)."""
