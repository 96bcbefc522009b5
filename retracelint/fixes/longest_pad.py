"""RTL105 where a batch is padded to its own longest member (``longest = max(len(s) for s in batch)``,
then ``np.zeros((len(batch), longest))`` filled row by row): every batch of another longest length is
another trace. The fix pads to a bucket instead, the next power of two of at least ``bucket``
(``longest = padded_length(max(...))``): one trace per bucket, and one in all while no member is
longer than the bucket.

The batch already holds padding (all but its longest members are padded), so the program must
already treat padding as padding; the fix is made only where that is shown: the function that pads
also makes a mask of it and returns it beside the arrays, either an array of the same length set
to ones where a member is (``mask[row, : len(s)] = 1.0``) or the padded array compared with its
fill (``tokens != PAD_ID``). The longest length may be used for nothing else than those arrays'
shapes (a length printed or returned would change). Unsafe: the jitted function must treat the
padding the mask marks as it treats the padding of a short member, which the fix cannot read.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    parse_expression,
    parse_statement,
)
from retracelint.fixes.masked_rows import BUCKET, PADDED
from retracelint.model import Finding
from retracelint.summarise.apis import SHAPED_MAKERS, _array_module

LENGTH_NAME = "padded_length"
_LENGTH = '''
def {name}(longest):
    """A padded length for a batch whose longest member is ``longest``: the next power of two
    of at least {bucket}, so that batches of nearby lengths share one trace."""
    return max({bucket}, 1 << (longest - 1).bit_length())
'''
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Longest:
    """The batch's longest length as the padding function binds it: its name, its one assignment
    (``longest = max(...)``) and the function."""

    name: str
    assign: ast.Assign
    function: ast.FunctionDef | ast.AsyncFunctionDef
    bucketed: bool = False  # already ``padded_length(max(...))``, a length function of the file


def pad_to_bucket(
    source: Source, finding: Finding, bucket: int = BUCKET
) -> Rewrite | Refusal | None:
    """The rewrite, in the finding's own file (another file's, ``Rewrite.elsewhere``, where the fix
    is made in the jitted function's); None where the finding is not an array made at a batch's
    longest length."""
    here = finding.location.path
    home = source if source.path in (None, here) else source.neighbour(here)
    if home is None:
        return None
    loc = finding.location
    made = home.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    longest = _longest(home, made) if isinstance(made, ast.Call) else None
    if longest is None:
        return None
    if longest.bucketed:
        return Refusal(PADDED)
    why = _other_use(longest) or _unmasked(longest)
    if why:
        return Refusal(why)
    rewrite = _rewrite(home, longest, bucket)
    if isinstance(rewrite, Refusal) or home is source:
        return rewrite
    return Rewrite(elsewhere={here: rewrite}, unsafe=True)


def _maker(node: ast.AST) -> bool:
    """A numpy or jax.numpy array made by its shape (``np.zeros``, ``np.full``: ``apis``)."""
    if not isinstance(node, ast.Call):
        return False
    module, _, name = dotted(node.func).rpartition(".")
    return name in SHAPED_MAKERS and (module in ("np", "jnp") or _array_module(module))


def _shape(call: ast.Call) -> ast.expr | None:
    shape = next((k.value for k in call.keywords if k.arg == "shape"), None)
    return shape if shape is not None else (call.args[0] if call.args else None)


def _longest(source: Source, made: ast.Call) -> Longest | None:
    """The name in ``made``'s shape bound, once in its function, to a maximum of lengths."""
    if not _maker(made) or (shape := _shape(made)) is None:
        return None
    function = next((a for a in source.ancestors(made) if isinstance(a, _FUNCTIONS)), None)
    if function is None:
        return None
    for name in (n.id for n in ast.walk(shape) if isinstance(n, ast.Name)):
        assigns = [
            a
            for a in ast.walk(function)
            if isinstance(a, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For))
            and name in _targets(a)
        ]
        if len(assigns) != 1 or not isinstance(assign := assigns[0], ast.Assign):
            continue
        if _of_lengths(assign.value):
            return Longest(name, assign, function)
        if _bucketed(source, assign.value):
            return Longest(name, assign, function, bucketed=True)
    return None


def _bucketed(source: Source, value: ast.expr) -> bool:
    """``padded_length(max(...))``: the longest length given to this file's length function."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in _length_functions(source).values()
        and len(value.args) == 1
        and _of_lengths(value.args[0])
    )


def _targets(stmt: ast.stmt) -> set[str]:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _of_lengths(value: ast.expr) -> bool:
    """``max(len(s) for s in batch)`` (a list too): the longest member's length."""
    return (
        isinstance(value, ast.Call)
        and dotted(value.func) == "max"
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], (ast.GeneratorExp, ast.ListComp))
        and isinstance(elt := value.args[0].elt, ast.Call)
        and dotted(elt.func) == "len"
    )


def _padded(longest: Longest) -> dict[str, ast.Call]:
    """The arrays made at the longest length, by the name each is assigned to."""
    out: dict[str, ast.Call] = {}
    for stmt in ast.walk(longest.function):
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and _maker(stmt.value)
            and _uses(_shape(stmt.value), longest.name)  # type: ignore[arg-type]
        ):
            out[stmt.targets[0].id] = stmt.value  # type: ignore[assignment]
    return out


def _uses(node: ast.AST | None, name: str) -> bool:
    return node is not None and any(
        isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)
    )


def _other_use(longest: Longest) -> str:
    """Why the longest length may not grow: a use other than a padded array's shape."""
    shapes = [s for c in _padded(longest).values() if (s := _shape(c)) is not None]
    other = next(
        (
            node
            for node in ast.walk(longest.function)
            if isinstance(node, ast.Name)
            and node.id == longest.name
            and isinstance(node.ctx, ast.Load)
            and not any(_holds(s, node) for s in shapes)
        ),
        None,
    )
    if other is None:
        return ""
    return (
        f"{longest.name} is used at line {other.lineno} other than as the length "
        "of a padded array: a longer one would change it"
    )


def _holds(tree: ast.AST, node: ast.AST) -> bool:
    return any(n is node for n in ast.walk(tree))


def _unmasked(longest: Longest) -> str:
    """Why the padding is not shown to be masked: no mask of it is returned beside the arrays."""
    padded = _padded(longest)
    returned = [
        r.value for r in ast.walk(longest.function) if isinstance(r, ast.Return) and r.value
    ]
    parts = [e for r in returned for e in (r.elts if isinstance(r, ast.Tuple) else [r])]
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    if not names & set(padded):
        return f"{longest.function.name} does not return the padded array"
    if any(_compares_padded(p, padded) for p in parts):
        return ""
    if any(_set_to_one(longest.function, name) for name in names & set(padded)):
        return ""
    return (
        f"{longest.function.name} returns no mask of the padding beside it: longer padding "
        "could change what the jitted function computes"
    )


def _compares_padded(node: ast.expr, padded: dict[str, ast.Call]) -> bool:
    """``tokens != PAD_ID`` (a cast of it too): which cells of a padded array are its fill."""
    return any(
        isinstance(c, ast.Compare)
        and len(c.ops) == 1
        and isinstance(c.ops[0], (ast.NotEq, ast.Eq))
        and any(isinstance(o, ast.Name) and o.id in padded for o in (c.left, *c.comparators))
        for c in ast.walk(node)
    )


def _set_to_one(function: ast.AST, name: str) -> bool:
    """``mask[row, : len(s)] = 1.0``: a padded array of zeros set to one where members are."""
    return any(
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Constant)
        and stmt.value.value in (1, True)
        and any(
            isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
            for t in stmt.targets
        )
        for stmt in ast.walk(function)
    )


def _rewrite(source: Source, longest: Longest, bucket: int) -> Rewrite | Refusal:
    top = next((s for s in source.tree.body if _holds(s, longest.function)), None)
    if top is None:
        return Refusal("the padding function is not inside a top-level statement")
    value = longest.assign.value
    existing = _length_functions(source).get(bucket, "")
    name = existing or source.fresh_name(LENGTH_NAME)
    rewrite = Rewrite(
        replace={source.span(value): parse_expression(f"{name}({source.code(value)})")},
        unsafe=True,
    )
    if not existing:
        rewrite.insert_before[source.start(top)] = [
            parse_statement(_LENGTH.format(name=name, bucket=bucket))
        ]
    return rewrite


def _length_functions(source: Source) -> dict[int, str]:
    """The length functions an earlier fix of this file defined, by their bucket."""
    out: dict[int, str] = {}
    for stmt in source.tree.body:
        if not (isinstance(stmt, ast.FunctionDef) and stmt.name.startswith(LENGTH_NAME)):
            continue
        body = stmt.body[-1]
        maximum = body.value if isinstance(body, ast.Return) else None
        if isinstance(maximum, ast.Call) and maximum.args:
            bucket = maximum.args[0]
            if isinstance(bucket, ast.Constant) and isinstance(bucket.value, int):
                text = _LENGTH.format(name=stmt.name, bucket=bucket.value)
                if ast.dump(ast.parse(text).body[0]) == ast.dump(stmt):
                    out[bucket.value] = stmt.name
    return out
