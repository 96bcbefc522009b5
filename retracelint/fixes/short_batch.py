"""RTL103: the short last batch is dropped where the loader has the option for it, else padded with a
mask where the jitted function takes one, else padded as it enters the jitted function.

A torch-style ``DataLoader(...)`` gets ``drop_last=True`` and a ``tf.data`` ``.batch(...)``
``drop_remainder=True`` (the keyword added, or its ``False`` turned ``True``): every batch then has
the full size, so the jitted function is traced once. The examples of the last partial batch are no
longer seen, which only a user can accept: the fix is unsafe.

A slicing loop (``for i in range(0, n, bs): f(x[i:i + bs])``) has no such option. Its chunks are
padded with zeros to ``bs`` rows and the jitted function told which rows are real,
``f(pad(x[i:i + bs]), mask=jnp.arange(bs) < len(x[i:i + bs]))``, when it takes a ``mask`` the call
does not pass yet (a function written to be given one: unsafe, since only a user can check it masks
what it should). Otherwise (no mask, or chunks that reach the jitted function through a generator or
a function passed along) they are padded as they enter it (``masked_rows``), to the bucket of rows the
short chunk shares with the full ones, where its body can be made to count the real rows alone; else
the fix is refused, saying why.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dotted,
    in_place,
    offset_in,
    parse_expression,
)
from retracelint.fixes.padded_growth import direct_call, pad_as_it_enters, pad_function, pure
from retracelint.model import Finding

# The analyser's message names the loader and the option it lacks: "DataLoader without drop_last=True".
_WITHOUT = re.compile(r"without (drop_last|drop_remainder)=True")
_HAND = "the chunks are sliced by hand, with no drop_last option"
MASK = "mask"  # the parameter of the jitted function that takes the valid rows


def drop_short_batch(source: Source, finding: Finding) -> Rewrite | Refusal:
    flag = _WITHOUT.search(finding.message)
    if flag is not None:
        loc = finding.location
        call = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
        if not isinstance(call, ast.Call):
            return Refusal("the finding is not at the loader call")
        return _set_flag(source, [call], flag.group(1))
    own = _own_loader(source, finding)
    if own is not None:
        return own
    chunk = pad_last_chunk(source, finding)
    if not isinstance(chunk, Refusal):
        return chunk
    # no mask to pass where the chunk is passed (or no call passing it here: a generator, a
    # function passed along): padded as it enters the jitted function, to the bucket of rows the
    # short chunk shares with the full ones
    entered = pad_as_it_enters(source, finding, target(finding))
    if entered is None or isinstance(entered, Refusal):
        return Refusal(chunk.reason + (f"; {entered.reason}" if entered is not None else ""))
    return entered


def target(finding: Finding) -> str:
    """The file the fix rewrites: the loader call's, else the one calling the jitted function
    (which makes the project's loader, or passes the chunks)."""
    if _WITHOUT.search(finding.message) or not finding.call_path:
        return finding.location.path
    return finding.call_path[0].location.path


def _set_flag(source: Source, calls: list[ast.Call], name: str) -> Rewrite | Refusal:
    """Each call with ``name=True``: the keyword added, or its ``False`` made ``True``."""
    replace = {}
    for call in calls:
        if any(k.arg is None for k in call.keywords):
            return Refusal(f"the call passes **kwargs, which may hold {name}")
        given = next((k.value for k in call.keywords if k.arg == name), None)
        if isinstance(given, ast.Constant) and given.value is True:
            return Refusal(f"{name}=True is passed already")
        if given is not None:
            if not (isinstance(given, ast.Constant) and given.value is False):
                return Refusal(
                    f"{name} is {source.code(given)} here, which may be True on some runs"
                )
            replace[source.span(given)] = parse_expression("True")
            continue
        added = _with_keyword(source, call, f"{name}=True", {})
        if added is None:
            return Refusal(
                "the loader call's last argument is not where the keyword can follow it, or a "
                "string spans its lines"
            )
        replace[source.span(call)] = parse_expression(added)
    return Rewrite(replace=replace, unsafe=True)


def _own_loader(source: Source, finding: Finding) -> Rewrite | Refusal | None:
    """The project's loader that cuts the chunks, told to drop the short one where this file makes
    it, when its signature has the option (``Loader(x, y, bs, drop_last=False)``: its ``__init__``'s,
    or a generator function's own); None when it has none."""
    home = source if target(finding) == finding.location.path else None
    home = home or source.neighbour(finding.location.path)
    loc = finding.location
    cut = home.expression_at(loc.line, loc.col, loc.end_line, loc.end_col) if home else None
    if home is None or cut is None:
        return None
    maker = _maker(home, cut)
    if maker is None:
        return None
    name, params = maker
    flag = next((p for p in params if p in ("drop_last", "drop_remainder")), None)
    if flag is None:
        return None
    if home is not source and not _imports(source, name, Path(loc.path).stem):
        return Refusal(f"{name}, which cuts the chunks, is not imported here from {loc.path}")
    calls = [n for n in ast.walk(source.tree) if isinstance(n, ast.Call) and dotted(n.func) == name]
    if not calls:
        return Refusal(f"{name}, which cuts the chunks, is not made in this file")
    position = params.index(flag)
    if any(
        len(c.args) > position or any(isinstance(a, ast.Starred) for a in c.args) for c in calls
    ):
        return Refusal(f"a call of {name} may pass {flag} by position")
    return _set_flag(source, calls, flag)


def _maker(source: Source, node: ast.AST) -> tuple[str, list[str]] | None:
    """What is called to make the chunks ``node`` is in, with its parameters as a call passes them:
    the class of the method (its ``__init__``'s, ``self`` left out), or the function."""
    function = next((a for a in source.ancestors(node) if isinstance(a, ast.FunctionDef)), None)
    if function is None:
        return None
    holder = source.parent(function)
    if isinstance(holder, ast.ClassDef):
        init = next(
            (s for s in holder.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"),
            None,
        )
        return (holder.name, _parameters(init)[1:]) if init is not None else None
    return function.name, _parameters(function)


def _parameters(function: ast.FunctionDef) -> list[str]:
    args = function.args
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]


def _imports(source: Source, name: str, module: str) -> bool:
    return any(
        isinstance(s, ast.ImportFrom)
        and (s.module or "").rsplit(".", 1)[-1] == module
        and any((a.asname or a.name) == name and a.name == name for a in s.names)
        for s in source.tree.body
    )


def _with_keyword(
    source: Source, call: ast.Call, keyword: str, arguments: dict[int, str]
) -> str | None:
    """The call's text with ``keyword`` put right after its last argument and the arguments of
    ``arguments`` (by id) written anew, the rest kept as written (comments and line breaks inside the
    parentheses included); None when what follows that argument is not its comma or the closing
    parenthesis (it is parenthesised), or a string spans the call's lines."""
    text = source.code(call)
    given = [*call.args, *call.keywords]
    if not given:
        return f"{source.code(call.func)}({keyword})"
    last = max(given, key=lambda a: (a.end_lineno or 0, a.end_col_offset or 0))
    at = offset_in(text, source.start(call), source.end(last))
    if not text[at:].lstrip().startswith((",", ")")):
        return None
    text = f"{text[:at]}, {keyword}{text[at:]}"
    for node in sorted(call.args, key=lambda a: (a.lineno, a.col_offset), reverse=True):
        if id(node) in arguments:
            start = offset_in(text, source.start(call), source.start(node))
            end = offset_in(text, source.start(call), source.end(node))
            text = text[:start] + arguments[id(node)] + text[end:]
    return in_place(source, call, text)


def pad_last_chunk(source: Source, finding: Finding) -> Rewrite | Refusal:
    found = direct_call(source, finding)
    if isinstance(found, Refusal):
        return Refusal(f"{_HAND}; {found.reason}")
    call, chunk, jitted = found.call, found.argument, found.jitted
    name = jitted.name
    params = [a.arg for a in (*jitted.args.posonlyargs, *jitted.args.args, *jitted.args.kwonlyargs)]
    if MASK not in params:
        return Refusal(
            f"{_HAND}; padding the last one would change what {name} computes: it takes no {MASK} "
            "of the valid rows"
        )
    static = finding.jit_site.static_params if finding.jit_site else ()
    if (
        MASK in static
        or any(k.arg == MASK for k in call.keywords)
        or params.index(MASK) < len(call.args)
    ):
        return Refusal(f"{_HAND}; the call passes {name}'s {MASK} already, or it is static")
    rows = _chunk_rows(source, call, chunk)
    if isinstance(rows, Refusal):
        return Refusal(f"{_HAND}; {rows.reason}")
    pad = pad_function(source, call)
    cut = source.code(chunk.slice)  # type: ignore[attr-defined]
    padded = {
        id(a): f"{pad.name}({source.code(a)}, {rows})"
        for a in call.args
        if _same_cut(source, a, cut)
    }
    if id(chunk) not in padded or any(_same_cut(source, k.value, cut) for k in call.keywords):
        return Refusal(f"{_HAND}; a chunk is passed by keyword, which the fix does not pad")
    mask = f"{MASK}=jnp.arange({rows}) < len({source.code(chunk)})"
    written = _with_keyword(source, call, mask, padded)
    if written is None:
        return Refusal("the call's last argument is not where the mask can follow it")
    return pad.add_to(Rewrite(replace={source.span(call): parse_expression(written)}, unsafe=True))


def _chunk_rows(source: Source, call: ast.Call, chunk: ast.expr) -> str | Refusal:
    """``bs`` of the loop ``for i in range(start, n, bs)`` that cuts ``chunk`` as ``x[i : i + bs]``,
    as written; why not, when the chunk is cut otherwise or the call passes other values of ``i``."""
    cut = chunk.slice if isinstance(chunk, ast.Subscript) else None
    if not (
        isinstance(cut, ast.Slice)
        and cut.step is None
        and isinstance(cut.lower, ast.Name)
        and isinstance(cut.upper, ast.BinOp)
        and isinstance(cut.upper.op, ast.Add)
        and isinstance(cut.upper.left, ast.Name)
        and cut.upper.left.id == cut.lower.id
        and pure(chunk)
    ):
        return Refusal("the chunk is not cut as x[i : i + size] where the call passes it")
    index, rows = cut.lower.id, source.code(cut.upper.right)
    loop = next(
        (
            a
            for a in source.ancestors(call)
            if isinstance(a, ast.For) and isinstance(a.target, ast.Name) and a.target.id == index
        ),
        None,
    )
    steps = loop.iter if loop is not None else None
    if not (
        isinstance(steps, ast.Call)
        and isinstance(steps.func, ast.Name)
        and steps.func.id == "range"
        and len(steps.args) == 3
        and source.code(steps.args[2]) == rows
    ):
        return Refusal(f"the chunk is not cut by a loop for {index} in range(start, n, {rows})")
    others = [
        a
        for a in (*call.args, *(k.value for k in call.keywords))
        if not _same_cut(source, a, source.code(cut))
        and any(isinstance(n, ast.Name) and n.id == index for n in ast.walk(a))
    ]
    if others:
        return Refusal(f"the call passes {source.code(others[0])} too, which the fix cannot pad")
    return rows


def _same_cut(source: Source, node: ast.expr, cut: str) -> bool:
    """Whether ``node`` is another array cut the same way as the chunk (``y[i : i + bs]``)."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Slice)
        and source.code(node.slice) == cut
        and pure(node)
    )
