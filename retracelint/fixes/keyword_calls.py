"""RTL404 where the finding's call already passes the argument by keyword: the other call, which passes
it by position (the line the message names), passes it by keyword too, so that both calls give jax one
signature. The in-place rewrite (``fixes/__init__.py``) makes the finding's own argument a keyword; this
one rewrites the other call of the file, whole (one line: its formatting is the argument list's own).

It is made when the positional argument is the call's last positional one (none moves into its place),
the call has no ``*args`` and does not pass the name already, and the jitted def (in this file or the
one the jit site names) takes the argument at that position under that name. Passing a value by keyword instead of by position
changes nothing else: the fix is safe.
"""

from __future__ import annotations

import ast
import re

from retracelint.fixes.base import Refusal, Rewrite, Source, dotted, parse_expression
from retracelint.model import Finding
from retracelint.rules import RULES_BY_CODE

# RTL404's message: "'batch' is passed by keyword here and by position at line 26, ...", naming
# the call's other such arguments after it ("'batch' (and 'mask') is passed ...").
_OTHER_LINE = re.compile(
    r"^'(\w+)'(?: \(and [^)]*\))? is passed by keyword here and by position at line (\d+),"
)


def keyword_elsewhere(source: Source, finding: Finding) -> Rewrite | Refusal:
    if finding.fix != RULES_BY_CODE["RTL404"].fix:
        # the other hint: static one way and traced the other, which the call's style decides
        return Refusal("passing it the other way would change whether it is static")
    other = _OTHER_LINE.match(finding.message)
    site = finding.jit_site
    if other is None:
        return Refusal("by keyword here, a later positional argument or *args would take its place")
    if site is None or source.jit_home(finding) is None:
        return Refusal("the jitted def cannot be read")
    name, line = other.group(1), int(other.group(2))
    fdef = source.jitted_def(finding)
    params = [a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)] if fdef else []
    if name not in params or (fdef and name in {a.arg for a in fdef.args.posonlyargs}):
        return Refusal(f"{name} is not a parameter the jitted def takes by position or keyword")
    index = params.index(name)
    calls = [
        n
        for n in ast.walk(source.tree)
        if isinstance(n, ast.Call)
        and n.lineno == line
        and n.end_lineno == line
        and len(n.args) == index + 1
        and not any(isinstance(a, ast.Starred) for a in n.args)
        and all(k.arg is not None and k.arg != name for k in n.keywords)
        and dotted(n.func).rsplit(".", 1)[-1] in (site.name, fdef.name if fdef else "")
    ]
    if len(calls) != 1:
        return Refusal(f"no one call on line {line} passes {name} last by position")
    call = calls[0]
    args = [source.code(a) for a in call.args[:-1]]
    args.append(f"{name}={source.code(call.args[-1])}")
    args += [source.code(k) for k in call.keywords]
    new = f"{source.code(call.func)}({', '.join(args)})"
    return Rewrite(replace={source.span(call): parse_expression(new)})
