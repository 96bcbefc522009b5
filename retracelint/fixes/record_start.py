"""RTL403 for a state that starts as a record (a ``NamedTuple``) and that the jitted step returns as a
plain tuple (``carry = Carry(params, v)``, then ``carry = step(carry, g)`` with ``step`` ending in
``return new_params, velocity``): the first call traces with the record, every later one with the
tuple, so the step traces twice. The fix starts the state as the tuple the step gives back, the
values in the order of the record's fields, so the jitted step only ever sees one structure.

Unsafe: a state no call replaces (a loop that runs no step) stays a tuple where it was the record,
printed without its field names. The file is left alone when the function reads a field of the state
by name (``carry.params`` fails on a tuple), when the record is not a ``NamedTuple`` of this module or
the one it is imported from, given one value per field, or when a ``return`` of the step is not a
tuple of as many values.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import Refusal, Rewrite, Source, parse_expression
from retracelint.fixes.closure_args import record_classes
from retracelint.fixes.static_closure import defining_path
from retracelint.model import Finding
from retracelint.summarise.syntax import own_nodes

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def start_as_result(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The rewrite; None when the finding is not at a call of a record class (another fix's shape)."""
    loc = finding.location
    call = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return None
    home = defining_path(source, call.func.id, loc.path)
    where = (source if home == loc.path else source.neighbour(home)) if home else None
    record = record_classes(where).get(call.func.id) if where is not None else None
    if record is None:
        return None
    values = _in_field_order(source, call, _fields(record))
    if isinstance(values, Refusal):
        return values
    returned = _step_returns(source, finding, len(values))
    if returned is not None:
        return Refusal(returned)
    read = _field_read(source, call)
    if read is not None:
        return Refusal(read)
    tuple_text = f"({values[0]},)" if len(values) == 1 else f"({', '.join(values)})"
    return Rewrite(replace={source.span(call): parse_expression(tuple_text)}, unsafe=True)


def _fields(record: ast.ClassDef) -> list[str]:
    return [
        s.target.id
        for s in record.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    ]


def _in_field_order(source: Source, call: ast.Call, fields: list[str]) -> list[str] | Refusal:
    """The source of each value the call gives, in the order of the record's fields."""
    given = dict(zip(fields, call.args, strict=False))
    given.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    if (
        len(call.args) > len(fields)
        or any(isinstance(a, ast.Starred) for a in call.args)
        or any(k.arg is None for k in call.keywords)
        or set(given) != set(fields)
    ):
        return Refusal(f"the call of {call.func.id} does not give one value per field")  # type: ignore[attr-defined]
    return [source.code(given[f]) for f in fields]


def _step_returns(source: Source, finding: Finding, size: int) -> str | None:
    """Why the jitted step's result is not a tuple of ``size`` values at every ``return``."""
    site, fdef = finding.jit_site, source.jitted_def(finding)
    if site is None or fdef is None:
        return "the jitted def cannot be read"
    returns = [n for n in own_nodes(fdef.body) if isinstance(n, ast.Return)]
    if not returns or not all(
        isinstance(r.value, ast.Tuple)
        and len(r.value.elts) == size
        and not any(isinstance(e, ast.Starred) for e in r.value.elts)
        for r in returns
    ):
        return f"{site.name} does not return a tuple of {size} values at every return"
    return None


def _field_read(source: Source, call: ast.Call) -> str | None:
    """Why the state may not be a tuple: it is not assigned to a name, or its function reads one of
    its attributes (a field by name, ``_replace``)."""
    holder = source.parent(call)
    if not (
        isinstance(holder, ast.Assign)
        and len(holder.targets) == 1
        and isinstance(holder.targets[0], ast.Name)
    ):
        return "the record is not assigned to a name"
    name = holder.targets[0].id
    scope = next((a for a in source.ancestors(call) if isinstance(a, _FUNCTIONS)), source.tree)
    read = next(
        (
            n
            for n in ast.walk(scope)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name
        ),
        None,
    )
    return None if read is None else f"{source.code(read)} at line {read.lineno} needs the record"
