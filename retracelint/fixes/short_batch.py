"""RTL103: the short last batch is dropped where the loader has the option for it.

A torch-style ``DataLoader(...)`` gets ``drop_last=True`` and a ``tf.data`` ``.batch(...)``
``drop_remainder=True`` (the keyword added, or its ``False`` turned ``True``): every batch then has
the full size, so the jitted function is traced once. The examples of the last partial batch are no
longer seen, which only a user can accept: the fix is unsafe.

A slicing loop (``for i in range(0, n, bs): f(x[i:i + bs])``) has no such option; padding its last
chunk keeps the examples only when the jitted function is told which rows are padding, so the fix is
refused, saying why, unless that function takes a ``mask``: then the padding would still have to reach
every array the chunk is cut with, which the fix does not prove, so it is refused too.
"""

from __future__ import annotations

import ast
import re

from retracelint.fixes.base import Refusal, Rewrite, Source, in_place, offset_in, parse_expression
from retracelint.model import Finding

# The analyser's message names the loader and the option it lacks: "DataLoader without drop_last=True".
_WITHOUT = re.compile(r"without (drop_last|drop_remainder)=True")


def drop_short_batch(source: Source, finding: Finding) -> Rewrite | Refusal:
    flag = _WITHOUT.search(finding.message)
    if flag is None:
        return Refusal(_no_option(finding))
    loc = finding.location
    call = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not isinstance(call, ast.Call):
        return Refusal("the finding is not at the loader call")
    if any(k.arg is None for k in call.keywords):
        return Refusal(f"the call passes **kwargs, which may hold {flag.group(1)}")
    name = flag.group(1)
    given = next((k.value for k in call.keywords if k.arg == name), None)
    if given is not None:
        if not (isinstance(given, ast.Constant) and given.value is False):
            return Refusal(f"{name} is {source.code(given)} here, which may be True on some runs")
        return Rewrite(replace={source.span(given): parse_expression("True")}, unsafe=True)
    added = _with_keyword(source, call, name)
    if added is None:
        return Refusal(
            "the loader call's last argument is not where the keyword can follow it, or a string spans its lines"
        )
    return Rewrite(replace={source.span(call): parse_expression(added)}, unsafe=True)


def _with_keyword(source: Source, call: ast.Call, name: str) -> str | None:
    """The call's text with ``name=True`` put right after its last argument, the rest kept as
    written (comments and line breaks inside the parentheses included); None when what follows that
    argument is not its comma or the closing parenthesis (it is parenthesised)."""
    text = source.code(call)
    arguments = [*call.args, *call.keywords]
    if not arguments:
        return f"{source.code(call.func)}({name}=True)"
    last = max(arguments, key=lambda a: (a.end_lineno or 0, a.end_col_offset or 0))
    at = offset_in(text, source.start(call), source.end(last))
    if not text[at:].lstrip().startswith((",", ")")):
        return None
    return in_place(source, call, f"{text[:at]}, {name}=True{text[at:]}")


def _no_option(finding: Finding) -> str:
    fn = finding.jit_site.name if finding.jit_site else "the jitted function"
    return (
        f"the chunks are sliced by hand, with no drop_last option; padding the last one would change "
        f"what {fn} computes unless it takes a mask of the valid rows"
    )
