"""Parse one file and summarise it: imports, definitions, jit sites, and call sites with abstract arguments.

The pass walks each function body once, in statement order, with an environment from local names to
abstract values (``values.Value``). Loops are walked twice, so that what one iteration changes is seen by
the next (accumulators, loop-carried counters). Branches are walked separately and joined. Nothing from
another module is known here: calls to other functions are recorded as dependencies and resolved at link
time, so that each summary depends only on its own file and can be cached by content.

The analysed code is never imported or executed: this package only reads it with ``ast``.

The parts, each a module here: ``source`` (reading and parsing; ``summarise`` is the entry),
``module`` (imports and definitions), the interpreter of one body (``state`` and its parts
``statements``, ``expressions``, ``calls``, ``arrays``, combined in ``function``), and the facts they
share: ``apis`` (what numpy/jax/lax callables do, as tables), ``sizes`` (lengths as polynomials),
``loops`` (what a loop carries), ``abstract`` (operations on abstract values), ``syntax``.
"""

from __future__ import annotations

from retracelint.summarise.source import (
    SummaryOptions,
    check_syntax,
    module_text,
    source_lines,
    summarise,
)

__all__ = ["SummaryOptions", "check_syntax", "module_text", "source_lines", "summarise"]
