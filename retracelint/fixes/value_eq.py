"""RTL204: a fresh object passed static, of a class hashed by identity (or by ``__hash__`` alone, so
that two equal-looking objects still differ), gains ``__eq__`` and ``__hash__`` over the attributes
the jitted body reads of it (through the methods it reaches too): a new object with the same values
then finds the trace of the last one. Used where the class cannot become a pytree (another method
sets an attribute, or the body needs every attribute concrete).

The comparison reads the attributes when jax looks the object up, so an object changed after it is
made is compared as it is then. Each attribute must hash by value: one set from a literal, a scalar
or a tuple (``static_self``'s test), or one the body needs concrete (a shape, ``range``, control
flow) and reads as a value (not its attributes, a call of it or its items), which is a number, a
string or a tuple in a program that runs. A class compared by value may
behave otherwise elsewhere (as a dict key, in ``==``), which only a user can check: the fix is unsafe.
"""

from __future__ import annotations

import ast

from retracelint.fixes.base import Refusal, Rewrite, Source, parse_statement
from retracelint.fixes.static_params import jitted
from retracelint.fixes.static_self import (
    assigned_attributes,
    attribute_reads,
    class_of,
    method_named,
    set_by_value,
    where_jitted,
)
from retracelint.model import Finding


def compare_by_value(source: Source, finding: Finding) -> Rewrite | Refusal:
    """The fix where the function is jitted (this file or the jit site's)."""
    return where_jitted(source, finding, _in_class)


def _in_class(source: Source, finding: Finding) -> Rewrite | Refusal:
    found = jitted(source, finding)
    if isinstance(found, Refusal):
        return found
    cls = class_of(source, found.fdef, found.name)
    if cls is None:
        return Refusal(f"the class of {found.name} is not known here")
    if method_named(cls, "__eq__") is not None or cls.decorator_list:
        return Refusal(f"{cls.name} decides its own equality")
    reads = attribute_reads(source, cls, found.fdef, found.name, _set_anywhere(cls))
    if isinstance(reads, str):
        return Refusal(reads)
    compared = tuple(a for a in _set_anywhere(cls) if a in reads)
    if not compared:
        return Refusal(f"the jitted body reads no attribute of {found.name}")
    unhashable = [
        a
        for a in compared
        if not set_by_value(cls, a) and (reads[a] or _used_as_object(source, cls, found.fdef, a))
    ]
    if unhashable:
        return Refusal(f"{cls.name}.{unhashable[0]} may not hash by value")
    return _methods_rewrite(source, cls, compared)


def _used_as_object(source: Source, cls: ast.ClassDef, fdef: ast.AST, attribute: str) -> bool:
    """Whether the jitted body or a method of the class reads ``x.attribute`` as an object (its
    attributes or methods, a call of it) or iterates it: its items or the object may compare by
    identity, so that each new one still re-traces."""
    for scope in (fdef, *cls.body):
        for node in ast.walk(scope):
            if not (isinstance(node, ast.Attribute) and node.attr == attribute):
                continue
            parent = source.parent(node)
            if (
                (isinstance(parent, ast.Attribute) and parent.value is node)
                or (isinstance(parent, ast.Call) and parent.func is node)
                or (isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node)
            ):
                return True
    return False


def _set_anywhere(cls: ast.ClassDef) -> tuple[str, ...]:
    """The attributes any method of the class stores on its first parameter, in order."""
    out: list[str] = []
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.args.args:
            me = method.args.args[0].arg
            out += [a for stmt in ast.walk(method) for a in assigned_attributes(stmt, me)]
    return tuple(dict.fromkeys(out))


def _methods_rewrite(source: Source, cls: ast.ClassDef, compared: tuple[str, ...]) -> Rewrite:
    """``__eq__`` put before ``__hash__`` when that hashes only attributes compared (equal objects
    hash alike), else with a ``__hash__`` of its own in the old one's place, after ``__init__``
    (before it when it ends the class), or first in a class without one."""
    key = f"({', '.join(f'self.{a}' for a in compared)}{',' if len(compared) == 1 else ''})"
    eq = (
        "def __eq__(self, other):\n"
        "    # jax finds the trace of an equal object: one per value of what the jitted body reads\n"
        "    if type(other) is not type(self):\n"
        "        return NotImplemented\n"
        f"    return {key} == {key.replace('self.', 'other.')}\n"
    )
    old_hash = method_named(cls, "__hash__")
    kept = old_hash is not None and _hashes_only(old_hash, compared)
    methods = [parse_statement(eq)]
    if not kept:
        import libcst as cst

        hashed = parse_statement(f"def __hash__(self):\n    return hash({key})\n")
        methods.append(hashed.with_changes(leading_lines=[cst.EmptyLine(indent=False)]))
    return Rewrite(
        insert_before={source.start(_before(cls, old_hash)): methods},
        remove={source.start(old_hash)} if old_hash is not None and not kept else set(),
        unsafe=True,
    )


def _before(cls: ast.ClassDef, old_hash: ast.AST | None) -> ast.stmt:
    body = cls.body
    if old_hash is not None:
        return old_hash  # type: ignore[return-value]
    init = next((i for i, n in enumerate(body) if getattr(n, "name", None) == "__init__"), None)
    if init is None:  # first, after the class's docstring
        documented = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        return body[1] if documented and len(body) > 1 else body[0]
    return body[init + 1] if init + 1 < len(body) else body[init]


def _hashes_only(method: ast.FunctionDef | ast.AsyncFunctionDef, compared: tuple[str, ...]) -> bool:
    """Whether ``__hash__`` reads its object only as attributes that are compared."""
    me = method.args.args[0].arg if method.args.args else None
    for node in ast.walk(method):
        if isinstance(node, ast.Name) and node.id == me:
            parent = next(
                (p for p in ast.walk(method) if isinstance(p, ast.Attribute) and p.value is node),
                None,
            )
            if parent is None or parent.attr not in compared:
                return False
    return True
