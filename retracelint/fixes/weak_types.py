"""RTL401 / RTL402: the value that flips the jitted function's key is made like the other one.

- RTL401 (a weakly typed Python scalar where an array comes too): the scalar becomes a strongly typed
  0-d array, ``0.0`` → ``jnp.asarray(0.0, jnp.float32)`` (``jnp.asarray(0.0)`` gains the dtype). The dtype
  is guessed from the scalar (float32 for a float, int32 for an int: JAX's defaults without x64), so the
  fix is unsafe: a user must check it is the other value's dtype.
- RTL402 between a Python int and a float (both weak): the int literal becomes a float literal, ``0`` →
  ``0.0``; the values stay Python numbers, so this one is safe. Between two dtypes, the value made at the
  finding is cast to the other's where it is made (``jnp.asarray(x, jnp.int32)``), when the cast keeps
  every value; a value that is an int or a float by turns becomes ``float(...)``. Those are unsafe.

Where the finding is at the strongly typed value (``clip(x, limit)``), the weak one is looked for on the
line the message names: the one numeric literal passed to the same jitted function there. Where it is at
a def whose parameter's default is the value (``def run(scale=0.5)``), that default is rewritten.
"""

from __future__ import annotations

import ast
import re

from retracelint.fixes.base import (
    Refusal,
    Rewrite,
    Source,
    dataclass_field,
    dotted,
    has_binding,
    parse_expression,
    statement_of,
)
from retracelint.model import Finding
from retracelint.summarise.apis import _FLOAT_CONSTANTS

# Array makers whose dtype, when not given, comes from a Python number: where that number is.
_FILLED_BY = {"asarray": 0, "array": 0, "full": 1}
_ARRAY_MAKERS = frozenset(f"{m}.{f}" for m in ("jnp", "jax.numpy") for f in _FILLED_BY)
_FLOAT_MODULES = frozenset({"jnp", "np", "math", "numpy", "jax.numpy"})
_WEAK_ELSEWHERE = re.compile(r"weakly typed scalar at line (\d+)")
# Where the value is a parameter's default (the finding is then at the def): which parameter.
_DEFAULT_OF = re.compile(r" from the default of '(\w+)'")
_DTYPES = {float: "float32", int: "int32"}
_DATACLASS = frozenset({"dataclass", "dataclasses.dataclass"})
# RTL402's messages: "this makes int64 for 'idx' but int32 at ...", "'x' gets uint8 here but float32 at".
_FLIP = re.compile(r"(?:this makes|'[^']+' gets) (\w+)(?: for '[^']+'| here) but (\w+) at")
_INT_OR_FLOAT = re.compile(r" picks an int or a float ")
# RTL402 of a carried state: "t starts as int32 and is float32 after each iteration of the loop".
_INT_TO_FLOAT = re.compile(r"(\w+) starts as u?int\d+ and is (?:b?float|complex)\d+ ")
# The dtypes a value of a dtype is cast to keeping every value it can hold (integer indices and
# counts narrowed from int64 to int32 included: what x64 makes by default for them).
_SMALL_INTS = ("uint8", "int8", "uint16", "int16")
_KEEPS = {
    **{small: ("int32", "int64", "float32", "float64") for small in _SMALL_INTS},
    "int32": ("int64", "float64"),
    "int64": ("int32",),
    "float32": ("float64",),
    "bool": ("int32", "int64", "float32", "float64"),
}


def strong_scalar(source: Source, finding: Finding) -> Rewrite | Refusal:
    found = _weak_values(source, finding)
    if isinstance(found, Refusal):
        return found
    fields = [n for n in found if isinstance(source.parent(statement_of(source, n)), ast.ClassDef)]  # type: ignore[arg-type]
    factory = _default_factory(source, fields) if fields else ("", ())
    if isinstance(factory, Refusal):
        return factory
    imports: tuple[str, ...] = factory[1]
    if not has_binding(source, "jnp", "jax.numpy"):
        if "jnp" in source.module_names:
            return Refusal("jnp is bound to something other than jax.numpy here")
        imports = (*imports, "import jax.numpy as jnp")
    replace = {}
    for node in found:
        dtype = f"jnp.{_DTYPES[_number_kind(node)]}"  # type: ignore[index]
        if isinstance(node, ast.Call) and dotted(node.func) in _ARRAY_MAKERS:
            # jnp.asarray(0.0), jnp.full(n, -1): name the dtype
            args = [*(source.code(a) for a in node.args), *(source.code(k) for k in node.keywords)]
            new = f"{source.code(node.func)}({', '.join([*args, f'dtype={dtype}'])})"
        else:
            new = f"jnp.asarray({source.code(node)}, {dtype})"
        if node in fields:
            # each instance gets its own array, made when it is: a dataclass refuses one as a default
            new = f"{factory[0]}(default_factory=lambda: {new})"
        replace[source.span(node)] = parse_expression(new)
    return Rewrite(replace=replace, imports=imports)


def _default_factory(
    source: Source, fields: list[ast.expr]
) -> tuple[str, tuple[str, ...]] | Refusal:
    """How a field's default becomes an array made per instance (``field(default_factory=...)``):
    only in a dataclass that does not hash its fields (an array cannot be hashed)."""
    for node in fields:
        cls = source.parent(statement_of(source, node))  # type: ignore[arg-type]
        made = [
            d
            for d in cls.decorator_list
            if dotted(d.func if isinstance(d, ast.Call) else d) in _DATACLASS
        ]  # type: ignore[union-attr]
        hashed = any(
            k.arg in ("frozen", "unsafe_hash")
            and not (isinstance(k.value, ast.Constant) and not k.value.value)
            for d in made
            if isinstance(d, ast.Call)
            for k in d.keywords
        )
        if len(made) != 1 or hashed:
            return Refusal("it is a class field's default, which cannot be an array")
    return dataclass_field(source)


def float_literal(source: Source, finding: Finding) -> Rewrite | Refusal:
    node = _made_at(source, finding)
    carried = _INT_TO_FLOAT.match(finding.message)
    if carried is not None:
        # a carried state that starts as an int: it starts as the float it becomes (unsafe: what
        # reads the start sees 0.0 for 0); at the def, the default it starts as
        start = node if node is not None else _int_start(source, finding, carried.group(1))
        literal = start.operand if isinstance(start, ast.UnaryOp) else start
        if isinstance(literal, ast.Constant) and type(literal.value) is int:
            new = parse_expression(f"{literal.value}.0")
            return Rewrite(replace={source.span(literal): new}, unsafe=True)
        return Refusal(f"{carried.group(1)} does not start as an int literal here")
    if not finding.message.split(" is ", 1)[-1].startswith("an int"):
        return _cast(source, finding, node)
    literal = node.operand if isinstance(node, ast.UnaryOp) else node
    if not isinstance(literal, ast.Constant) or type(literal.value) is not int:
        return Refusal("the int is not a literal")
    return Rewrite(replace={source.span(literal): parse_expression(f"{literal.value}.0")})


def _cast(source: Source, finding: Finding, node: ast.expr | None) -> Rewrite | Refusal:
    """RTL402 between two dtypes: the value made here is cast to the other one's dtype where it is made
    (``jnp.asarray(np.arange(n), jnp.int32)``), or a value that is an int or a float by turns becomes a
    float. Unsafe: the jitted function computes in that dtype from then on; only casts that keep every
    value (``_KEEPS``) are made."""
    if node is None:
        return Refusal("the finding is not at the expression that makes the value")
    if _INT_OR_FLOAT.search(finding.message):
        return Rewrite(
            replace={source.span(node): parse_expression(f"float({source.code(node)})")},
            unsafe=True,
        )
    flip = _FLIP.search(finding.message)
    if flip is None:
        return Refusal("only a value of one dtype against another has a cast to make")
    made, wanted = flip.groups()
    if wanted not in _KEEPS.get(made, ()):
        return Refusal(f"a cast from {made} to {wanted} may change values")
    imports: tuple[str, ...] = ()
    if not has_binding(source, "jnp", "jax.numpy"):
        if "jnp" in source.module_names:
            return Refusal("jnp is bound to something other than jax.numpy here")
        imports = ("import jax.numpy as jnp",)
    new = f"jnp.asarray({source.code(node)}, jnp.{wanted})"
    return Rewrite(replace={source.span(node): parse_expression(new)}, imports=imports, unsafe=True)


def _weak_values(source: Source, finding: Finding) -> list[ast.expr] | Refusal:
    """The weakly typed values to make strong: the one at the finding (or assigned there; each item
    of a tuple assigned there), else the one number literal passed on the line the message names."""
    node = _made_at(source, finding)
    if node is not None and _number_kind(node) is None:
        holder = source.parent(node)
        if isinstance(holder, (ast.Assign, ast.AnnAssign)) and holder.value is not None:
            node = holder.value
    if isinstance(node, ast.Tuple) and node.elts and all(_number_kind(e) for e in node.elts):
        return list(node.elts)
    if node is not None and _number_kind(node) is not None:
        return [node]
    elsewhere = _WEAK_ELSEWHERE.search(finding.message)
    if elsewhere is None:
        return Refusal("cannot tell the dtype of the weakly typed value")
    line = int(elsewhere.group(1))
    site = finding.jit_site.name if finding.jit_site else None
    literals = [
        arg
        for call in ast.walk(source.tree)
        if isinstance(call, ast.Call)
        and call.lineno == line
        and dotted(call.func).rsplit(".", 1)[-1] == site
        for arg in [*call.args, *(k.value for k in call.keywords)]
        if _number_kind(arg) is not None
    ]
    if len(literals) != 1:
        return Refusal(f"no single number passed to {site} at line {line}")
    return literals


def _made_at(source: Source, finding: Finding) -> ast.expr | None:
    """The expression at the finding; where the value is a parameter's default (``def run(scale=0.5)``:
    the finding is at the def), that default."""
    loc = finding.location
    node = source.expression_at(loc.line, loc.col, loc.end_line, loc.end_col)
    default = _DEFAULT_OF.search(finding.message)
    if node is not None or default is None:
        return node
    fdef = _def_at(source, loc.line)
    if fdef is None:
        return None
    pairs = _defaults(fdef.args)
    return next((d for a, d in pairs if a == default.group(1) and d is not None), None)


def _int_start(source: Source, finding: Finding, state: str) -> ast.expr | None:
    """The default that the carried ``state`` starts as, where the finding is at the def whose
    parameter has it: the state is that parameter, or bound to it (``t = t_start``)."""
    fdef = _def_at(source, finding.location.line)
    if fdef is None:
        return None
    defaults = {a: d for a, d in _defaults(fdef.args) if d is not None}
    if state in defaults:
        return defaults[state]
    starts = {
        n.value.id
        for n in ast.walk(fdef)
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Name)
        and any(isinstance(t, ast.Name) and t.id == state for t in n.targets)
    }
    return defaults.get(starts.pop()) if len(starts) == 1 else None


def _def_at(source: Source, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The def whose ``def`` line or a decorator's is ``line``."""
    return next(
        (
            n
            for n in ast.walk(source.tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and line in (n.lineno, *(d.lineno for d in n.decorator_list))
        ),
        None,
    )


def _defaults(args: ast.arguments) -> list[tuple[str, ast.expr | None]]:
    """Each parameter that has a default, with it."""
    positional = [*args.posonlyargs, *args.args]
    return [
        *(
            (a.arg, d)
            for a, d in zip(
                positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
            )
        ),
        *((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)),
    ]


def _number_kind(node: ast.expr) -> type | None:
    """int or float, for a Python number whose kind the expression shows (``0.0``, ``-jnp.inf``,
    ``float(x)``, ``a / b``, ``jnp.asarray(0.0)``, ``jnp.full(n, -1)``); else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _number_kind(node.operand)
    if isinstance(node, ast.Constant):
        return type(node.value) if type(node.value) in _DTYPES else None
    if isinstance(node, ast.Attribute):
        module = dotted(node.value)
        return float if node.attr in _FLOAT_CONSTANTS and module in _FLOAT_MODULES else None
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div):
            return float
        kinds = {_number_kind(node.left), _number_kind(node.right)}
        return float if float in kinds else (int if kinds == {int} else None)
    if isinstance(node, ast.Call):
        called = dotted(node.func)
        if called in ("float", "int") and len(node.args) == 1:
            return float if called == "float" else int
        if called in _ARRAY_MAKERS and not any(k.arg == "dtype" for k in node.keywords):
            fill = _FILLED_BY.get(called.rsplit(".", 1)[-1])
            if fill is not None and len(node.args) == fill + 1:
                return _number_kind(node.args[fill])
    return None
